import { and, eq } from 'drizzle-orm'
import { createActor } from 'xstate'
import type { Db } from '../../db/client.ts'
import { pabxSoundsEntries } from '../../db/schema/index.ts'
import { resolveSound } from '../library.ts'
import type { MediaCall } from './call-context.ts'
import { announceMachine } from './machines.ts'

// `announce`: the sound entry `appdata` (the spec's announce lookup is sounds-entries) is played to the caller, then
// the call continues to the entry's `then` destination (announceThen), else it is hung up. A sound that is missing or inactive plays
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

/** Where the caller goes after the sound entry plays as an announcement: its `then` destination, or null (hang up). */
export async function announceThen(db: Db, siteId: number, soundId: number): Promise<{ app: string; appdata: string } | null> {
  if (!Number.isSafeInteger(soundId)) return null
  const [entry] = await db
    .select({ app: pabxSoundsEntries.thenApp, appdata: pabxSoundsEntries.thenAppdata })
    .from(pabxSoundsEntries)
    .where(and(eq(pabxSoundsEntries.id, soundId), eq(pabxSoundsEntries.siteId, siteId)))
  return entry?.app ? { app: entry.app, appdata: entry.appdata } : null
}
