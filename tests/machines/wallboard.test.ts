import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { describe, expect, it } from 'vitest'
import type { WallboardDelta, WallboardSnapshot } from '../../contract/realtime/wallboard.ts'
import { wallboardMachine, type WallboardContext } from '../../machines/wallboard.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

// The wallboard's subscription (issue 19 item 1): subscribed only while watched and connected, every delta applied
// on its own revision, a gap or a reconnect answered by subscribing again (with the last revision after a reconnect,
// from scratch after a gap).

const ACTIONS = ['sendSocket', 'applySnapshot', 'applyDelta', 'markStale'] as const
function build(fakes: Fakes) {
  return wallboardMachine.provide({ actions: fakes.actions(ACTIONS) })
}
const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as WallboardContext

const snapshotFrame = (revision: number): WallboardSnapshot => ({
  action: 'wallboardSnapshot',
  feed: 'f1',
  revision,
  day_start: '2026-01-01T03:00:00.000Z',
  agents: [],
  queues: [],
})
const deltaFrame = (base: number, feed = 'f1'): WallboardDelta => ({
  action: 'wallboardDelta',
  feed,
  base,
  revision: base + 1,
  agents: [],
  removed_agents: [],
  queues: [],
  removed_queues: [],
  day_start: '2026-01-01T03:00:00.000Z',
})

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const revision = ctx(snapshot).revision
  return [
    { type: 'WATCH' },
    { type: 'UNWATCH' },
    { type: ctx(snapshot).connected ? 'DISCONNECTED' : 'CONNECTED' },
    ...(snapshot.matches({ watching: 'subscribing' }) ? [{ type: 'SNAPSHOT', frame: snapshotFrame(4) }, { type: 'REFUSED' }] : []),
    // A delta on the revision held, and one after a gap.
    ...(revision !== null ? [{ type: 'DELTA', frame: deltaFrame(revision) }, { type: 'DELTA', frame: deltaFrame(revision + 5) }] : []),
  ]
}

describePaths({
  name: 'wallboard',
  machine: wallboardMachine,
  events,
  timed: [],
  serializeState: (snapshot) => `${JSON.stringify(snapshot.value)} ${ctx(snapshot).connected} ${ctx(snapshot).revision === null ? 'none' : 'held'}`,
  simplePaths: false,
  build,
  expectEffects: (_snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      if (index === 0) return
      const effects = log.filter((effect) => effect.step === index)
      const before = path.steps[index - 1]!.state
      const after = step.state
      const event = step.event as AnyEventObject
      const label = `step ${index} ${event.type}`
      const sent = effectsOf(effects, 'sendSocket') as { action: string; feed?: string | null; revision?: number | null }[]
      // Subscribes exactly when it enters subscribing; never while the socket is down or nobody watches.
      const subscribes = after.matches({ watching: 'subscribing' }) && !(before.matches({ watching: 'subscribing' }) && event.type !== 'DELTA' && !event.type.startsWith('xstate.after'))
      expect(sent.filter((m) => m.action === 'wallboard_subscribe').length, label).toBe(subscribes ? 1 : 0)
      if (subscribes) expect(ctx(after).connected, label).toBe(true)
      // After a reconnect it names the revision it holds, so it hears only what it missed.
      if (subscribes && event.type === 'CONNECTED') expect(sent[0], label).toMatchObject({ feed: ctx(before).feed, revision: ctx(before).revision })
      // A delta applies only on the revision it names; a gap applies nothing and asks for a snapshot.
      if (event.type === 'DELTA') {
        const fits = event.frame.base === ctx(before).revision && before.matches('watching') && !before.matches({ watching: 'refused' }) && !before.matches({ watching: 'offline' })
        expect(effectsOf(effects, 'applyDelta').length, label).toBe(fits ? 1 : 0)
        if (fits) expect(ctx(after).revision, label).toBe(event.frame.revision)
        if (!fits && before.matches({ watching: 'live' })) expect(sent, label).toEqual([{ action: 'wallboard_subscribe', feed: null, revision: null }])
      }
      if (event.type === 'SNAPSHOT') expect(effectsOf(effects, 'applySnapshot').length, label).toBe(1)
      // Leaving: unsubscribes, forgets its revision and marks the data stale.
      if (event.type === 'UNWATCH' && before.matches('watching')) {
        expect(sent, label).toEqual([{ action: 'wallboard_unsubscribe' }])
        expect(ctx(after).revision, label).toBeNull()
        expect(effectsOf(effects, 'markStale').length, label).toBeGreaterThan(0)
      }
      if (before.matches('idle') && event.type !== 'WATCH') expect(sent, label).toEqual([])
    })
  },
})

describe('wallboard behaviour', () => {
  it('resumes from the revision it held after the socket came back, and from scratch after a gap', () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes)).start()
    actor.send({ type: 'CONNECTED' })
    actor.send({ type: 'WATCH' })
    actor.send({ type: 'SNAPSHOT', frame: snapshotFrame(7) })
    actor.send({ type: 'DELTA', frame: deltaFrame(7) })
    actor.send({ type: 'DISCONNECTED' })
    actor.send({ type: 'CONNECTED' })
    const subscribes = () => (effectsOf(fakes.log, 'sendSocket') as { action: string }[]).filter((m) => m.action === 'wallboard_subscribe')
    expect(subscribes()).toEqual([
      { action: 'wallboard_subscribe', feed: null, revision: null },
      { action: 'wallboard_subscribe', feed: 'f1', revision: 8 },
    ])
    actor.send({ type: 'DELTA', frame: deltaFrame(8) })
    expect(actor.getSnapshot().matches({ watching: 'live' })).toBe(true)
    actor.send({ type: 'DELTA', frame: deltaFrame(12) })
    expect(subscribes().at(-1)).toEqual({ action: 'wallboard_subscribe', feed: null, revision: null })
    expect(effectsOf(fakes.log, 'applyDelta')).toHaveLength(2)
    actor.stop()
  })
})
