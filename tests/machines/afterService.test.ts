import { fromCallback, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { expect } from 'vitest'
import { computeAgentStatus, INITIAL_AGENT_STATUS_INPUTS } from '../../machines/agentStatus.machine.ts'
import type { CallSummary } from '../../machines/call.machine.ts'
import {
  AFTER_SERVICE_START_PREFIX,
  FORM_BEFORE_TRANSFER_NOTICE,
  NO_AFTER_SERVICE_NOTICE,
  REJECT_CODE,
  webphoneMachine,
  webphoneStatusInputs,
  webphoneTransferMachine,
  type WebphoneContext,
  type WebphoneInput,
} from '../../machines/webphone.machine.ts'
import type { PhoneCommand, PhoneConfig, VoipProfile, WebphoneTeam } from '../../machines/webphoneTypes.ts'
import { describePaths, effectsOf, type Effect, type Fakes } from './paths.ts'

// After-service as spec 000 §4 and §7 say, walked path by path (@xstate/graph): whoever ends an answered call — the
// agent's hang-up or the customer's — after-service starts (its stage, after-service/start, the socket's
// after_service_timer); while it runs every new call is refused at once (486) and never rings; the status never reads
// not_inuse between the call and its after-service; it ends by its time, by the agent (as the team's mode allows), or
// by the server (afterServiceTimeout), and the server hears the end (tab-form ?type=hangup, after_service_finished).
// A call the customer gave up on before it was answered has none (ignore_after_service_unaccepted).

const VOIP: VoipProfile = { websocket: 'wss://pbx.test/ws/sip', endpoint: '1001', realm: 'pbx.test', password: 's3cret', device_state_busy_at: 0 }
const TEAM: WebphoneTeam = {
  outbound_routes: [{ id: 4 }],
  enable_auto_login_webphone: true,
  enable_webphone_auto_answer: false,
  enable_after_service: true,
  duration_of_after_service: 30,
  ignore_after_service_unaccepted: true,
}

/**
 * The calls are stubs here: the webphone hears each call's reports (CALL_CHANGED) as the test sends them. How a call
 * machine gets from PHONE_ENDED (the customer's BYE) or HANGUP to its `ended` report is call.test.ts's; this suite is
 * about what the webphone does with the end, whoever caused it.
 */
const stubCall = (record: (effect: Effect) => void) =>
  fromCallback<AnyEventObject, { id: string }>(({ input, receive }) => {
    receive((event) => record({ effect: 'call', params: { callId: input.id, type: event.type } }))
  })

function provided(record: (effect: Effect) => void, fakes: Fakes | null) {
  return webphoneMachine.provide({
    actions: fakes ? fakes.actions(['sendSocket', 'notify', 'notifyIncoming', 'afterServiceEnded', 'saveForm']) : {},
    actors: {
      ...(fakes ? fakes.requests(['startAfterService']) : {}),
      phone: fromCallback<PhoneCommand, PhoneConfig>(({ receive }) => {
        receive((command) => record({ effect: 'phone', params: command }))
        return () => {}
      }),
      call: stubCall(record) as never,
      transfer: webphoneTransferMachine.provide({ actors: fakes ? fakes.requests(['cancelTransfer']) : {} }),
    },
  })
}

function build(fakes: Fakes) {
  return provided((effect) => fakes.log.push({ ...effect, step: fakes.step }), fakes)
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as WebphoneContext
const incoming = (callId: string) => ({ type: 'PHONE_INCOMING' as const, callId, uid: `uid-${callId}`, phone: '5511999990000', name: 'Ana', headers: {} })
const report = (state: CallSummary['state'], accepted: boolean) => ({
  type: 'CALL_CHANGED' as const,
  summary: {
    callId: 'a',
    state,
    accepted,
    uid: 'uid-a',
    direction: 'incoming' as const,
    hasMetadata: false,
    answeredAt: null,
    endedAt: null,
    phone: '5511999990000',
  },
})

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = ctx(snapshot)
  if (snapshot.matches('starting')) return [{ type: 'PHONE_STARTED' }]
  if (!snapshot.matches({ ready: { registration: 'registered' } })) return [{ type: 'PHONE_REGISTRATION', state: 'registered' }]
  const list: AnyEventObject[] = []
  const a = context.callStates.a
  // One customer call 'a' per path; during after-service a second one 'b' tries to ring.
  if (!a && !context.afterService && !context.lastRejected) list.push(incoming('a'))
  if (a?.state === 'ringing') list.push({ type: 'ANSWER', callId: 'a' }, report('inuse', true), report('ended', false))
  // A transfer under way is the transfer machine's (transfer.test.ts): the paths stop there.
  if (a?.state === 'inuse' && !context.transfer) {
    // The agent's hang-up (forwarded to the call), then the call's end — or the customer's BYE: the end alone.
    list.push({ type: 'HANGUP', callId: 'a' }, report('ended', true))
    // The form beside the call (spec 000 §5 form before transfer): half filled, then valid; a blind transfer.
    const form = context.forms.a
    if (!form) list.push({ type: 'CALL_FORM', callId: 'a', uid: 'uid-a', sent: false, valid: false })
    else if (!form.valid && !form.sent) list.push({ type: 'CALL_FORM', callId: 'a', uid: 'uid-a', sent: false, valid: true })
    list.push({ type: 'TRANSFER', transferType: 'blind', destination: '2000' })
  }
  const running = context.afterService
  if (running) {
    if (!context.lastRejected) list.push(incoming('b'))
    list.push({ type: 'AFTER_SERVICE_END' }, { type: 'AFTER_SERVICE_TIMEOUT', uid: running.uid }, { type: 'AFTER_SERVICE_EXPIRED' })
    if (running.sessionId === null) {
      list.push(
        { type: 'xstate.done.actor.afterServiceStart', output: { id: 9, ignore_after_service_dial_status: false } },
        { type: 'xstate.done.actor.afterServiceStart', output: { id: null, ignore_after_service_dial_status: true } },
        { type: 'xstate.error.actor.afterServiceStart', error: Object.assign(new Error('Esta chamada não tem Pós-atendimento'), { code: 'noAfterService' }) },
        { type: 'xstate.error.actor.afterServiceStart', error: new Error('503') },
      )
    }
  }
  return list
}

const started = (context: WebphoneContext) => !!context.afterService

describePaths({
  name: 'webphone after-service',
  machine: provided(() => {}, null),
  input: { serving: true, voip: VOIP, team: TEAM, permissions: { audio: true, notifications: true } } satisfies WebphoneInput,
  events,
  timed: ['AFTER_SERVICE_EXPIRED'],
  // Each way an after-service ends leads back to a state already reached (registered, no call): told apart by the
  // edge, so every one of them is replayed.
  distinguish: (event) =>
    ['AFTER_SERVICE_END', 'AFTER_SERVICE_TIMEOUT', 'AFTER_SERVICE_EXPIRED'].includes(event.type) || event.type.includes('afterServiceStart'),
  serializeState: (snapshot) => {
    const context = ctx(snapshot)
    const running = context.afterService
    return JSON.stringify({
      value: snapshot.value,
      stage: context.stage,
      a: context.callStates.a ? { state: context.callStates.a.state, accepted: context.callStates.a.accepted } : null,
      calls: context.calls.map((call) => call.id),
      afterService: running && { callId: running.callId, sessionId: running.sessionId },
      forms: context.forms,
      transfer: context.transfer?.type ?? null,
      rejected: context.lastRejected?.callId ?? null,
    })
  },
  // A handful of states: every simple path is replayed too.
  simplePaths: true,
  build,
  expectEffects: (_snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      if (index === 0) return
      const before = ctx(path.steps[index - 1].state)
      const after = ctx(step.state)
      const effects = log.filter((effect) => effect.step === index)
      const event = step.event as AnyEventObject
      const label = `step ${index} ${event.type}`
      const status = computeAgentStatus({
        ...INITIAL_AGENT_STATUS_INPUTS,
        ...webphoneStatusInputs(step.state as never),
        webphonePause: false,
        pauseSwap: false,
      })
      // The status reads after_service whenever one runs; never not_inuse right after an answered call ended.
      if (after.afterService) expect(status, label).toBe('after_service')

      if (event.type === 'CALL_CHANGED' && event.summary.state === 'ended') {
        const accepted = event.summary.accepted
        if (accepted) {
          // Whoever hung up: after-service, its stage, after-service/start for the call's uid.
          expect(after.afterService, label).toMatchObject({ callId: 'a', uid: 'uid-a', phone: '5511999990000', duration: 30, mode: 'spec' })
          expect(after.stage, label).toBe('after-service')
          expect(effectsOf(effects, 'startAfterService'), label).toEqual([{ uid: 'uid-a' }])
        } else {
          // The customer gave up before the answer: the team ignores unanswered calls.
          expect(after.afterService, label).toBeNull()
          expect(effectsOf(effects, 'startAfterService'), label).toEqual([])
        }
      }
      if (event.type === 'PHONE_INCOMING' && before.afterService) {
        // Not idle: refused at once with 486, never registered, never notified.
        expect(effectsOf(effects, 'phone'), label).toEqual([{ type: 'hangup', callId: event.callId, code: REJECT_CODE, reason: 'endpointBusy' }])
        expect(effectsOf(effects, 'notifyIncoming'), label).toEqual([])
        expect(
          after.calls.map((call) => call.id),
          label,
        ).not.toContain(event.callId)
      }
      if (event.type === 'xstate.done.actor.afterServiceStart' && event.output.id !== null) {
        expect(effectsOf(effects, 'sendSocket'), label).toEqual([{ action: 'after_service_timer', timeout: 30, step_uid: 'uid-a', session_id: 9 }])
        expect(after.afterService?.sessionId, label).toBe(9)
      }
      if (event.type === 'xstate.error.actor.afterServiceStart') {
        const code = (event.error as { code?: string }).code
        expect(effectsOf(effects, 'notify'), label).toEqual([
          code === 'noAfterService'
            ? { message: NO_AFTER_SERVICE_NOTICE, severity: 'info' }
            : { message: `${AFTER_SERVICE_START_PREFIX}503`, severity: 'error' },
        ])
      }
      // Every end of an after-service: the server hears it (tab-form ?type=hangup; after_service_finished when the
      // webphone had its pause report), the stage goes back, calls may come again.
      if (before.afterService && !after.afterService) {
        expect(effectsOf(effects, 'afterServiceEnded'), label).toEqual([
          { callId: 'a', uid: 'uid-a', sessionId: before.afterService.sessionId, duration: expect.any(Number) as number },
        ])
        const finished = effectsOf(effects, 'sendSocket').filter((frame) => (frame as { action: string }).action === 'after_service_finished')
        expect(finished, label).toEqual(before.afterService.sessionId === null ? [] : [{ action: 'after_service_finished', session_id: 9 }])
        expect(after.stage, label).toBe('dialpad')
      }
      if (started(before) && started(after)) expect(effectsOf(effects, 'afterServiceEnded'), label).toEqual([])
      if (event.type === 'TRANSFER') {
        const form = before.forms[before.currentCallId ?? '']
        if (form && !form.sent && !form.valid) {
          // Blocked, with the toast for 3 s; nothing is transferred, nothing saved.
          expect(effectsOf(effects, 'notify'), label).toEqual([{ message: FORM_BEFORE_TRANSFER_NOTICE, severity: 'warning', duration: 3000 }])
          expect(after.transfer, label).toBeNull()
          expect(effectsOf(effects, 'saveForm'), label).toEqual([])
        } else {
          // A valid unsent form is saved first; then the transfer goes.
          expect(effectsOf(effects, 'saveForm'), label).toEqual(form && !form.sent ? [{ callId: 'a', uid: 'uid-a' }] : [])
          expect(after.transfer, label).toMatchObject({ type: 'blind', destination: '2000' })
          expect(effectsOf(effects, 'notify'), label).toEqual([])
        }
      }
      // An ended call's valid unsent form is saved when it is dropped (at once, or at the end of its after-service).
      if (event.type === 'CALL_CHANGED' && event.summary.state === 'ended' && !after.afterService) {
        const form = before.forms.a
        expect(effectsOf(effects, 'saveForm'), label).toEqual(form && !form.sent && form.valid ? [{ callId: 'a', uid: 'uid-a' }] : [])
      }
      if (before.afterService && !after.afterService) {
        const form = before.forms.a
        expect(effectsOf(effects, 'saveForm'), label).toEqual(form && !form.sent && form.valid ? [{ callId: 'a', uid: 'uid-a' }] : [])
      }
    })
  },
})
