import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { describe, expect, it } from 'vitest'
import { conferenceMachine, type ConferenceContext } from '../../machines/conference.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

function build(fakes: Fakes) {
  return conferenceMachine.provide({ actions: fakes.actions(['phone']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as ConferenceContext

function events(): AnyEventObject[] {
  return [
    { type: 'CALL_ENDED', callId: 'a' },
    { type: 'CALL_ENDED', callId: 'b' },
    { type: 'CALL_ENDED', callId: 'c' },
    { type: 'CALL_ENDED', callId: 'x' },
    { type: 'ADD_CALL', callId: 'd' },
    { type: 'END' },
  ]
}

describePaths({
  name: 'conference',
  machine: conferenceMachine,
  input: { callIds: ['a', 'b', 'c'] },
  events,
  // The call set only shrinks (and d joins once): finite and small, so every simple path too.
  simplePaths: true,
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const before = index > 0 ? ctx(path.steps[index - 1].state) : null
      const after = ctx(step.state)
      const label = `step ${index} ${step.event.type}`
      const changed = !before || JSON.stringify(before.callIds) !== JSON.stringify(after.callIds) || step.event.type === 'END'
      // Each change of the set re-mixes the calls; the end stops the mixing.
      const expected = !changed ? [] : step.state.matches('ended') ? [{ type: 'conference', callIds: [] }] : [{ type: 'conference', callIds: after.callIds }]
      expect(effectsOf(effects, 'phone'), label).toEqual(expected)
    })
    if (snapshot.matches('mixing')) expect(ctx(snapshot).callIds.length).toBeGreaterThanOrEqual(2)
    if (snapshot.matches('ended')) expect(snapshot.status).toBe('done')
  },
})

describe('conference behaviour', () => {
  it('never mixes fewer than two calls', () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { callIds: ['a'] } }).start()
    expect(actor.getSnapshot().status).toBe('done')
    expect(effectsOf(fakes.log, 'phone')).toEqual([{ type: 'conference', callIds: [] }])
  })

  it('ends when the second to last call hangs up', () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { callIds: ['a', 'b'] } }).start()
    actor.send({ type: 'CALL_ENDED', callId: 'b' })
    expect(actor.getSnapshot().output).toEqual({ callIds: ['a'] })
    expect(effectsOf(fakes.log, 'phone')).toEqual([
      { type: 'conference', callIds: ['a', 'b'] },
      { type: 'conference', callIds: [] },
    ])
  })
})
