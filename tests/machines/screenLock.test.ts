import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LOCK_TITLE_LOCKED, LOCK_TITLE_PAUSED, lockTitle, screenLockMachine, type ScreenLockContext } from '../../machines/screenLock.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

const PASSWORD = 'segredo-123'
const STARTED_AT = 1_700_000_000
const WRONG = { password: ['Senha incorreta'] }

function build(fakes: Fakes) {
  return screenLockMachine.provide({ actions: fakes.actions(['logFailure']), actors: fakes.requests(['validatePassword']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as ScreenLockContext

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  return [
    { type: 'LOCK', by: 'pause', pauseStartedAt: STARTED_AT },
    { type: 'LOCK', by: 'manual' },
    { type: 'PAUSE_CHANGED', active: false, startedAt: null },
    { type: 'SUBMIT', password: PASSWORD },
    { type: 'SUBMIT', password: '' },
    ...(snapshot.matches('validating')
      ? [
          { type: 'xstate.done.actor.validatePassword', output: { success: true } },
          { type: 'xstate.done.actor.validatePassword', output: { success: false } },
          { type: 'xstate.error.actor.validatePassword', error: { message: 'Bad Request', fieldErrors: WRONG } },
          { type: 'xstate.error.actor.validatePassword', error: { message: 'offline' } },
        ]
      : []),
  ]
}

describePaths({
  name: 'screenLock',
  machine: screenLockMachine,
  input: {},
  events,
  // Three states and three small flags: every simple path is enumerable.
  simplePaths: true,
  // Refused and failed validations, blank submits and repeated locks loop back: give each its own path.
  distinguish: (event) => /^xstate\.(done|error)\.actor\./.test(event.type) || event.type === 'SUBMIT' || event.type === 'LOCK',
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      if (index === 0) return expect(effects).toEqual([])
      const before = path.steps[index - 1].state
      const after = step.state
      const event = step.event
      const label = `step ${index} ${event.type}`
      // Only the password is sent, and only from the lock.
      const sends = after.matches('validating') && !before.matches('validating')
      expect(effectsOf(effects, 'validatePassword'), label).toEqual(sends ? [{ password: event.password }] : [])
      if (sends) expect(event.password).not.toBe('')
      // The lock lifts only on a validated password; every other outcome keeps it and is logged.
      if (after.matches('unlocked') && before.matches('validating')) {
        expect((event.output as { success: boolean }).success).toBe(true)
        expect(ctx(after).fieldErrors).toBeNull()
      }
      const refused = before.matches('validating') && after.matches('locked')
      expect(effectsOf(effects, 'logFailure').length, label).toBe(refused ? 1 : 0)
      if (refused) {
        const attached = (event.error as { fieldErrors?: unknown } | undefined)?.fieldErrors
        expect(ctx(after).fieldErrors, label).toEqual(attached ?? ctx(before).fieldErrors)
      }
      if (before.matches('unlocked') && !after.matches('unlocked')) expect(event.type).toBe('LOCK')
    })
    const context = ctx(snapshot)
    expect(JSON.stringify(context)).not.toContain(PASSWORD)
    expect(lockTitle(context)).toBe(context.pauseActive ? LOCK_TITLE_PAUSED : LOCK_TITLE_LOCKED)
  },
})

describe('screenLock behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start() {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: {} }).start()
    const settle = async (outcome: { output: unknown } | { error: unknown }) => {
      fakes.settle('validatePassword', outcome)
      await vi.advanceTimersByTimeAsync(0)
    }
    return { actor, log: fakes.log, settle }
  }

  it("a pause lock is titled 'Pausado' with the start time; a manual lock 'Tela bloqueada'", () => {
    const { actor } = start()
    actor.send({ type: 'LOCK', by: 'pause', pauseStartedAt: STARTED_AT })
    expect(lockTitle(actor.getSnapshot().context)).toBe('Pausado')
    expect(actor.getSnapshot().context.pauseStartedAt).toBe(STARTED_AT)
    // The break ends while the screen stays locked: the title follows.
    actor.send({ type: 'PAUSE_CHANGED', active: false, startedAt: null })
    expect(actor.getSnapshot().value).toBe('locked')
    expect(lockTitle(actor.getSnapshot().context)).toBe('Tela bloqueada')

    const manual = start()
    manual.actor.send({ type: 'LOCK', by: 'manual' })
    expect(lockTitle(manual.actor.getSnapshot().context)).toBe('Tela bloqueada')
  })

  it('unlocks only when the password is validated, sending only the password', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'LOCK', by: 'manual' })
    actor.send({ type: 'SUBMIT', password: PASSWORD })
    expect(effectsOf(log, 'validatePassword')).toEqual([{ password: PASSWORD }])
    await settle({ output: { success: false } })
    expect(actor.getSnapshot().value).toBe('locked')
    actor.send({ type: 'SUBMIT', password: PASSWORD })
    await settle({ output: { success: true } })
    expect(actor.getSnapshot().value).toBe('unlocked')
  })

  it('a failed unlock keeps the field errors and is only logged', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'LOCK', by: 'manual' })
    actor.send({ type: 'SUBMIT', password: 'errada' })
    await settle({ error: { message: 'Bad Request', fieldErrors: WRONG } })
    expect(actor.getSnapshot().context.fieldErrors).toEqual(WRONG)
    actor.send({ type: 'SUBMIT', password: 'errada de novo' })
    expect(actor.getSnapshot().context.fieldErrors).toEqual(WRONG)
    await settle({ output: { success: false } })
    expect(actor.getSnapshot().context.fieldErrors).toEqual(WRONG)
    expect(effectsOf(log, 'logFailure')).toHaveLength(2)
  })

  it('a blank password is not sent', () => {
    const { actor, log } = start()
    actor.send({ type: 'LOCK', by: 'manual' })
    actor.send({ type: 'SUBMIT', password: '' })
    expect(actor.getSnapshot().value).toBe('locked')
    expect(effectsOf(log, 'validatePassword')).toEqual([])
  })
})
