import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { describe, expect, it } from 'vitest'
import {
  AGENT_STATUS_PRECEDENCE,
  agentStatusMachine,
  computeAgentStatus,
  type AgentStatusContext,
  type AgentStatusInputs,
} from '../../machines/agentStatus.machine.ts'
import type { AgentStatus, RegistrationState } from '../../machines/types.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

const TOKEN = 'tok-123'
const ENDPOINT = '10001'
const REGISTRATIONS: RegistrationState[] = ['connected', 'registered', 'unregistered', 'registrationFailed', 'disconnected']

/** Spec 000 §4 read literally: a default, then each sentence overrides what came before. */
function specStatus(inputs: AgentStatusInputs): AgentStatus {
  let status: AgentStatus = 'not_inuse'
  if (inputs.registration !== 'registered' || !inputs.connected) status = 'unavailable'
  if (inputs.calls > 0) status = 'busy'
  if (inputs.ringing > 0) status = 'ringing'
  if (inputs.afterService) status = 'after_service'
  if (inputs.webphonePause || inputs.pauseSwap) status = 'paused'
  if (inputs.dnd) status = 'do_not_disturb'
  return status
}

function build(fakes: Fakes) {
  return agentStatusMachine.provide({ actions: fakes.actions(['sendSocket', 'postToParent']) })
}

/** pt-BR texts of the statuses (spec 000 §4 'Disponível'; the others as contract/codes labels them). */
const TEXT: Record<AgentStatus, string> = {
  not_inuse: 'Disponível',
  unavailable: 'Indisponível',
  busy: 'Ocupado',
  ringing: 'Chamando',
  after_service: 'Pós-atendimento',
  paused: 'Em pausa',
  do_not_disturb: 'Não perturbe',
}

const reportOf = (status: AgentStatus) => ({
  socket: { action: 'change_state', channel: 'telephony', status },
  parent: { status, text: TEXT[status], token: TOKEN, endpoint: ENDPOINT },
})

/** The status and every input behind it: what decides the next status. */
const withInputs = (snapshot: AnyMachineSnapshot) => {
  const { status: _status, token: _token, endpoint: _endpoint, locale: _locale, ...inputs } = snapshot.context as AgentStatusContext
  return JSON.stringify({ value: snapshot.value, inputs })
}

/**
 * A registered phone whose conditions arise one at a time, never falling back, in every order: the transport connects, a
 * call rings and is answered, after-service starts, a swap begins, do-not-disturb goes on. Each status is entered
 * with every mix of the conditions it masks (1011 paths; 48 input combinations).
 */
function arising(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const inputs = snapshot.context as AgentStatusContext
  return [
    ...(inputs.connected ? [] : [{ type: 'TRANSPORT_CHANGED', connected: true }]),
    ...(inputs.calls === 0 ? [{ type: 'CALLS_CHANGED', calls: 2, ringing: 1 }] : []),
    ...(inputs.ringing > 0 ? [{ type: 'CALLS_CHANGED', calls: 1, ringing: 0 }] : []),
    ...(inputs.afterService ? [] : [{ type: 'AFTER_SERVICE_CHANGED', active: true }]),
    ...(inputs.webphonePause || inputs.pauseSwap ? [] : [{ type: 'PAUSE_CHANGED', webphonePause: false, pauseSwap: true }]),
    ...(inputs.dnd ? [] : [{ type: 'DND_CHANGED', dnd: true }]),
  ]
}

/** Every condition up: do-not-disturb over a webphone pause over after-service over a ringing call, phone ready. */
const LOADED: Partial<AgentStatusInputs> = {
  registration: 'registered',
  connected: true,
  calls: 2,
  ringing: 1,
  afterService: true,
  webphonePause: true,
  dnd: true,
}

/**
 * The same phone with every condition up, clearing them one at a time, never rising back, in every order: the ringing call
 * is answered then ends, after-service ends, the pause ends, do-not-disturb goes off, the transport drops. Each
 * status is revealed under every mix of the conditions above it (1011 paths).
 */
function clearing(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const inputs = snapshot.context as AgentStatusContext
  return [
    ...(inputs.connected ? [{ type: 'TRANSPORT_CHANGED', connected: false }] : []),
    ...(inputs.ringing > 0 ? [{ type: 'CALLS_CHANGED', calls: 1, ringing: 0 }] : []),
    ...(inputs.calls > 0 && inputs.ringing === 0 ? [{ type: 'CALLS_CHANGED', calls: 0, ringing: 0 }] : []),
    ...(inputs.afterService ? [{ type: 'AFTER_SERVICE_CHANGED', active: false }] : []),
    ...(inputs.webphonePause || inputs.pauseSwap ? [{ type: 'PAUSE_CHANGED', webphonePause: false, pauseSwap: false }] : []),
    ...(inputs.dnd ? [{ type: 'DND_CHANGED', dnd: false }] : []),
  ]
}

describePaths({
  name: 'agentStatus',
  machine: agentStatusMachine,
  input: { token: TOKEN, endpoint: ENDPOINT },
  events: (): AnyEventObject[] => [
    { type: 'REGISTRATION_CHANGED', registration: 'registered' },
    { type: 'REGISTRATION_CHANGED', registration: 'registrationFailed' },
    { type: 'TRANSPORT_CHANGED', connected: true },
    { type: 'TRANSPORT_CHANGED', connected: false },
    { type: 'CALLS_CHANGED', calls: 1, ringing: 0 },
    { type: 'CALLS_CHANGED', calls: 2, ringing: 1 },
    { type: 'CALLS_CHANGED', calls: 0, ringing: 0 },
    { type: 'AFTER_SERVICE_CHANGED', active: true },
    { type: 'AFTER_SERVICE_CHANGED', active: false },
    { type: 'PAUSE_CHANGED', webphonePause: true, pauseSwap: false },
    { type: 'PAUSE_CHANGED', webphonePause: false, pauseSwap: true },
    { type: 'PAUSE_CHANGED', webphonePause: false, pauseSwap: false },
    { type: 'DND_CHANGED', dnd: true },
    { type: 'DND_CHANGED', dnd: false },
    { type: 'RESEND' },
  ],
  // States are the statuses; the inputs behind them are projected away and every input change gets its own path
  // (edge coverage from each status); the precedence is proven over every input combination below.
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  distinguish: () => true,
  // Simple paths need the inputs in the state. Projected to the status alone, the graph keeps the first context found
  // for each status and moves as that context would: it never reaches not_inuse (no single input readies the phone
  // from the start) and gives 60 simple paths that say little. With the inputs kept, these events reach 216 input
  // combinations, each input toggling back and forth: over two million simple paths (the count stopped there, with
  // paths already over 140 steps long). So simple paths run on two bounded sub-models in which each input only moves
  // one way (most flip once; a call rings then is answered, or is answered then ends), in every order: acyclic, hence
  // finite without a length cap, and replayed with the inputs in the state.
  simplePaths: [
    {
      name: 'conditions arising one by one',
      input: { token: TOKEN, endpoint: ENDPOINT, registration: 'registered' },
      events: arising,
      serializeState: withInputs,
    },
    { name: 'conditions clearing one by one', input: { token: TOKEN, endpoint: ENDPOINT, ...LOADED }, events: clearing, serializeState: withInputs },
  ],
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const context = step.state.context as AgentStatusContext
      const status = specStatus(context)
      expect(step.state.value).toBe(status)
      const changed = index === 0 || path.steps[index - 1].state.value !== step.state.value
      const reported = changed || step.event.type === 'RESEND'
      expect(effectsOf(effects, 'sendSocket'), `step ${index}`).toEqual(reported ? [reportOf(status).socket] : [])
      expect(effectsOf(effects, 'postToParent'), `step ${index}`).toEqual(reported ? [reportOf(status).parent] : [])
    })
    expect((snapshot.context as AgentStatusContext).status).toBe(snapshot.value)
  },
})

describe('agentStatus behaviour', () => {
  function start(input: Partial<AgentStatusInputs> = {}) {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { token: TOKEN, endpoint: ENDPOINT, ...input } }).start()
    return { actor, log: fakes.log }
  }

  it('status precedence: do_not_disturb over paused over after_service over ringing over busy over unavailable over not_inuse', () => {
    expect(AGENT_STATUS_PRECEDENCE).toEqual(['do_not_disturb', 'paused', 'after_service', 'ringing', 'busy', 'unavailable', 'not_inuse'])
    const ready: AgentStatusInputs = {
      registration: 'registered',
      connected: true,
      calls: 0,
      ringing: 0,
      afterService: false,
      webphonePause: false,
      pauseSwap: false,
      dnd: false,
    }
    // Each row adds one condition to the previous one; the newest always wins.
    const rows: [Partial<AgentStatusInputs>, AgentStatus][] = [
      [{}, 'not_inuse'],
      [{ connected: false }, 'unavailable'],
      [{ calls: 1 }, 'busy'],
      [{ ringing: 1 }, 'ringing'],
      [{ afterService: true }, 'after_service'],
      [{ webphonePause: true }, 'paused'],
      [{ dnd: true }, 'do_not_disturb'],
    ]
    let inputs = ready
    for (const [change, expected] of rows) {
      inputs = { ...inputs, ...change }
      expect(computeAgentStatus(inputs), JSON.stringify(change)).toBe(expected)
    }
    expect(computeAgentStatus({ ...ready, pauseSwap: true, afterService: true })).toBe('paused')
    expect(computeAgentStatus({ ...ready, registration: 'unregistered' })).toBe('unavailable')
  })

  it('the status function follows the spec over every combination of inputs', () => {
    let checked = 0
    for (const registration of REGISTRATIONS)
      for (const connected of [false, true])
        for (const calls of [0, 1])
          for (const ringing of [0, 1])
            for (const afterService of [false, true])
              for (const webphonePause of [false, true])
                for (const pauseSwap of [false, true])
                  for (const dnd of [false, true]) {
                    const inputs = { registration, connected, calls, ringing, afterService, webphonePause, pauseSwap, dnd }
                    expect(computeAgentStatus(inputs), JSON.stringify(inputs)).toBe(specStatus(inputs))
                    checked++
                  }
    expect(checked).toBe(640)
  })

  it('starts unavailable and reports its first status on the socket and to the parent window', () => {
    const { actor, log } = start()
    expect(actor.getSnapshot().value).toBe('unavailable')
    expect(effectsOf(log, 'sendSocket')).toEqual([reportOf('unavailable').socket])
    expect(effectsOf(log, 'postToParent')).toEqual([reportOf('unavailable').parent])
  })

  it('reports only changes of the status, not every input change', () => {
    const { actor, log } = start({ registration: 'registered', connected: true })
    actor.send({ type: 'CALLS_CHANGED', calls: 1, ringing: 0 })
    actor.send({ type: 'CALLS_CHANGED', calls: 2, ringing: 0 })
    actor.send({ type: 'REGISTRATION_CHANGED', registration: 'unregistered' })
    actor.send({ type: 'CALLS_CHANGED', calls: 0, ringing: 0 })
    expect((effectsOf(log, 'sendSocket') as { status: string }[]).map((message) => message.status)).toEqual(['not_inuse', 'busy', 'unavailable'])
  })

  it("posts the status text in the user's language", () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { token: TOKEN, endpoint: ENDPOINT, locale: 'en-US' } }).start()
    actor.send({ type: 'DND_CHANGED', dnd: true })
    expect((effectsOf(fakes.log, 'postToParent') as { text: string }[]).map((post) => post.text)).toEqual(['Unavailable', 'Do not disturb'])
  })

  it('a pause swap shows paused even with do-not-disturb off, and the status is re-sent after a reconnect', () => {
    const { actor, log } = start({ registration: 'registered', connected: true })
    actor.send({ type: 'PAUSE_CHANGED', webphonePause: false, pauseSwap: true })
    expect(actor.getSnapshot().value).toBe('paused')
    actor.send({ type: 'RESEND' })
    expect(effectsOf(log, 'sendSocket').slice(-2)).toEqual([reportOf('paused').socket, reportOf('paused').socket])
    expect(effectsOf(log, 'postToParent').at(-1)).toEqual({ status: 'paused', text: 'Em pausa', token: TOKEN, endpoint: ENDPOINT })
  })
})
