import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { describe, expect, it } from 'vitest'
import { telephonyChannelMachine, type TelephonyChannelContext } from '../../machines/telephonyChannel.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

// The telephony channel sign-in follows the webphone (spec 000 §7 "Agent channel"): in once the phone runs, by the
// system when the team's auto login started it, out when the agent stops it; another tab serving changes nothing.

function build(fakes: Fakes) {
  return telephonyChannelMachine.provide({ actions: fakes.actions(['signOut']), actors: fakes.requests(['signIn']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as TelephonyChannelContext
const phone = (state: 'ready' | 'off' | 'otherTab', autoLogin = false) => ({
  type: 'PHONE_CHANGED' as const,
  ready: state === 'ready',
  off: state === 'off',
  autoLogin,
})

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  return [
    phone('ready'),
    phone('ready', true),
    phone('off'),
    phone('otherTab'),
    ...(snapshot.matches('signingIn')
      ? [
          { type: 'xstate.done.actor.signIn', output: {} },
          { type: 'xstate.error.actor.signIn', error: new Error('offline') },
        ]
      : []),
  ]
}

describePaths({
  name: 'telephonyChannel',
  machine: telephonyChannelMachine,
  events,
  // Three states and who signed in: every simple path is enumerable.
  simplePaths: true,
  distinguish: (event) => event.type === 'PHONE_CHANGED' || /^xstate\.(done|error)\.actor\./.test(event.type),
  build,
  expectEffects: (_snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      if (index === 0) return expect(effects).toEqual([])
      const before = path.steps[index - 1].state
      const after = step.state
      const event = step.event as AnyEventObject
      const label = `step ${index} ${event.type}`
      // A sign-in only when a signed-out agent's phone runs, made by whoever started the phone.
      const signsIn = before.matches('signedOut') && event.type === 'PHONE_CHANGED' && event.ready
      expect(effectsOf(effects, 'signIn'), label).toEqual(signsIn ? [{ by: event.autoLogin ? 'system' : 'user' }] : [])
      if (signsIn) expect(after.matches('signingIn'), label).toBe(true)
      // A sign-out only when the agent stops a phone that was signed in (or signing in); another tab changes nothing.
      const signsOut = !before.matches('signedOut') && event.type === 'PHONE_CHANGED' && event.off
      expect(effectsOf(effects, 'signOut'), label).toEqual(signsOut ? [undefined] : [])
      if (signsOut) expect(after.matches('signedOut'), label).toBe(true)
      if (event.type === 'PHONE_CHANGED' && !event.ready && !event.off) expect(after.value, label).toEqual(before.value)
      // The answer decides: signed in, or out again (the next ready phone tries again).
      if (event.type === 'xstate.done.actor.signIn') expect(after.matches('signedIn'), label).toBe(true)
      if (event.type === 'xstate.error.actor.signIn') expect(after.matches('signedOut'), label).toBe(true)
      if (!after.matches('signedOut')) expect(ctx(after).by, label).not.toBeNull()
    })
  },
})

describe('telephonyChannel behaviour', () => {
  it('signs in once however often the running phone changes, and tries again after a failed sign-in', async () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes)).start()
    actor.send(phone('ready', true))
    actor.send(phone('ready', true))
    expect(effectsOf(fakes.log, 'signIn')).toEqual([{ by: 'system' }])
    fakes.settle('signIn', { error: new Error('offline') })
    await Promise.resolve()
    await Promise.resolve()
    expect(actor.getSnapshot().value).toBe('signedOut')
    actor.send(phone('ready'))
    expect(effectsOf(fakes.log, 'signIn')).toEqual([{ by: 'system' }, { by: 'user' }])
    fakes.settle('signIn', { output: {} })
    await Promise.resolve()
    await Promise.resolve()
    expect(actor.getSnapshot().value).toBe('signedIn')
    actor.send(phone('otherTab'))
    expect(actor.getSnapshot().value).toBe('signedIn')
    actor.send(phone('off'))
    expect(effectsOf(fakes.log, 'signOut')).toHaveLength(1)
    expect(actor.getSnapshot().value).toBe('signedOut')
  })
})
