import { createActor } from 'xstate'
import { resolveSound } from '../library.ts'
import type { MediaCall } from './call-context.ts'
import { announceMachine } from './machines.ts'

// `announce`: the sound entry `appdata` (the spec's announce lookup is sounds-entries) is played to the caller, then
// the call continues to `then` when the brain names one, else it is hung up. A sound that is missing or inactive plays
// nothing and the call continues at once. README.md "Announcements".

export async function enterAnnounce(call: MediaCall, soundId: number, then: { app: string; appdata: string } | null): Promise<void> {
  const sound = await resolveSound(call.db, call.siteId, soundId)
  const machine = announceMachine.provide({
    actions: {
      playSound: () => call.play(sound ? [sound] : [], false),
      goOn: () => setImmediate(() => (then ? call.goTo(then.app, then.appdata) : call.hangup())),
    },
  })
  call.setActor(createActor(machine).start())
}
