import { createActor, fromCallback, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EARLY_HANGUP_WINDOW_MS } from '../../machines/call.machine.ts'
import { BLIND_TRANSFER_PREFIX } from '../../machines/transfer.machine.ts'
import {
  DIAL_REFUSED_NOTICE,
  REJECT_CODE,
  rejectReason,
  ROUTE_REQUIRED_NOTICE,
  SERVICE_ELSEWHERE_NOTICE,
  webphoneCallMachine,
  webphoneMachine,
  webphoneStatusInputs,
  webphoneTransferMachine,
  type WebphoneContext,
  type WebphoneInput,
} from '../../machines/webphone.machine.ts'
import type { PhoneCommand, PhoneConfig, VoipProfile, WebphoneTeam } from '../../machines/webphoneTypes.ts'
import { createFakes, describePaths, effectsOf, type Effect, type Fakes } from './paths.ts'

const VOIP: VoipProfile = { websocket: 'wss://pbx.test/ws/sip', endpoint: '1001', realm: 'pbx.test', password: 's3cret', device_state_busy_at: 1 }
const TEAM: WebphoneTeam = {
  outbound_routes: [{ id: 4 }],
  enable_auto_login_webphone: true,
  enable_webphone_auto_answer: false,
  enable_after_service: false,
}
const BOTH_ALLOWED = { audio: true, notifications: true }
const COACHING = { mode: 'whisper' as const, supervisor: 'Sofia' }
const PAUSE_OFF = { allowIncoming: true, allowOutgoing: true, webphonePause: false, pauseSwap: false }

function build(fakes: Fakes) {
  const record = (effect: Effect) => fakes.log.push({ ...effect, step: fakes.step })
  return webphoneMachine.provide({
    actions: fakes.actions(['sendSocket', 'notify', 'notifyIncoming', 'afterServiceEnded', 'saveForm']),
    actors: {
      ...fakes.requests(['startAfterService']),
      phone: fromCallback<PhoneCommand, PhoneConfig>(({ input, receive }) => {
        record({ effect: 'phone.open', params: input })
        receive((command) => record({ effect: 'phone', params: command }))
        return () => record({ effect: 'phone.close' })
      }),
      call: webphoneCallMachine.provide({ actors: fakes.requests(['fetchMetadata']) }),
      transfer: webphoneTransferMachine.provide({ actors: fakes.requests(['cancelTransfer']) }),
    },
  })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as WebphoneContext
const commands = (log: Effect[]) => effectsOf(log, 'phone') as PhoneCommand[]
const incoming = (callId: string, headers: Record<string, string> = {}) => ({
  type: 'PHONE_INCOMING' as const,
  callId,
  uid: `uid-${callId}`,
  phone: '5511999990000',
  name: 'Ana',
  headers,
})

// ---------------------------------------------------------------------------------------------------------------
// Paths: the panel, registration, auto-reject and dial refusals (the calls' own paths are in call.test.ts).

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = ctx(snapshot)
  const running = snapshot.matches('starting') || snapshot.matches('ready')
  const registered = snapshot.matches({ ready: { registration: 'registered' } })
  return [
    { type: 'SERVING_CHANGED', serving: true },
    { type: 'SERVING_CHANGED', serving: false },
    { type: 'PERMISSIONS', ...BOTH_ALLOWED },
    { type: 'START' },
    { type: 'STOP' },
    { type: 'RELOAD' },
    ...(running
      ? [
          { type: 'PHONE_STARTED' },
          { type: 'PHONE_FAILED', code: 'media', message: 'NotAllowedError' },
          { type: 'PHONE_FAILED', code: 'transport', message: 'closed' },
          { type: 'PHONE_TRANSPORT', connected: true },
          { type: 'PHONE_TRANSPORT', connected: false },
          { type: 'PHONE_REGISTRATION', state: 'registered' },
          { type: 'PHONE_REGISTRATION', state: 'registrationFailed' },
        ]
      : []),
    // Do-not-disturb, a pause and the calls only matter to a registered phone.
    ...(registered && context.calls.length === 0
      ? [
          { type: 'SET_DND', dnd: !context.dnd },
          {
            type: 'PAUSE_CHANGED',
            ...PAUSE_OFF,
            webphonePause: !context.pause.webphonePause,
            allowIncoming: context.pause.webphonePause,
            allowOutgoing: context.pause.webphonePause,
          },
          { type: 'DIAL', number: '(11) 4000-1000' },
        ]
      : []),
    ...(registered && context.calls.length <= 1 ? [incoming(`in-${context.calls.length + 1}`)] : []),
    // A supervisor's coaching leg (sipPhone.ts answers it by itself) during a call, and its end.
    ...(registered && context.calls.length === 1
      ? [
          { type: 'PHONE_COACHING', coaching: context.coaching?.mode === 'whisper' ? { ...COACHING, mode: 'barge' } : COACHING },
          { type: 'PHONE_COACHING', coaching: null },
        ]
      : []),
  ]
}

describePaths({
  name: 'webphone',
  machine: webphoneMachine,
  input: { serving: null, voip: VOIP, team: { ...TEAM, enable_auto_login_webphone: false }, permissions: null } satisfies WebphoneInput,
  events,
  // The call actors are told apart by id and state; their refs are not part of the webphone's state.
  // Counters and the last rejection are projected away too: the effects of each step are checked on the lived path.
  serializeState: (snapshot) => {
    const { calls, callStates: _states, nextCall: _n, lastRejected: _r, error: _e, ...context } = ctx(snapshot)
    return JSON.stringify({ value: snapshot.value, context, calls: calls.map((call) => call.id) })
  },
  // The panel inputs form cycles in every state (serving, permissions, dnd, pause toggle back and forth): simple paths
  // would number in the millions; shortest paths only.
  simplePaths: false,
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const before = index > 0 ? path.steps[index - 1].state : null
      const running = (s: AnyMachineSnapshot | null) => !!s && (s.matches('starting') || s.matches('ready'))
      const label = `step ${index} ${step.event.type}`
      const event = step.event as AnyEventObject
      // The phone runs exactly while starting or ready.
      const started = running(step.state) && (!running(before) || (event.type === 'RELOAD' && before?.matches('ready')))
      expect(effectsOf(effects, 'phone.open'), label).toEqual(
        started ? [{ websocket: VOIP.websocket, endpoint: '1001', realm: 'pbx.test', password: 's3cret', audio: { input: null, output: null } }] : [],
      )
      const stopped = running(before) && (!running(step.state) || (event.type === 'RELOAD' && before?.matches('ready')))
      expect(effectsOf(effects, 'phone.close').length, label).toBe(stopped ? 1 : 0)
      // Incoming: rejected with the reason, or registered with a notification.
      const sent = commands(effects)
      if (event.type === 'PHONE_INCOMING' && before?.matches('ready')) {
        const reason = rejectReason(ctx(before))
        if (reason) {
          expect(sent, label).toEqual([{ type: 'hangup', callId: event.callId, code: REJECT_CODE, reason }])
          expect(ctx(step.state).lastRejected, label).toEqual({ callId: event.callId, phone: '5511999990000', reason })
          expect(effectsOf(effects, 'notifyIncoming'), label).toEqual([])
        } else {
          expect(
            ctx(step.state).calls.map((c) => c.id),
            label,
          ).toContain(event.callId)
          expect(effectsOf(effects, 'notifyIncoming'), label).toEqual([{ callId: event.callId, phone: '5511999990000', name: 'Ana', actions: true }])
        }
      }
      // Dial: refused with the toast, or a call to the digits.
      if (event.type === 'DIAL' && before?.matches('ready')) {
        const b = ctx(before)
        const refused = b.dnd || b.pause.pauseSwap || (b.pause.webphonePause && !b.pause.allowOutgoing)
        expect(effectsOf(effects, 'notify'), label).toEqual(refused ? [{ message: DIAL_REFUSED_NOTICE, severity: 'warning' }] : [])
        expect(
          sent.map((c) => (c.type === 'call' ? c.target : c.type)),
          label,
        ).toEqual(refused ? [] : ['1140001000'])
      } else if (event.type === 'DIAL' && before?.matches('otherTab')) {
        expect(effectsOf(effects, 'notify'), label).toEqual([{ message: SERVICE_ELSEWHERE_NOTICE, severity: 'warning' }])
      } else {
        expect(effectsOf(effects, 'notify'), label).toEqual([])
      }
      // Coaching is shown, never a call: no command to the phone, no notification, the calls unchanged.
      if (event.type === 'PHONE_COACHING' && before?.matches('ready')) {
        expect(ctx(step.state).coaching, label).toEqual(event.coaching)
        expect(sent, label).toEqual([])
        expect(effectsOf(effects, 'notifyIncoming'), label).toEqual([])
        expect(
          ctx(step.state).calls.map((c) => c.id),
          label,
        ).toEqual(ctx(before).calls.map((c) => c.id))
      }
    })
    const context = ctx(snapshot)
    const inputs = webphoneStatusInputs(snapshot as never)
    expect(inputs.calls).toBe(context.calls.length)
    if (!snapshot.matches('ready'))
      expect([context.registration, context.connected, context.calls, context.coaching]).toEqual(['disconnected', false, [], null])
    if (snapshot.matches({ ready: { registration: 'registered' } })) expect(context.registration).toBe('registered')
    if (snapshot.matches('otherTab')) expect(context.serving).toBe(false)
  },
})

// ---------------------------------------------------------------------------------------------------------------

describe('webphone behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start(input: WebphoneInput = {}) {
    const fakes = createFakes()
    const actor = createActor(build(fakes), {
      input: { serving: true, voip: VOIP, team: TEAM, permissions: BOTH_ALLOWED, ...input },
    }).start()
    return { actor, fakes, log: fakes.log }
  }
  function registered(input: WebphoneInput = {}) {
    const started = start(input)
    started.actor.send({ type: 'PHONE_STARTED' })
    started.actor.send({ type: 'PHONE_TRANSPORT', connected: true })
    started.actor.send({ type: 'PHONE_REGISTRATION', state: 'registered' })
    return started
  }
  /** An incoming call answered and accepted. */
  function talking(started: ReturnType<typeof start>, callId: string) {
    started.actor.send(incoming(callId))
    started.actor.send({ type: 'ANSWER', callId })
    started.actor.send({ type: 'PHONE_ACCEPTED', callId })
  }
  const callState = (actor: ReturnType<typeof start>['actor'], callId: string) =>
    actor
      .getSnapshot()
      .context.calls.find((call) => call.id === callId)
      ?.ref.getSnapshot().value

  it('starts with the team auto login, registers and reports its status inputs', () => {
    const { actor, log } = start()
    expect(actor.getSnapshot().value).toBe('starting')
    expect(effectsOf(log, 'phone.open')).toHaveLength(1)
    actor.send({ type: 'PHONE_STARTED' })
    expect(actor.getSnapshot().value).toEqual({ ready: { registration: 'connecting' } })
    actor.send({ type: 'PHONE_TRANSPORT', connected: true })
    expect(actor.getSnapshot().context.registration).toBe('connected')
    actor.send({ type: 'PHONE_REGISTRATION', state: 'registered' })
    expect(webphoneStatusInputs(actor.getSnapshot())).toEqual({
      registration: 'registered',
      connected: true,
      calls: 0,
      ringing: 0,
      afterService: false,
      dnd: false,
    })
    // A failed OPTIONS keepalive (the adapter's transport report) is a disconnection.
    actor.send({ type: 'PHONE_TRANSPORT', connected: false })
    expect(actor.getSnapshot().value).toEqual({ ready: { registration: 'disconnected' } })
    expect(webphoneStatusInputs(actor.getSnapshot())).toMatchObject({ registration: 'disconnected', connected: false })
  })

  it('stays off without auto login until "Logar no webphone", and STOP logs the phone out', () => {
    const { actor, log } = start({ team: { ...TEAM, enable_auto_login_webphone: false } })
    expect(actor.getSnapshot().value).toBe('off')
    actor.send({ type: 'START' })
    actor.send({ type: 'PHONE_STARTED' })
    expect(actor.getSnapshot().matches('ready')).toBe(true)
    actor.send({ type: 'STOP' })
    expect(actor.getSnapshot().value).toBe('off')
    expect(effectsOf(log, 'phone.close')).toHaveLength(1)
  })

  it('shows the other-tab and missing-permission placeholders, and "Recarregar Webphone" retries', () => {
    const { actor, log } = start({ serving: false })
    expect(actor.getSnapshot().value).toBe('otherTab')
    actor.send({ type: 'SERVING_CHANGED', serving: true })
    expect(actor.getSnapshot().value).toBe('starting')
    actor.send({ type: 'PHONE_FAILED', code: 'media', message: 'Permission denied' })
    expect(actor.getSnapshot().value).toBe('missingPermissions')
    actor.send({ type: 'RELOAD' })
    expect(actor.getSnapshot().value).toBe('starting')
    actor.send({ type: 'PERMISSIONS', audio: true, notifications: false })
    expect(actor.getSnapshot().value).toBe('missingPermissions')
    expect(effectsOf(log, 'phone.open')).toHaveLength(2)
    expect(effectsOf(log, 'phone.close')).toHaveLength(2)
  })

  it("a call asked of a tab that does not serve is refused with 'Seu atendimento está em outra aba'", () => {
    const { actor, log } = start({ serving: false })
    actor.send({ type: 'DIAL', number: '01130001111' })
    expect(actor.getSnapshot().value).toBe('otherTab')
    expect(effectsOf(log, 'phone.call')).toEqual([])
    expect(effectsOf(log, 'notify')).toEqual([{ message: SERVICE_ELSEWHERE_NOTICE, severity: 'warning' }])
  })

  it('losing the tab stops the phone and drops the calls', () => {
    const started = registered({ voip: { ...VOIP, device_state_busy_at: 0 } })
    talking(started, 'a')
    started.actor.send({ type: 'SERVING_CHANGED', serving: false })
    expect(started.actor.getSnapshot().value).toBe('otherTab')
    expect(started.actor.getSnapshot().context.calls).toEqual([])
    expect(effectsOf(started.log, 'phone.close')).toHaveLength(1)
  })

  describe('incoming auto-reject (spec 000 §4)', () => {
    const cases = [
      ['dnd', (s: ReturnType<typeof start>) => s.actor.send({ type: 'SET_DND', dnd: true })],
      ['pauseSwap', (s: ReturnType<typeof start>) => s.actor.send({ type: 'PAUSE_CHANGED', ...PAUSE_OFF, webphonePause: true, pauseSwap: true })],
      ['busyLimit', (s: ReturnType<typeof start>) => talking(s, 'first')],
      ['endpointBusy', (s: ReturnType<typeof start>) => s.actor.send({ type: 'DEVICE_STATE', state: 'in_activity' })],
      [
        'pause',
        (s: ReturnType<typeof start>) =>
          s.actor.send({ type: 'PAUSE_CHANGED', allowIncoming: false, allowOutgoing: false, webphonePause: true, pauseSwap: false }),
      ],
    ] as const
    for (const [reason, arrange] of cases) {
      it(`rejects with reason ${reason}`, () => {
        const started = registered()
        arrange(started)
        const before = started.actor.getSnapshot().context.calls.length
        started.actor.send(incoming('x'))
        expect(commands(started.log).at(-1)).toEqual({ type: 'hangup', callId: 'x', code: REJECT_CODE, reason })
        expect(started.actor.getSnapshot().context.lastRejected).toEqual({ callId: 'x', phone: '5511999990000', reason })
        expect(started.actor.getSnapshot().context.calls).toHaveLength(before)
      })
    }

    it('rejects during after-service as an endpoint that is not idle', () => {
      const started = registered({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
      talking(started, 'a')
      started.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
      started.actor.send(incoming('b'))
      expect(commands(started.log).at(-1)).toMatchObject({ type: 'hangup', callId: 'b', reason: 'endpointBusy' })
    })
  })

  it('registers an incoming call with a notification, and answers it itself when the team says so', () => {
    const manual = registered()
    manual.actor.send(incoming('a', { 'x-atende-call-type': '21', 'X-Atende-Queue': 'vendas' }))
    expect(effectsOf(manual.log, 'notifyIncoming')).toEqual([{ callId: 'a', phone: '5511999990000', name: 'Ana', actions: true }])
    expect(webphoneStatusInputs(manual.actor.getSnapshot())).toMatchObject({ calls: 1, ringing: 1 })
    const call = manual.actor.getSnapshot().context.calls[0].ref.getSnapshot().context
    expect([call.callType, call.queue, call.uid]).toEqual([21, 'vendas', 'uid-a'])

    const auto = registered({ team: { ...TEAM, enable_webphone_auto_answer: true } })
    auto.actor.send(incoming('a'))
    expect(effectsOf(auto.log, 'notifyIncoming')).toEqual([{ callId: 'a', phone: '5511999990000', name: 'Ana', actions: false }])
    expect(commands(auto.log)).toContainEqual({ type: 'answer', callId: 'a' })
    auto.actor.send({ type: 'PHONE_ACCEPTED', callId: 'a' })
    expect(webphoneStatusInputs(auto.actor.getSnapshot())).toMatchObject({ calls: 1, ringing: 0 })
  })

  it('sends webphone_answer on the status feed 2 s after a call is accepted', async () => {
    const started = registered()
    talking(started, 'a')
    await vi.advanceTimersByTimeAsync(1999)
    expect(effectsOf(started.log, 'sendSocket')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(effectsOf(started.log, 'sendSocket')).toEqual([{ action: 'webphone_answer', uid: 'uid-a', call_id: 'a' }])
  })

  describe('outgoing refusals (spec 000 §4, §5)', () => {
    it("refuses during do-not-disturb, a swap or a pause that forbids outgoing calls: 'Não possível fazer uma ligação durante este status'", () => {
      const started = registered()
      started.actor.send({ type: 'SET_DND', dnd: true })
      started.actor.send({ type: 'DIAL', number: '1140001000' })
      started.actor.send({ type: 'SET_DND', dnd: false })
      started.actor.send({ type: 'PAUSE_CHANGED', allowIncoming: false, allowOutgoing: false, webphonePause: true, pauseSwap: false })
      started.actor.send({ type: 'DIAL', number: '1140001000' })
      expect(effectsOf(started.log, 'notify')).toEqual([
        { message: DIAL_REFUSED_NOTICE, severity: 'warning' },
        { message: DIAL_REFUSED_NOTICE, severity: 'warning' },
      ])
      expect(commands(started.log)).toEqual([])
      // A pause that allows outgoing calls, or a forced call (click-to-call), goes through.
      started.actor.send({ type: 'DIAL', number: '1140001000', force: true, origin: 'clickToCall' })
      expect(commands(started.log).at(-1)).toMatchObject({ type: 'call', target: '1140001000', headers: { 'X-Atende-Call-Type': '11' } })
    })

    it('never dials during after-service, forced or not', () => {
      const started = registered({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
      talking(started, 'a')
      started.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
      expect(started.actor.getSnapshot().context.stage).toBe('after-service')
      started.actor.send({ type: 'DIAL', number: '1140001000', force: true })
      expect(effectsOf(started.log, 'notify')).toEqual([{ message: DIAL_REFUSED_NOTICE, severity: 'warning' }])
      started.actor.send({ type: 'AFTER_SERVICE_END' })
      started.actor.send({ type: 'DIAL', number: '1140001000' })
      expect(commands(started.log).at(-1)).toMatchObject({ type: 'call', target: '1140001000' })
    })

    it('ends after-service by itself when the team duration runs out, and a new call restarts the count', () => {
      const started = registered({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
      talking(started, 'a')
      started.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
      expect(started.actor.getSnapshot().context.afterService).toMatchObject({ callId: 'a', duration: 30 })
      vi.advanceTimersByTime(29_000)
      expect(started.actor.getSnapshot().context.stage).toBe('after-service')
      vi.advanceTimersByTime(1_000)
      expect(started.actor.getSnapshot().context).toMatchObject({ afterService: null, stage: 'dialpad' })
      // Ended by hand, the countdown does not fire later into the next after-service.
      talking(started, 'b')
      started.actor.send({ type: 'PHONE_ENDED', callId: 'b', code: null, reason: 'BYE' })
      vi.advanceTimersByTime(10_000)
      started.actor.send({ type: 'AFTER_SERVICE_END' })
      talking(started, 'c')
      started.actor.send({ type: 'PHONE_ENDED', callId: 'c', code: null, reason: 'BYE' })
      vi.advanceTimersByTime(25_000)
      expect(started.actor.getSnapshot().context.afterService).toMatchObject({ callId: 'c' })
      vi.advanceTimersByTime(5_000)
      expect(started.actor.getSnapshot().context.afterService).toBeNull()
    })

    it("the team's wrap-up modes: mandatory waits for the classification, no early exit waits for the time, optional has no limit", () => {
      const team = (mode: string) => ({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30, after_service_mode: mode } })
      const ended = (started: ReturnType<typeof registered>) => {
        talking(started, 'a')
        started.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
      }
      const mandatory = registered(team('mandatory'))
      ended(mandatory)
      expect(mandatory.actor.getSnapshot().context.afterService).toMatchObject({ mode: 'mandatory', endsAt: null })
      mandatory.actor.send({ type: 'AFTER_SERVICE_END' })
      vi.advanceTimersByTime(3_600_000)
      expect(mandatory.actor.getSnapshot().context.afterService).not.toBeNull()
      mandatory.actor.send({ type: 'CALL_CLASSIFIED', uid: 'uid-a' })
      mandatory.actor.send({ type: 'AFTER_SERVICE_END' })
      expect(mandatory.actor.getSnapshot().context.afterService).toBeNull()

      const boxed = registered(team('mandatory_timeout'))
      ended(boxed)
      boxed.actor.send({ type: 'AFTER_SERVICE_END' })
      expect(boxed.actor.getSnapshot().context.afterService).not.toBeNull()
      vi.advanceTimersByTime(30_000)
      expect(boxed.actor.getSnapshot().context.afterService).toBeNull()

      const noExit = registered(team('mandatory_timeout_no_exit'))
      ended(noExit)
      noExit.actor.send({ type: 'CALL_CLASSIFIED', uid: 'uid-a' })
      noExit.actor.send({ type: 'AFTER_SERVICE_END' })
      vi.advanceTimersByTime(29_000)
      expect(noExit.actor.getSnapshot().context.afterService).not.toBeNull()
      vi.advanceTimersByTime(1_000)
      expect(noExit.actor.getSnapshot().context.afterService).toBeNull()

      const optional = registered(team('optional'))
      ended(optional)
      vi.advanceTimersByTime(3_600_000)
      expect(optional.actor.getSnapshot().context.afterService).toMatchObject({ mode: 'optional', endsAt: null })
      optional.actor.send({ type: 'AFTER_SERVICE_END' })
      expect(optional.actor.getSnapshot().context.afterService).toBeNull()
      expect(effectsOf(optional.log, 'afterServiceEnded')).toEqual([{ callId: 'a', uid: 'uid-a', sessionId: null, duration: 3600 }])
    })

    it("asks for a route when the team has several: 'Selecione uma rota de saída'", () => {
      const started = registered({ team: { ...TEAM, outbound_routes: [{ id: 4 }, { id: 5 }] } })
      started.actor.send({ type: 'DIAL', number: '1140001000' })
      expect(effectsOf(started.log, 'notify')).toEqual([{ message: ROUTE_REQUIRED_NOTICE, severity: 'warning' }])
      started.actor.send({ type: 'SET_ROUTE', routeId: 5 })
      started.actor.send({ type: 'DIAL', number: '10050' })
      expect(commands(started.log)).toEqual([
        {
          type: 'call',
          callId: 'call-1',
          target: '10050',
          headers: { 'X-Atende-Phone': '10050', 'X-Atende-Route': '5', 'X-Atende-Call-Type': '31' },
        },
      ])
      // An outgoing call is answered on creation: the agent has nothing to answer.
      expect(callState(started.actor, 'call-1')).toBe('ringing')
      started.actor.send({ type: 'PHONE_ACCEPTED', callId: 'call-1' })
      expect(callState(started.actor, 'call-1')).toBe('inuse')
    })
  })

  it('forwards DTMF, hold and mute to the current call and reports an unknown call', () => {
    const started = registered({ voip: { ...VOIP, device_state_busy_at: 0 } })
    talking(started, 'a')
    started.actor.send({ type: 'DTMF', callId: 'a', tone: '9' })
    started.actor.send({ type: 'HOLD', callId: 'a' })
    expect(commands(started.log).slice(-2)).toEqual([
      { type: 'dtmf', callId: 'a', tone: '9', duration: 120, gap: 500 },
      { type: 'hold', callId: 'a', on: true },
    ])
    started.actor.send({ type: 'HANGUP', callId: 'nope' })
    expect(started.actor.getSnapshot().context.error).toEqual({ code: 'session_not_found', message: 'nope' })
  })

  it("a supervisor's coaching is shown (whisper, then barge), is no call, and goes when it ends or the phone stops", () => {
    const started = registered()
    talking(started, 'a')
    started.actor.send({ type: 'PHONE_COACHING', coaching: COACHING })
    expect(started.actor.getSnapshot().context.coaching).toEqual(COACHING)
    started.actor.send({ type: 'PHONE_COACHING', coaching: { ...COACHING, mode: 'barge' } })
    expect(started.actor.getSnapshot().context.coaching).toEqual({ mode: 'barge', supervisor: 'Sofia' })
    expect(started.actor.getSnapshot().context.calls.map((call) => call.id)).toEqual(['a'])
    expect(webphoneStatusInputs(started.actor.getSnapshot())).toMatchObject({ calls: 1 })
    started.actor.send({ type: 'PHONE_COACHING', coaching: null })
    expect(started.actor.getSnapshot().context.coaching).toBeNull()
    started.actor.send({ type: 'PHONE_COACHING', coaching: COACHING })
    started.actor.send({ type: 'SERVING_CHANGED', serving: false })
    expect(started.actor.getSnapshot().context.coaching).toBeNull()
  })

  it('answering a second call holds the first', () => {
    const started = registered({ voip: { ...VOIP, device_state_busy_at: 0 } })
    talking(started, 'a')
    talking(started, 'b')
    expect(callState(started.actor, 'a')).toBe('onhold')
    expect(callState(started.actor, 'b')).toBe('inuse')
  })

  it('changeCallStep moves the call on that step to the new one, and no other call', () => {
    const started = registered({ voip: { ...VOIP, device_state_busy_at: 0 } })
    talking(started, 'a')
    talking(started, 'b')
    started.actor.send({ type: 'CALL_STEP_CHANGED', uid: 'uid-b', stepUid: 'uid-joined' })
    const uids = () => Object.fromEntries(Object.values(ctx(started.actor.getSnapshot()).callStates).map((s) => [s.callId, s.uid]))
    expect(uids()).toEqual({ a: 'uid-a', b: 'uid-joined' })
    expect(effectsOf(started.log, 'fetchMetadata').at(-1)).toMatchObject({ uid: 'uid-joined', callId: 'b' })
    // A step no call is on: nothing moves.
    started.actor.send({ type: 'CALL_STEP_CHANGED', uid: 'uid-gone', stepUid: 'uid-x' })
    expect(uids()).toEqual({ a: 'uid-a', b: 'uid-joined' })
  })
  describe('transferred by the far end (REFER received)', () => {
    it('calls the number the REFER names, holding the call it came from, and leaves that call once answered (no after-service for it)', () => {
      const started = registered({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
      talking(started, 'a')
      started.actor.send({ type: 'PHONE_REFERRED', callId: 'a', target: `${BLIND_TRANSFER_PREFIX}01187654321` })
      expect(callState(started.actor, 'a')).toBe('onhold')
      expect(commands(started.log)).toContainEqual({
        type: 'call',
        callId: 'call-1',
        target: `${BLIND_TRANSFER_PREFIX}01187654321`,
        headers: { 'X-Atende-Phone': '01187654321', 'X-Atende-Call-Type': '10' },
      })
      expect(started.actor.getSnapshot().context.currentCallId).toBe('call-1')
      started.actor.send({ type: 'PHONE_ACCEPTED', callId: 'call-1' })
      // (The call's own rule: a hangup within its first 3 s waits for the metadata or the 3 s.)
      vi.advanceTimersByTime(EARLY_HANGUP_WINDOW_MS)
      expect(commands(started.log)).toContainEqual({ type: 'hangup', callId: 'a' })
      started.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
      const context = started.actor.getSnapshot().context
      expect(context.calls.map((call) => call.id)).toEqual(['call-1'])
      expect(context.afterService).toBeNull()
      expect(context.stage).toBe('dialpad')
    })

    it('resumes the call it came from when the transfer target cannot be reached; a join shows the same party', () => {
      const started = registered()
      talking(started, 'a')
      started.actor.send({ type: 'PHONE_REFERRED', callId: 'a', target: '*9abc.def.ghi' })
      // A consultation join is the conversation going on: shown as the party of the call it came from.
      expect(commands(started.log)).toContainEqual({
        type: 'call',
        callId: 'call-1',
        target: '*9abc.def.ghi',
        headers: { 'X-Atende-Phone': '5511999990000', 'X-Atende-Call-Type': '10' },
      })
      started.actor.send({ type: 'PHONE_ENDED', callId: 'call-1', code: 404, reason: 'Not Found' })
      expect(callState(started.actor, 'a')).toBe('inuse')
      expect(commands(started.log).filter((command) => command.type === 'hangup')).toEqual([])
      // A REFER on a call we do not have is ignored.
      started.actor.send({ type: 'PHONE_REFERRED', callId: 'nope', target: '10002' })
      expect(started.actor.getSnapshot().context.calls.map((call) => call.id)).toEqual(['a'])
    })
  })

  describe('transfer (spec 000 §4)', () => {
    it('blind: REFER with the prefix, transferring, then back to the dialpad', () => {
      const started = registered()
      talking(started, 'a')
      started.actor.send({ type: 'TRANSFER', transferType: 'blind', destination: '2001' })
      expect(started.actor.getSnapshot().context.stage).toBe('transferring')
      expect(commands(started.log).at(-1)).toEqual({ type: 'transferBlind', callId: 'a', target: `${BLIND_TRANSFER_PREFIX}2001` })
      started.actor.send({ type: 'PHONE_TRANSFERRED', callId: 'a', ok: true })
      expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'dialpad', transfer: null })
    })

    it('attend: holds the origin, dials the destination, confirms once it answered', () => {
      const started = registered()
      talking(started, 'a')
      started.actor.send({ type: 'TRANSFER', transferType: 'attend', destination: '2001' })
      expect(callState(started.actor, 'a')).toBe('onhold')
      expect(commands(started.log)).toContainEqual({ type: 'hold', callId: 'a', on: true })
      expect(commands(started.log)).toContainEqual({
        type: 'call',
        callId: 'call-1',
        target: '2001',
        headers: { 'X-Atende-Phone': '2001', 'X-Atende-Transfer': 'attend', 'X-Atende-Parent-Uid': 'uid-a', 'X-Atende-Call-Type': '10' },
      })
      expect(started.actor.getSnapshot().context).toMatchObject({
        stage: 'transfer-attend',
        currentCallId: 'call-1',
        transfer: { type: 'attend', originCallId: 'a', destinationCallId: 'call-1', destination: '2001' },
      })
      started.actor.send({ type: 'PHONE_ACCEPTED', callId: 'call-1' })
      expect((started.actor.getSnapshot().children.transfer?.getSnapshot() as { value?: unknown } | undefined)?.value).toBe('ready')
      started.actor.send({ type: 'TRANSFER_CONFIRM' })
      expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'transferring', transfer: null })
      expect(commands(started.log).at(-1)).toEqual({ type: 'transferAttended', callId: 'a', targetCallId: 'call-1' })
      // A refused REFER brings the transfer back with its confirm; the second confirm goes through.
      started.actor.send({ type: 'PHONE_TRANSFERRED', callId: 'a', ok: false, reason: 'Forbidden' })
      expect(effectsOf(started.log, 'notify')).toEqual([{ message: 'Forbidden', severity: 'error' }])
      expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'transfer-attend', transfer: { type: 'attend', originCallId: 'a' } })
      started.actor.send({ type: 'TRANSFER_CONFIRM' })
      started.actor.send({ type: 'PHONE_TRANSFERRED', callId: 'a', ok: true })
      started.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
      started.actor.send({ type: 'PHONE_ENDED', callId: 'call-1', code: null, reason: 'BYE' })
      expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'dialpad', calls: [], afterService: null })
    })

    it('cancel: back to the origin, the destination hung up, the server told', async () => {
      const started = registered()
      talking(started, 'a')
      started.actor.send({ type: 'TRANSFER', transferType: 'attend', destination: '2001', app: 'pjsip', appdata: '2001' })
      started.actor.send({ type: 'TRANSFER_CANCEL' })
      expect(effectsOf(started.log, 'cancelTransfer')).toEqual([{ step_id: 'uid-a', type: 'attend', app: 'pjsip', appdata: '2001' }])
      expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'dialpad', currentCallId: 'a', transfer: null })
      expect(callState(started.actor, 'a')).toBe('inuse')
      // The destination's hangup waits for its metadata or its first 3 s (spec 000 §4).
      await vi.advanceTimersByTimeAsync(EARLY_HANGUP_WINDOW_MS)
      expect(commands(started.log)).toContainEqual({ type: 'hangup', callId: 'call-1' })
    })

    it('is cancelled when the target hangs up', async () => {
      const started = registered()
      talking(started, 'a')
      started.actor.send({ type: 'TRANSFER', transferType: 'attend', destination: '2001' })
      started.actor.send({ type: 'PHONE_ENDED', callId: 'call-1', code: 486, reason: 'Busy Here' })
      expect(effectsOf(started.log, 'cancelTransfer')).toEqual([{ step_id: 'uid-a', type: 'attend', app: 'number', appdata: '2001' }])
      started.fakes.settle('cancelTransfer', { output: { success: true } })
      await vi.advanceTimersByTimeAsync(0)
      expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'dialpad', currentCallId: 'a', transfer: null })
      expect(callState(started.actor, 'a')).toBe('inuse')
      expect(started.actor.getSnapshot().children.transfer).toBeUndefined()
    })

    it('pendulum: the answered destination starts a conference of the three', () => {
      const started = registered()
      talking(started, 'a')
      started.actor.send({ type: 'TRANSFER', transferType: 'pendulum', destination: '2001' })
      expect(started.actor.getSnapshot().context.stage).toBe('transfer-pendulum')
      started.actor.send({ type: 'PHONE_ACCEPTED', callId: 'call-1' })
      expect(started.actor.getSnapshot().context.conferenceCallIds).toEqual(['a', 'call-1'])
      expect(commands(started.log)).toContainEqual({ type: 'conference', callIds: ['a', 'call-1'] })
      expect(callState(started.actor, 'a')).toBe('inuse')
      // Confirming ends the mixing before the REFER.
      const before = commands(started.log).length
      started.actor.send({ type: 'TRANSFER_CONFIRM' })
      expect(commands(started.log).slice(before, before + 2)).toEqual([
        { type: 'conference', callIds: [] },
        { type: 'transferAttended', callId: 'a', targetCallId: 'call-1' },
      ])
    })
  })

  it('a conference of several calls mixes them and ends when only one is left', () => {
    const started = registered({ voip: { ...VOIP, device_state_busy_at: 0 } })
    talking(started, 'a')
    talking(started, 'b')
    started.actor.send({ type: 'CONFERENCE', callIds: ['a', 'b'] })
    expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'conference', conferenceCallIds: ['a', 'b'] })
    expect(callState(started.actor, 'a')).toBe('inuse')
    expect(commands(started.log)).toContainEqual({ type: 'conference', callIds: ['a', 'b'] })
    started.actor.send({ type: 'PHONE_ENDED', callId: 'b', code: null, reason: 'BYE' })
    expect(commands(started.log).at(-1)).toEqual({ type: 'conference', callIds: [] })
    expect(started.actor.getSnapshot().context).toMatchObject({ stage: 'dialpad', conferenceCallIds: [] })
  })

  it('after-service: not for a transfer or a conference stage, nor for short or unanswered calls the team ignores', async () => {
    const team = {
      ...TEAM,
      enable_after_service: true,
      duration_of_after_service: 30,
      ignore_after_service_with_duration_shorter_than: 5,
      ignore_after_service_unaccepted: true,
    }
    const short = registered({ team })
    talking(short, 'a')
    await vi.advanceTimersByTimeAsync(4000)
    short.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
    expect(short.actor.getSnapshot().context.afterService).toBeNull()

    const unanswered = registered({ team })
    unanswered.actor.send(incoming('a'))
    unanswered.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: 487, reason: 'Request Terminated' })
    expect(unanswered.actor.getSnapshot().context.afterService).toBeNull()

    const transferring = registered({ team })
    talking(transferring, 'a')
    await vi.advanceTimersByTimeAsync(6000)
    transferring.actor.send({ type: 'TRANSFER', transferType: 'blind', destination: '2001' })
    transferring.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
    expect(transferring.actor.getSnapshot().context.afterService).toBeNull()

    // A blind transfer whose REFER is answered before the far end's BYE (how real trunks do it): still none.
    const referred = registered({ team })
    talking(referred, 'a')
    await vi.advanceTimersByTimeAsync(6000)
    referred.actor.send({ type: 'TRANSFER', transferType: 'blind', destination: '2001' })
    referred.actor.send({ type: 'PHONE_TRANSFERRED', callId: 'a', ok: true })
    expect(referred.actor.getSnapshot().context).toMatchObject({ transfer: null, transferredCallIds: ['a'] })
    referred.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
    expect(referred.actor.getSnapshot().context).toMatchObject({ afterService: null, stage: 'dialpad', transferredCallIds: [] })
    // The server hears at once that this call has none.
    expect(effectsOf(referred.log, 'afterServiceEnded')).toEqual([{ callId: 'a', uid: 'uid-a', sessionId: null, duration: 0 }])

    const served = registered({ team })
    talking(served, 'a')
    await vi.advanceTimersByTimeAsync(6000)
    served.actor.send({ type: 'PHONE_ENDED', callId: 'a', code: null, reason: 'BYE' })
    const endedAt = Date.now()
    expect(served.actor.getSnapshot().context).toMatchObject({
      stage: 'after-service',
      afterService: { callId: 'a', uid: 'uid-a', duration: 30, endsAt: endedAt + 30_000 },
    })
    expect(webphoneStatusInputs(served.actor.getSnapshot())).toMatchObject({ afterService: true, calls: 0 })
  })
})
