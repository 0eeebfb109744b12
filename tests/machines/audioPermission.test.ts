import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { describe, expect, it } from 'vitest'
import { audioPermissionMachine, type AudioPermissionContext } from '../../machines/audioPermission.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

// The audio dialog opens on any refused playback, not only the start-up one; 'Permitir' retries exactly the refused
// playbacks still waiting, and a retry refused even inside the click does not bring the dialog back.

function build(fakes: Fakes) {
  return audioPermissionMachine.provide({ actions: fakes.actions(['retry']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as AudioPermissionContext

// Two playbacks are enough to tell "the one that ended" from "the one still waiting". A retry's refusal exists only
// once 'Permitir' was clicked, so never before anything played.
function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  return [
    { type: 'PLAYBACK_BLOCKED', id: 'probe-1', retried: false },
    { type: 'PLAYBACK_BLOCKED', id: 'call-2', retried: false },
    ...(snapshot.matches('unknown') ? [] : [{ type: 'PLAYBACK_BLOCKED', id: 'call-2', retried: true }]),
    { type: 'PLAYBACK_OK', id: 'probe-1' },
    { type: 'PLAYBACK_ENDED', id: 'call-2' },
    { type: 'ALLOW' },
  ]
}

describePaths({
  name: 'audioPermission',
  machine: audioPermissionMachine,
  events,
  // Four states and at most two waiting ids: the simple paths stay in the hundreds.
  simplePaths: true,
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const retries = effectsOf(effects, 'retry')
      if (index === 0) return expect(effects).toEqual([])
      const before = path.steps[index - 1].state
      const after = step.state
      const label = `step ${index} ${step.event.type}`
      // Only the click retries, and it retries what was waiting, in order; then nothing waits.
      const clicked = step.event.type === 'ALLOW' && before.matches('blocked')
      expect(retries, label).toEqual(clicked ? [{ ids: ctx(before).waiting }] : [])
      if (clicked) expect(ctx(after).waiting, label).toEqual([])
      // The dialog opens only on a refusal, and a refusal of the click's own retry never opens it.
      if (after.matches('blocked') && !before.matches('blocked')) {
        expect(step.event.type, label).toBe('PLAYBACK_BLOCKED')
        expect(step.event.retried, label).toBe(false)
      }
      // It closes only through 'Permitir'.
      if (before.matches('blocked') && !after.matches('blocked')) expect(step.event.type, label).toBe('ALLOW')
      if (step.event.type === 'PLAYBACK_BLOCKED') expect(ctx(after).waiting, label).toContain(step.event.id)
      if (step.event.type === 'PLAYBACK_ENDED' || step.event.type === 'PLAYBACK_OK') expect(ctx(after).waiting, label).not.toContain(step.event.id)
    })
    expect(new Set(ctx(snapshot).waiting).size).toBe(ctx(snapshot).waiting.length)
  },
})

describe('audioPermission behaviour', () => {
  function start() {
    const fakes = createFakes()
    return { actor: createActor(build(fakes)).start(), log: fakes.log }
  }

  it('opens on a block that comes after the start-up playback went through', () => {
    const { actor } = start()
    actor.send({ type: 'PLAYBACK_OK', id: 'probe-1' })
    expect(actor.getSnapshot().value).toBe('allowed')
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'call-2', retried: false })
    expect(actor.getSnapshot().value).toBe('blocked')
  })

  it("'Permitir' retries every refused playback still waiting, once", () => {
    const { actor, log } = start()
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'probe-1', retried: false })
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'call-2', retried: false })
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'call-3', retried: false })
    actor.send({ type: 'PLAYBACK_ENDED', id: 'call-2' })
    actor.send({ type: 'ALLOW' })
    expect(effectsOf(log, 'retry')).toEqual([{ ids: ['probe-1', 'call-3'] }])
    expect(actor.getSnapshot().value).toBe('allowed')
    actor.send({ type: 'ALLOW' })
    expect(effectsOf(log, 'retry')).toHaveLength(1)
  })

  it('a retry refused inside the click is not asked again until a playback goes through', () => {
    const { actor } = start()
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'probe-1', retried: false })
    actor.send({ type: 'ALLOW' })
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'probe-1', retried: true })
    expect(actor.getSnapshot().value).toBe('refused')
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'call-2', retried: false })
    expect(actor.getSnapshot().value).toBe('refused')
    actor.send({ type: 'PLAYBACK_OK', id: 'call-3' })
    actor.send({ type: 'PLAYBACK_BLOCKED', id: 'call-4', retried: false })
    expect(actor.getSnapshot().value).toBe('blocked')
    expect(actor.getSnapshot().context.waiting).toEqual(['probe-1', 'call-2', 'call-4'])
  })
})
