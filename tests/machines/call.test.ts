import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ANSWER_EVENT_DELAY_MS, callMachine, dtmfTiming, EARLY_HANGUP_WINDOW_MS, type CallContext, type CallInput } from '../../machines/call.machine.ts'
import type { PhoneCommand } from '../../machines/webphoneTypes.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

const ID = 'call-1'
const INCOMING: CallInput = { id: ID, direction: 'incoming', phone: '5511999990000', name: 'Ana', uid: 'uid-1', callType: 20 }
const OUTGOING: CallInput = { id: ID, direction: 'outgoing', phone: '5511988887777', callType: 10 }
const METADATA = { form: 7, client: 3 }

function build(fakes: Fakes) {
  return callMachine.provide({ actions: fakes.actions(['phone', 'sendSocket', 'changed']), actors: fakes.requests(['fetchMetadata']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as CallContext
const commands = (log: Parameters<typeof effectsOf>[0]) => effectsOf(log, 'phone') as PhoneCommand[]

/** The one timer the graph may fire in a snapshot (the graph cannot order timers that race). */
function timerEvent(context: CallContext): AnyEventObject[] {
  if (context.metadataWaiting) return [{ type: 'METADATA_POLL' }]
  if (context.dtmfBusy) return [{ type: 'DTMF_NEXT' }]
  if (context.early && !context.answerEventPending) return [{ type: 'EARLY_WINDOW_CLOSED' }]
  if (context.answerEventPending && !context.early) return [{ type: 'ANSWER_EVENT' }]
  return []
}

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = ctx(snapshot)
  return [
    { type: 'ANSWER' },
    { type: 'HANGUP' },
    { type: 'HOLD' },
    { type: 'UNHOLD' },
    { type: 'MUTE' },
    { type: 'UNMUTE' },
    ...(context.dtmfQueue.length === 0 ? [{ type: 'DTMF', tone: '5' }] : []),
    { type: 'PHONE_ACCEPTED', callId: ID },
    { type: 'PHONE_ENDED', callId: ID, code: null, reason: 'BYE' },
    ...(context.metadataFetching
      ? [
          { type: 'xstate.done.actor.metadata', output: METADATA },
          { type: 'xstate.done.actor.metadata', output: null },
          { type: 'xstate.error.actor.metadata', error: new Error('502') },
        ]
      : []),
    ...timerEvent(context),
  ]
}

describePaths({
  name: 'call',
  machine: callMachine,
  input: INCOMING,
  events,
  timed: ['METADATA_POLL', 'DTMF_NEXT', 'EARLY_WINDOW_CLOSED', 'ANSWER_EVENT'],
  // Clock readings and the attempt counter vary between replays; the rest of the context is the state.
  serializeState: (snapshot) => {
    const { startedAt: _s, answeredAt, endedAt, metadataAttempts: _a, ...context } = ctx(snapshot)
    return JSON.stringify({ value: snapshot.value, context, answered: answeredAt !== null, ended: endedAt !== null })
  },
  // Hundreds of states with cycles (hold ⇄ mute, metadata retries): shortest paths only.
  simplePaths: false,
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      if (index === 0) {
        // The call starts asking for its metadata at once.
        expect(
          effectsOf(
            log.filter((e) => e.step === 0),
            'fetchMetadata',
          ),
        ).toEqual([{ uid: 'uid-1', callId: ID, attempt: 1 }])
        return
      }
      const effects = log.filter((effect) => effect.step === index)
      const before = ctx(path.steps[index - 1].state)
      const after = ctx(step.state)
      const event = step.event
      const label = `step ${index} ${event.type}`
      const sent = commands(effects)

      // webphone_answer only when the 2 s timer fires, once, with the uid.
      expect(effectsOf(effects, 'sendSocket'), label).toEqual(event.type === 'ANSWER_EVENT' ? [{ action: 'webphone_answer', uid: 'uid-1', call_id: ID }] : [])
      // The hangup reaches the phone only outside the 3 s window or with metadata; a pending one is released by both.
      const hangups = sent.filter((command) => command.type === 'hangup')
      const released = before.hangupPending && (event.type === 'EARLY_WINDOW_CLOSED' || (event.type === 'xstate.done.actor.metadata' && event.output !== null))
      const direct = event.type === 'HANGUP' && !before.hangingUp && !before.hangupPending && (!before.early || before.metadata !== null)
      expect(hangups.length, label).toBe(released || (direct && step.state.status === 'active') ? 1 : 0)
      if (event.type === 'HANGUP' && before.early && !before.metadata && !before.hangingUp) expect(after.hangupPending, label).toBe(true)
      // A metadata attempt follows each empty answer's timer, never while metadata is known.
      const fetches = effectsOf(effects, 'fetchMetadata')
      expect(fetches.length, label).toBe(event.type === 'METADATA_POLL' && !before.metadata ? 1 : 0)
      // DTMF: the spec's timings.
      for (const command of sent) if (command.type === 'dtmf') expect({ duration: command.duration, gap: command.gap }).toEqual(dtmfTiming(command.tone))
      // Hold and mute follow the state.
      if (step.state.matches('onhold') && !path.steps[index - 1].state.matches('onhold'))
        expect(sent, label).toContainEqual({ type: 'hold', callId: ID, on: true })
      if (path.steps[index - 1].state.matches('onhold') && (step.state.matches('inuse') || step.state.matches('onmute')))
        expect(sent, label).toContainEqual({ type: 'hold', callId: ID, on: false })
      if (step.state.matches('onmute') && !before.mute) expect(sent, label).toContainEqual({ type: 'mute', callId: ID, on: true })
      // Answering an incoming call sends the answer once.
      expect(sent.filter((command) => command.type === 'answer').length, label).toBe(
        event.type === 'ANSWER' && path.steps[index - 1].state.matches('ringing') && !before.answering && !before.hangingUp ? 1 : 0,
      )
    })
    const context = ctx(snapshot)
    if (snapshot.matches('inuse') || snapshot.matches('onhold') || snapshot.matches('onmute')) expect(context.accepted).toBe(true)
    if (snapshot.matches('onhold')) expect(context.hold).toBe(true)
    if (snapshot.matches('onmute')) expect(context.mute).toBe(true)
    if (snapshot.matches('ended')) {
      expect(snapshot.status).toBe('done')
      expect(effectsOf(log, 'changed').at(-1)).toMatchObject({ callId: ID, state: 'ended' })
    }
  },
})

describe('call behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start(input: CallInput = INCOMING) {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input }).start()
    const settle = async (outcome: { output: unknown } | { error: unknown }) => {
      fakes.settle('metadata', outcome)
      await vi.advanceTimersByTimeAsync(0)
    }
    return { actor, fakes, log: fakes.log, settle }
  }

  it('sends webphone_answer 2 s after the call is accepted', async () => {
    const { actor, log } = start()
    actor.send({ type: 'ANSWER' })
    expect(commands(log)).toEqual([{ type: 'answer', callId: ID }])
    actor.send({ type: 'PHONE_ACCEPTED', callId: ID })
    expect(actor.getSnapshot().value).toBe('inuse')
    expect(actor.getSnapshot().context.accepted).toBe(true)
    await vi.advanceTimersByTimeAsync(ANSWER_EVENT_DELAY_MS - 1)
    expect(effectsOf(log, 'sendSocket')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(effectsOf(log, 'sendSocket')).toEqual([{ action: 'webphone_answer', uid: 'uid-1', call_id: ID }])
  })

  it('polls the metadata every 100 ms for ten attempts, then every 1000 ms, until received', async () => {
    const { log, settle } = start()
    const attemptTimes: number[] = []
    const t0 = Date.now()
    for (let attempt = 1; attempt <= 13; attempt++) {
      expect(effectsOf(log, 'fetchMetadata')).toHaveLength(attempt)
      attemptTimes.push(Date.now() - t0)
      await settle({ output: null })
      // Nothing more until the next attempt is due.
      const due = attempt < 10 ? 100 : 1000
      await vi.advanceTimersByTimeAsync(due - 1)
      expect(effectsOf(log, 'fetchMetadata')).toHaveLength(attempt)
      await vi.advanceTimersByTimeAsync(1)
    }
    expect(attemptTimes).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1900, 2900, 3900])
    // A failed attempt waits the same way; a received metadata stops the polling.
    await settle({ error: new Error('502') })
    await vi.advanceTimersByTimeAsync(1000)
    expect(effectsOf(log, 'fetchMetadata')).toHaveLength(15)
    await settle({ output: METADATA })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(effectsOf(log, 'fetchMetadata')).toHaveLength(15)
    expect(effectsOf(log, 'fetchMetadata').at(-1)).toEqual({ uid: 'uid-1', callId: ID, attempt: 15 })
  })

  it('an outgoing call polls from the moment the far end gives its uid', async () => {
    const { actor, log } = start(OUTGOING)
    expect(effectsOf(log, 'fetchMetadata')).toEqual([])
    actor.send({ type: 'PHONE_PROGRESS', callId: ID, code: 183, uid: 'uid-9' })
    expect(effectsOf(log, 'fetchMetadata')).toEqual([{ uid: 'uid-9', callId: ID, attempt: 1 }])
    expect(actor.getSnapshot().context.connected).toBe(true)
    // An outgoing call needs no answer from the agent.
    actor.send({ type: 'ANSWER' })
    expect(commands(log)).toEqual([])
  })

  it("becomes the customer's call when an attended transfer's INVITE replaces the colleague on it", async () => {
    const { actor, log, settle } = start(OUTGOING)
    actor.send({ type: 'PHONE_PROGRESS', callId: ID, code: 180, uid: 'uid-consult' })
    await settle({ output: METADATA })
    actor.send({ type: 'PHONE_ACCEPTED', callId: ID })
    actor.send({ type: 'HOLD' })
    const headers = { 'X-Atende-Uid': 'uid-customer', 'X-Atende-Call-Type': '20', 'X-Atende-Client-Name': 'Cliente Silva' }
    actor.send({ type: 'PHONE_REPLACED', callId: ID, uid: 'uid-customer', phone: '01130000001', name: '', headers })
    const context = actor.getSnapshot().context
    expect(context).toMatchObject({ uid: 'uid-customer', phone: '01130000001', name: 'Cliente Silva', callType: 20, metadata: null, accepted: true })
    // Still the same line (held), and the webphone hears the new uid; the customer's metadata is asked for at once.
    expect(actor.getSnapshot().value).toBe('onhold')
    expect(effectsOf(log, 'changed').at(-1)).toMatchObject({ callId: ID, uid: 'uid-customer', state: 'onhold', hasMetadata: false })
    expect(effectsOf(log, 'fetchMetadata').at(-1)).toEqual({ uid: 'uid-customer', callId: ID, attempt: 1 })
  })

  it("moves to the step the server names (changeCallStep) only from the step it is on; the SIP side's later replace keeps that metadata", async () => {
    const { actor, log, settle } = start(OUTGOING)
    actor.send({ type: 'PHONE_PROGRESS', callId: ID, code: 180, uid: 'uid-consult' })
    await settle({ output: METADATA })
    actor.send({ type: 'PHONE_ACCEPTED', callId: ID })
    // A notice for another step changes nothing.
    actor.send({ type: 'STEP_CHANGED', uid: 'uid-other', stepUid: 'uid-customer' })
    expect(actor.getSnapshot().context).toMatchObject({ uid: 'uid-consult', metadata: METADATA })
    actor.send({ type: 'STEP_CHANGED', uid: 'uid-consult', stepUid: 'uid-customer' })
    expect(actor.getSnapshot().context).toMatchObject({ uid: 'uid-customer', metadata: null, accepted: true })
    expect(actor.getSnapshot().value).toBe('inuse')
    expect(effectsOf(log, 'changed').at(-1)).toMatchObject({ callId: ID, uid: 'uid-customer', hasMetadata: false })
    expect(effectsOf(log, 'fetchMetadata').at(-1)).toEqual({ uid: 'uid-customer', callId: ID, attempt: 1 })
    const customer = { form: 9, client: 4 }
    await settle({ output: customer })
    // Told twice (the notice repeated) or by the SIP side afterwards: the customer's metadata stays, asked no more.
    const asked = effectsOf(log, 'fetchMetadata').length
    actor.send({ type: 'STEP_CHANGED', uid: 'uid-consult', stepUid: 'uid-customer' })
    const headers = { 'X-Atende-Uid': 'uid-customer', 'X-Atende-Call-Type': '20' }
    actor.send({ type: 'PHONE_REPLACED', callId: ID, uid: 'uid-customer', phone: '01130000001', name: 'Cliente', headers })
    expect(actor.getSnapshot().context).toMatchObject({ uid: 'uid-customer', metadata: customer, phone: '01130000001' })
    expect(effectsOf(log, 'fetchMetadata')).toHaveLength(asked)
  })

  it('delays a hangup within 3 s of the start until the 3 s are over when no metadata came', async () => {
    const { actor, log, settle } = start()
    await settle({ output: null })
    await vi.advanceTimersByTimeAsync(1000)
    actor.send({ type: 'HANGUP' })
    expect(commands(log)).toEqual([])
    expect(actor.getSnapshot().context.hangupPending).toBe(true)
    await vi.advanceTimersByTimeAsync(EARLY_HANGUP_WINDOW_MS - 1000 - 1)
    expect(commands(log).filter((c) => c.type === 'hangup')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(commands(log).filter((c) => c.type === 'hangup')).toEqual([{ type: 'hangup', callId: ID }])
    actor.send({ type: 'PHONE_ENDED', callId: ID, code: null, reason: 'BYE' })
    expect(actor.getSnapshot().status).toBe('done')
    expect(actor.getSnapshot().output).toMatchObject({ id: ID, accepted: false, endReason: 'BYE' })
  })

  it('releases a delayed hangup as soon as the metadata arrives', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'HANGUP' })
    await vi.advanceTimersByTimeAsync(500)
    expect(commands(log)).toEqual([])
    await settle({ output: METADATA })
    expect(commands(log)).toEqual([{ type: 'hangup', callId: ID }])
    // Asking again does not send a second hangup.
    actor.send({ type: 'HANGUP' })
    expect(commands(log)).toHaveLength(1)
  })

  it('hangs up at once with metadata, or after the first 3 s', async () => {
    const withMetadata = start()
    await withMetadata.settle({ output: METADATA })
    withMetadata.actor.send({ type: 'HANGUP' })
    expect(commands(withMetadata.log)).toEqual([{ type: 'hangup', callId: ID }])

    const late = start()
    await vi.advanceTimersByTimeAsync(EARLY_HANGUP_WINDOW_MS)
    late.actor.send({ type: 'HANGUP' })
    expect(commands(late.log).filter((c) => c.type === 'hangup')).toEqual([{ type: 'hangup', callId: ID }])
  })

  it('plays DTMF tones one after another: 120 ms + 500 ms for digits, 80 ms + 100 ms for others', async () => {
    const { actor, log } = start()
    actor.send({ type: 'ANSWER' })
    actor.send({ type: 'PHONE_ACCEPTED', callId: ID })
    const t0 = Date.now()
    const seen: { tone: string; at: number; duration: number; gap: number }[] = []
    const collect = () => {
      for (const command of commands(log)
        .filter((c) => c.type === 'dtmf')
        .slice(seen.length))
        if (command.type === 'dtmf') seen.push({ tone: command.tone, at: Date.now() - t0, duration: command.duration, gap: command.gap })
    }
    actor.send({ type: 'DTMF', tone: '1' })
    actor.send({ type: 'DTMF', tone: '#' })
    actor.send({ type: 'DTMF', tone: '2' })
    actor.send({ type: 'DTMF', tone: 'x' }) // not a DTMF key: ignored
    collect()
    for (let ms = 0; ms < 2000; ms += 10) {
      await vi.advanceTimersByTimeAsync(10)
      collect()
    }
    expect(seen).toEqual([
      { tone: '1', at: 0, duration: 120, gap: 500 },
      { tone: '#', at: 620, duration: 80, gap: 100 },
      { tone: '2', at: 800, duration: 120, gap: 500 },
    ])
  })

  it('holds, mutes and resumes through the phone', () => {
    const { actor, log } = start()
    actor.send({ type: 'ANSWER' })
    actor.send({ type: 'PHONE_ACCEPTED', callId: ID })
    actor.send({ type: 'MUTE' })
    actor.send({ type: 'HOLD' })
    expect(actor.getSnapshot().value).toBe('onhold')
    actor.send({ type: 'UNHOLD' })
    expect(actor.getSnapshot().value).toBe('onmute')
    actor.send({ type: 'UNMUTE' })
    expect(actor.getSnapshot().value).toBe('inuse')
    expect(commands(log).slice(1)).toEqual([
      { type: 'mute', callId: ID, on: true },
      { type: 'hold', callId: ID, on: true },
      { type: 'hold', callId: ID, on: false },
      { type: 'mute', callId: ID, on: false },
    ])
    expect(effectsOf(log, 'changed').map((s) => (s as { state: string }).state)).toEqual(['ringing', 'inuse', 'onmute', 'onhold', 'onmute', 'inuse'])
  })
})
