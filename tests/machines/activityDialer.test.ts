import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Activity } from '../../contract/api/activities.ts'
import { ACTIVITY_MAX_ATTEMPTS } from '../../contract/constants.ts'
import { activityDialerMachine, canDial, dialable, FAILURE_WAIT_MS, nextActivity, type ActivityDialerContext } from '../../machines/activityDialer.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

const NOW = Date.parse('2025-04-22T12:00:00Z')

function activity(overrides: Partial<Activity> = {}): Activity {
  return {
    id: 1,
    user: 7,
    destination: '5511999990001',
    client: null,
    mailing: null,
    mailing_client: null,
    campaign: null,
    dialer: null,
    count: 0,
    done: false,
    start: '2025-04-22T11:00:00Z',
    end: null,
    subject: 'Retorno',
    type: 'call',
    target: '',
    active: true,
    automatic_execution: true,
    created_by: 2,
    created: '2025-04-22T10:00:00Z',
    updated: '2025-04-22T10:00:00Z',
    ...overrides,
  }
}

const A = activity()
const CALL = 'call-1'

function build(fakes: Fakes) {
  return activityDialerMachine.provide({ actions: fakes.actions(['sendSocket', 'markDone']), actors: fakes.requests(['attempt', 'dial']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as ActivityDialerContext

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  return [
    { type: 'SERVING_CHANGED', serving: !ctx(snapshot).serving },
    { type: 'REGISTRATION_CHANGED', registered: !ctx(snapshot).registered },
    { type: 'STATUS_CHANGED', status: 'not_inuse' },
    { type: 'STATUS_CHANGED', status: 'paused' },
    { type: 'ACTIVITIES', activities: [A], at: NOW },
    { type: 'ACTIVITIES', activities: [], at: NOW },
    ...(snapshot.matches('attempting')
      ? [
          { type: 'xstate.done.actor.attempt', output: { ...A, count: 1 } },
          { type: 'xstate.done.actor.attempt', output: { ...A, done: true, count: 3 } },
          { type: 'xstate.error.actor.attempt', error: new Error('offline') },
        ]
      : []),
    ...(snapshot.matches('dialling')
      ? [
          { type: 'xstate.done.actor.dial', output: { callId: CALL } },
          { type: 'xstate.error.actor.dial', error: new Error('refused') },
        ]
      : []),
    ...(snapshot.matches('calling') || snapshot.matches('answered')
      ? [
          { type: 'CALL_CHANGED', callId: CALL, accepted: true, ended: false },
          { type: 'CALL_CHANGED', callId: CALL, accepted: false, ended: true },
          { type: 'CALL_CHANGED', callId: 'call-other', accepted: true, ended: true },
        ]
      : []),
  ]
}

describePaths({
  name: 'activityDialer',
  machine: activityDialerMachine,
  input: { enabled: true },
  events,
  // The inputs (serving, registration, status, list) multiply every state: simple paths run into the thousands;
  // the shortest path to each told-apart state covers every transition.
  simplePaths: false,
  serializeState: (snapshot) => {
    const { serving, registered, status, queue, doneIds, current, callId } = ctx(snapshot)
    return JSON.stringify([snapshot.value, serving, registered, status, queue.map((a) => a.id), doneIds, current?.id ?? null, callId])
  },
  distinguish: (event) => /^xstate\.(done|error)\.actor\./.test(event.type) || event.type === 'CALL_CHANGED',
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      if (index === 0) return expect(effects).toEqual([])
      const before = path.steps[index - 1].state
      const after = step.state
      const label = `step ${index} ${step.event.type}`
      // An attempt starts only when the agent is available in the serving tab with a registered phone.
      const attempts = effectsOf(effects, 'attempt')
      expect(attempts.length, label).toBe(after.matches('attempting') && !before.matches('attempting') ? 1 : 0)
      if (attempts.length) {
        expect(canDial(ctx(after)), label).toBe(true)
        expect(attempts[0]).toEqual({ id: A.id })
      }
      // The dial follows a counted attempt, never anything else.
      const dials = effectsOf(effects, 'dial')
      expect(dials.length, label).toBe(after.matches('dialling') && !before.matches('dialling') ? 1 : 0)
      if (dials.length) {
        expect(step.event.type).toBe('xstate.done.actor.attempt')
        expect(dials[0]).toEqual({ id: A.id, destination: A.destination })
      }
      // Done (socket and REST) exactly when its call is answered.
      const answered = after.matches('answered') && !before.matches('answered')
      expect(effectsOf(effects, 'sendSocket'), label).toEqual(answered ? [{ action: 'done_activity', id: A.id }] : [])
      expect(effectsOf(effects, 'markDone'), label).toEqual(answered ? [{ id: A.id }] : [])
      // A try that failed waits the whole FAILURE_WAIT_MS: leaving `waiting` takes its timer.
      if (before.matches('waiting') && !after.matches('waiting')) expect(step.event.type).toMatch(/^xstate\.after\./)
      // Leaving not_inuse (or the tab, or the registration) stops an attempt before the dial.
      if (before.matches('attempting') && after.matches('idle') && !step.event.type.startsWith('xstate.')) expect(canDial(ctx(after))).toBe(false)
    })
    // An answered activity is never in the queue again.
    for (const id of ctx(snapshot).doneIds) expect(ctx(snapshot).queue.map((a) => a.id)).not.toContain(id)
  },
})

describe('activityDialer behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start() {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { enabled: true } }).start()
    const settle = async (id: string, outcome: { output: unknown } | { error: unknown }) => {
      fakes.settle(id, outcome)
      await vi.advanceTimersByTimeAsync(0)
    }
    const available = () => {
      actor.send({ type: 'SERVING_CHANGED', serving: true })
      actor.send({ type: 'REGISTRATION_CHANGED', registered: true })
      actor.send({ type: 'STATUS_CHANGED', status: 'not_inuse' })
    }
    return { actor, log: fakes.log, settle, available, fakes }
  }

  it('dials the first due automatic activity after recording the attempt, and marks it done when answered', async () => {
    const { actor, log, settle, available } = start()
    const B = activity({ id: 2, destination: '5511988880002' })
    actor.send({ type: 'ACTIVITIES', activities: [activity({ id: 9, automatic_execution: false }), A, B], at: NOW })
    expect(effectsOf(log, 'attempt')).toEqual([])
    available()
    expect(effectsOf(log, 'attempt')).toEqual([{ id: 1 }])
    expect(effectsOf(log, 'dial')).toEqual([])
    await settle('attempt', { output: { ...A, count: 1 } })
    expect(effectsOf(log, 'dial')).toEqual([{ id: 1, destination: A.destination }])
    await settle('dial', { output: { callId: CALL } })
    // Our own call makes the agent busy: the dialer follows the call.
    actor.send({ type: 'STATUS_CHANGED', status: 'busy' })
    expect(actor.getSnapshot().value).toBe('calling')
    actor.send({ type: 'CALL_CHANGED', callId: CALL, accepted: true, ended: false })
    expect(effectsOf(log, 'sendSocket')).toEqual([{ action: 'done_activity', id: 1 }])
    expect(effectsOf(log, 'markDone')).toEqual([{ id: 1 }])
    // The socket's list may still carry it for a moment: it is not dialled again.
    actor.send({ type: 'ACTIVITIES', activities: [A, B], at: NOW })
    expect(actor.getSnapshot().context.queue.map((a) => a.id)).toEqual([2])
    actor.send({ type: 'CALL_CHANGED', callId: CALL, accepted: true, ended: true })
    expect(actor.getSnapshot().value).toBe('idle')
    actor.send({ type: 'STATUS_CHANGED', status: 'after_service' })
    expect(effectsOf(log, 'attempt')).toHaveLength(1)
    actor.send({ type: 'STATUS_CHANGED', status: 'not_inuse' })
    expect(effectsOf(log, 'attempt')).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('never starts a try during a pause, after-service, ringing, another call, another tab or without registration', () => {
    for (const status of ['paused', 'after_service', 'ringing', 'busy', 'do_not_disturb', 'unavailable'] as const) {
      const { actor, log } = start()
      actor.send({ type: 'ACTIVITIES', activities: [A], at: NOW })
      actor.send({ type: 'SERVING_CHANGED', serving: true })
      actor.send({ type: 'REGISTRATION_CHANGED', registered: true })
      actor.send({ type: 'STATUS_CHANGED', status })
      expect(effectsOf(log, 'attempt'), status).toEqual([])
    }
    const notServing = start()
    notServing.actor.send({ type: 'ACTIVITIES', activities: [A], at: NOW })
    notServing.actor.send({ type: 'REGISTRATION_CHANGED', registered: true })
    notServing.actor.send({ type: 'STATUS_CHANGED', status: 'not_inuse' })
    expect(effectsOf(notServing.log, 'attempt')).toEqual([])
    const disabled = createFakes()
    const off = createActor(build(disabled), { input: { enabled: false } }).start()
    off.send({ type: 'ACTIVITIES', activities: [A], at: NOW })
    off.send({ type: 'SERVING_CHANGED', serving: true })
    off.send({ type: 'REGISTRATION_CHANGED', registered: true })
    off.send({ type: 'STATUS_CHANGED', status: 'not_inuse' })
    expect(effectsOf(disabled.log, 'attempt')).toEqual([])
  })

  it('stops at once when the agent leaves not_inuse while the attempt is recorded: nothing is dialled', async () => {
    const { actor, log, settle, available, fakes } = start()
    actor.send({ type: 'ACTIVITIES', activities: [A], at: NOW })
    available()
    expect(fakes.pending.map((p) => p.id)).toEqual(['attempt'])
    actor.send({ type: 'STATUS_CHANGED', status: 'paused' })
    expect(actor.getSnapshot().value).toBe('idle')
    // The answer arrives late: ignored.
    fakes.pending[0].resolve({ ...A, count: 1 })
    await vi.advanceTimersByTimeAsync(0)
    expect(effectsOf(log, 'dial')).toEqual([])
    void settle
  })

  it(`waits ${FAILURE_WAIT_MS / 1000} s after an unanswered call, then tries the activity tried least recently`, async () => {
    const { actor, log, settle, available } = start()
    const B = activity({ id: 2, destination: '5511988880002' })
    actor.send({ type: 'ACTIVITIES', activities: [A, B], at: NOW })
    available()
    await settle('attempt', { output: { ...A, count: 1 } })
    await settle('dial', { output: { callId: CALL } })
    actor.send({ type: 'CALL_CHANGED', callId: 'call-other', accepted: false, ended: true })
    expect(actor.getSnapshot().value).toBe('calling')
    actor.send({ type: 'CALL_CHANGED', callId: CALL, accepted: false, ended: true })
    expect(actor.getSnapshot().value).toBe('waiting')
    expect(effectsOf(log, 'sendSocket')).toEqual([])
    await vi.advanceTimersByTimeAsync(FAILURE_WAIT_MS - 1)
    expect(effectsOf(log, 'attempt')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(effectsOf(log, 'attempt')).toEqual([{ id: 1 }, { id: 2 }])
    // B's dial is refused by the webphone: another wait, then A again (tried before B).
    await settle('attempt', { output: { ...B, count: 1 } })
    await settle('dial', { error: new Error('refused') })
    expect(actor.getSnapshot().value).toBe('waiting')
    await vi.advanceTimersByTimeAsync(FAILURE_WAIT_MS)
    expect(effectsOf(log, 'attempt')).toEqual([{ id: 1 }, { id: 2 }, { id: 1 }])
  })

  it('a failed attempt request waits too; an activity done by hand meanwhile is not dialled; the 50th attempt still is', async () => {
    const { actor, log, settle, available } = start()
    actor.send({ type: 'ACTIVITIES', activities: [A], at: NOW })
    available()
    await settle('attempt', { error: new Error('offline') })
    expect(actor.getSnapshot().value).toBe('waiting')
    expect(effectsOf(log, 'dial')).toEqual([])
    await vi.advanceTimersByTimeAsync(FAILURE_WAIT_MS)
    expect(effectsOf(log, 'attempt')).toHaveLength(2)
    await settle('attempt', { output: { ...A, done: true, count: 4 } })
    expect(effectsOf(log, 'dial')).toEqual([])
    expect(actor.getSnapshot().context.queue).toEqual([])

    const last = start()
    last.actor.send({ type: 'ACTIVITIES', activities: [activity({ count: ACTIVITY_MAX_ATTEMPTS - 1 })], at: NOW })
    last.available()
    await last.settle('attempt', { output: { ...A, done: true, count: ACTIVITY_MAX_ATTEMPTS } })
    expect(effectsOf(last.log, 'dial')).toEqual([{ id: 1, destination: A.destination }])
  })

  it('dialable keeps automatic, active, undone activities within their end; nextActivity is least recently tried', () => {
    const list = [
      activity({ id: 1 }),
      activity({ id: 2, automatic_execution: false }),
      activity({ id: 3, done: true }),
      activity({ id: 4, active: false }),
      activity({ id: 5, end: '2025-04-22T11:59:59Z' }),
      activity({ id: 6, end: '2025-04-22T12:00:00Z' }),
      activity({ id: 7, count: ACTIVITY_MAX_ATTEMPTS }),
      activity({ id: 8 }),
    ]
    expect(dialable(list, NOW).map((a) => a.id)).toEqual([1, 6, 8])
    expect(dialable(list, NOW, [1]).map((a) => a.id)).toEqual([6, 8])
    const queue = dialable(list, NOW)
    expect(nextActivity({ queue, tried: {} })?.id).toBe(1)
    expect(nextActivity({ queue, tried: { 1: 0 } })?.id).toBe(6)
    expect(nextActivity({ queue, tried: { 1: 2, 6: 0, 8: 1 } })?.id).toBe(6)
    expect(nextActivity({ queue: [], tried: {} })).toBeNull()
  })
})
