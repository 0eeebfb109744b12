import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  EXCEEDED_TITLE,
  PAUSED_BY_SUPERVISOR_NOTICE,
  pauseFlags,
  pauseMachine,
  type PauseContext,
  type PauseRecord,
  type PauseResponse,
} from '../../machines/pause.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

const USER = 7
const SUPERVISOR = 99
const STARTED_AT = 1_700_000_000
const ACTIONS = ['sendSocket', 'setDnd', 'lockScreen', 'notify'] as const

/** Pause type 1 enables the webphone and locks the screen; type 2 is a webchat-only pause. */
function runningPause(pauseId: number, fields: Partial<PauseRecord> = {}): PauseRecord {
  return pauseId === 1
    ? { id: 101, pause_id: 1, started_by: USER, started_timestamp: STARTED_AT, enable_webphone: true, lock_screen: true, ...fields }
    : { id: 102, pause_id: 2, started_by: USER, started_timestamp: STARTED_AT, enable_webchat: true, ...fields }
}
const SUPERVISOR_PAUSE: PauseRecord = { id: 90, pause_id: 3, started_by: SUPERVISOR, started_timestamp: STARTED_AT, enable_webphone: true, seconds: 30 }
const ok = (pause?: PauseRecord): PauseResponse => ({ success: true, ...(pause ? { pause } : {}) })

function build(fakes: Fakes) {
  return pauseMachine.provide({ actions: fakes.actions(ACTIONS), actors: fakes.requests(['startPause', 'stopPause']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as PauseContext

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const context = ctx(snapshot)
  const otherType = context.current?.pauseId === 1 ? 2 : 1
  return [
    { type: 'START', pauseId: 1 },
    { type: 'SWAP', pauseId: otherType },
    { type: 'STOP' },
    { type: 'CANCEL' },
    { type: 'JUSTIFY', reason: '  Reunião com a supervisão ' },
    { type: 'JUSTIFY', reason: '   ' },
    { type: 'AGENT_STATUS', status: 'busy' },
    { type: 'AGENT_STATUS', status: 'not_inuse' },
    { type: 'REMOTE_START', pause: SUPERVISOR_PAUSE },
    { type: 'REMOTE_STOP' },
    { type: 'REMOTE_SYNC', pause: null },
    { type: 'REMOTE_SYNC', pause: SUPERVISOR_PAUSE },
    ...(snapshot.matches('starting')
      ? [
          { type: 'xstate.done.actor.startPause', output: ok(runningPause(Number(context.requestedPauseId))) },
          { type: 'xstate.done.actor.startPause', output: { success: false, detail: 'Pausa indisponível' } },
          { type: 'xstate.error.actor.startPause', error: { detail: 'Network down' } },
        ]
      : []),
    ...(snapshot.matches('swapping') || snapshot.matches('stopping') || snapshot.matches({ exceeded: 'submitting' })
      ? [
          { type: 'xstate.done.actor.stopPause', output: ok() },
          { type: 'xstate.done.actor.stopPause', output: { success: false, code: 5, detail: 'Pausa excedida' } },
          { type: 'xstate.done.actor.stopPause', output: { success: false, detail: 'Não foi possível sair da pausa' } },
          { type: 'xstate.error.actor.stopPause', error: { detail: 'Network down' } },
        ]
      : []),
  ]
}

const isRemote = (event: AnyEventObject) => event.type.startsWith('REMOTE_')
/** The agent turns busy where START and SWAP read it, and available while a choice waits for it. */
const busyWhereRead = (snapshot: AnyMachineSnapshot, event: AnyEventObject) =>
  event.type !== 'AGENT_STATUS' || (event.status === 'busy' ? snapshot.matches('notPaused') || snapshot.matches('paused') : snapshot.matches('pending'))

describePaths({
  name: 'pause',
  machine: pauseMachine,
  input: { userId: USER },
  events,
  timed: ['TICK'],
  // The per-second counter is projected away (it grows forever; the clock has behaviour tests below).
  serializeState: (snapshot) => {
    const { seconds: _seconds, ...context } = ctx(snapshot)
    return JSON.stringify({ value: snapshot.value, context })
  },
  // The rest of the context is finite, but it decides the moves (the current pause's id and flags, the agent's status,
  // the swap), so it stays: 75 states. Three pauses (own 101 and 102, the supervisor's 90) can each become current from
  // almost any state (start, swap, REMOTE_START, REMOTE_SYNC), and the agent's status toggles in all of them: over two
  // million simple paths (the count stopped there, with paths already 44 steps long). Simple paths run on three bounded
  // sub-models instead, each offering the suite's events with the changes named. A pause that ends goes back to
  // notPaused, which a simple path reaches again only if the agent's status changed meanwhile: each sub-model lets it
  // change, but only where that matters, so that endings are replayed too.
  //  - own pauses (pending, swap, exceeded): no remote events; the agent turns busy where START and SWAP read it
  //    (notPaused, paused) and available while a choice waits in pending (512 paths);
  //  - supervisor-started: no START, so every pause is the supervisor's or a swap away from one; the agent, unavailable
  //    at first, becomes available once, while a pause runs (313 paths);
  //  - a supervisor against a pending choice: the agent is busy, then (once, while a choice waits) unavailable, never
  //    available, so a chosen pause or swap waits in pending while the supervisor starts, stops and syncs (394 paths).
  simplePaths: [
    {
      name: 'own pauses: pending, swap, exceeded',
      events: (snapshot) => events(snapshot).filter((event) => !isRemote(event) && busyWhereRead(snapshot, event)),
    },
    {
      name: 'supervisor-started',
      events: (snapshot) =>
        events(snapshot).filter(
          (event) =>
            event.type !== 'START' &&
            (event.type !== 'AGENT_STATUS' || (event.status === 'not_inuse' && ctx(snapshot).agentStatus !== 'not_inuse' && snapshot.matches('paused'))),
        ),
    },
    {
      name: 'supervisor against a pending choice',
      input: { userId: USER, agentStatus: 'busy' },
      events: (snapshot) => [
        ...events(snapshot).filter((event) => event.type !== 'AGENT_STATUS'),
        ...(snapshot.matches('pending') && ctx(snapshot).agentStatus === 'busy' ? [{ type: 'AGENT_STATUS', status: 'unavailable' }] : []),
      ],
    },
  ],
  // Failed requests, refused justifications and syncs return to states already reached: give each its own path.
  distinguish: (event) => /^xstate\.(done|error)\.actor\./.test(event.type) || event.type === 'JUSTIFY' || event.type === 'REMOTE_SYNC',
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      if (index === 0) return expect(log.filter((effect) => effect.step === 0)).toEqual([])
      const effects = log.filter((effect) => effect.step === index)
      const before = path.steps[index - 1].state
      const after = step.state
      const event = step.event
      const label = `step ${index} ${event.type}`
      const entered = (state: string | object) => after.matches(state as never) && !before.matches(state as never)

      // HTTP: start with pause_id (and report_pause_id when swapping), stop with reason only when justifying.
      const expectedStart = entered('starting')
        ? [
            ctx(after).reportPauseId == null
              ? { pause_id: ctx(after).requestedPauseId }
              : { pause_id: ctx(after).requestedPauseId, report_pause_id: ctx(before).current?.id ?? ctx(before).reportPauseId },
          ]
        : []
      expect(effectsOf(effects, 'startPause'), label).toEqual(expectedStart)
      if (ctx(after).reportPauseId != null && entered('starting')) expect(ctx(after).swap).toBe(true)
      const stopInput = entered({ exceeded: 'submitting' })
        ? [{ reason: (event as unknown as { reason: string }).reason.trim() }]
        : entered('swapping') || entered('stopping')
          ? [{}]
          : []
      expect(effectsOf(effects, 'stopPause'), label).toEqual(stopInput)

      // Socket: start_pause (id) once the server accepted a start.
      const started = event.type === 'xstate.done.actor.startPause' && (event.output as PauseResponse).success
      expect(effectsOf(effects, 'sendSocket'), label).toEqual(started ? [{ action: 'start_pause', id: ctx(after).current?.id }] : [])

      // The screen locks when a pause with lock_screen becomes current.
      const adopted = !!ctx(after).current && ctx(after).current?.id !== ctx(before).current?.id
      expect(effectsOf(effects, 'lockScreen'), label).toEqual(adopted && ctx(after).current?.lockScreen ? [{ pauseStartedAt: STARTED_AT }] : [])

      // Do-not-disturb: up when a swap leaves a webphone pause, down when a pause ends without a swap or a swap fails.
      const dndUp = entered('swapping') && !!ctx(before).current?.enableWebphone
      const pauseEnded = !!ctx(before).current && !ctx(after).current && !after.matches('starting')
      const startAfterSwapFailed = before.matches('starting') && ctx(before).swap && after.matches('notPaused')
      const swapAborted = before.matches('swapping') && after.matches('paused')
      const dnd = [...(dndUp ? [{ on: true }] : []), ...(pauseEnded || startAfterSwapFailed || swapAborted ? [{ on: false }] : [])]
      expect(effectsOf(effects, 'setDnd'), label).toEqual(dnd)

      // Errors: the server's detail, or the generic toast when there was no answer.
      // Code 5 on 'Sair' or 'Trocar' opens the justification instead; on the justification itself it is a failure.
      const opensJustification = (event.output as PauseResponse | undefined)?.code === 5 && !before.matches('exceeded')
      const failedAnswer = event.type.startsWith('xstate.done.actor.') && !(event.output as PauseResponse).success && !opensJustification
      const noAnswer = event.type.startsWith('xstate.error.actor.')
      const toast = failedAnswer
        ? [{ message: (event.output as PauseResponse).detail, severity: 'error' }]
        : noAnswer
          ? [{ message: 'Ocorreu um erro Network down', severity: 'error' }]
          : []
      // A pause that becomes a supervisor's tells the agent once (the pause slice used to relay it from outside).
      const pausedBySupervisor = !ctx(before).pausedBySupervisor && ctx(after).pausedBySupervisor
      const notices = [...(pausedBySupervisor ? [{ message: PAUSED_BY_SUPERVISOR_NOTICE, severity: 'info' }] : []), ...toast]
      expect(effectsOf(effects, 'notify'), label).toEqual(notices)
    })

    // Flags of the reached state.
    const context = ctx(snapshot)
    if (snapshot.matches('paused')) expect(context.current).not.toBeNull()
    if (snapshot.matches('notPaused')) expect([context.current, context.requestedPauseId, context.swap]).toEqual([null, null, false])
    if (context.current) expect(context.pausedBySupervisor).toBe(String(context.current.startedBy) !== String(USER))
    if (snapshot.matches('exceeded')) expect(snapshot.getMeta()['pause.exceeded']).toEqual({ title: EXCEEDED_TITLE })
    if (snapshot.matches('pending')) expect(['not_inuse', 'do_not_disturb', 'paused']).not.toContain(context.agentStatus)
  },
})

describe('pause behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start(agentStatus: PauseContext['agentStatus'] = 'not_inuse') {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { userId: USER, agentStatus } }).start()
    const settle = async (id: string, outcome: { output: unknown } | { error: unknown }) => {
      fakes.settle(id, outcome)
      await vi.advanceTimersByTimeAsync(0)
    }
    return { actor, log: fakes.log, settle }
  }

  it('starts at once when the agent is available and counts each second', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'START', pauseId: 2 })
    expect(effectsOf(log, 'startPause')).toEqual([{ pause_id: 2 }])
    await settle('startPause', { output: ok(runningPause(2)) })
    expect(actor.getSnapshot().value).toBe('paused')
    expect(effectsOf(log, 'sendSocket')).toEqual([{ action: 'start_pause', id: 102 }])
    expect(effectsOf(log, 'lockScreen')).toEqual([])
    await vi.advanceTimersByTimeAsync(2999)
    expect(actor.getSnapshot().context.seconds).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(actor.getSnapshot().context.seconds).toBe(3)
  })

  it('a chosen pause waits while the agent is busy and starts when available', async () => {
    const { actor, log } = start('busy')
    actor.send({ type: 'START', pauseId: 1 })
    expect(actor.getSnapshot().value).toBe('pending')
    actor.send({ type: 'AGENT_STATUS', status: 'after_service' })
    actor.send({ type: 'AGENT_STATUS', status: 'ringing' })
    expect(effectsOf(log, 'startPause')).toEqual([])
    actor.send({ type: 'AGENT_STATUS', status: 'do_not_disturb' })
    expect(actor.getSnapshot().value).toBe('starting')
    expect(effectsOf(log, 'startPause')).toEqual([{ pause_id: 1 }])
  })

  it('a pending pause can be cancelled', () => {
    const { actor, log } = start('busy')
    actor.send({ type: 'START', pauseId: 1 })
    actor.send({ type: 'CANCEL' })
    actor.send({ type: 'AGENT_STATUS', status: 'not_inuse' })
    expect(actor.getSnapshot().value).toBe('notPaused')
    expect(effectsOf(log, 'startPause')).toEqual([])
  })

  it('swap stops the current pause then starts the new one with report_pause_id', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'START', pauseId: 1 })
    await settle('startPause', { output: ok(runningPause(1)) })
    actor.send({ type: 'AGENT_STATUS', status: 'paused' })
    actor.send({ type: 'SWAP', pauseId: 2 })
    expect(actor.getSnapshot().value).toBe('swapping')
    expect(pauseFlags(actor.getSnapshot()).swapActive).toBe(true)
    expect(effectsOf(log, 'stopPause')).toEqual([{}])
    expect(effectsOf(log, 'startPause')).toHaveLength(1)
    await settle('stopPause', { output: ok() })
    expect(effectsOf(log, 'startPause')).toEqual([{ pause_id: 1 }, { pause_id: 2, report_pause_id: 101 }])
    await settle('startPause', { output: ok(runningPause(2)) })
    expect(actor.getSnapshot().value).toBe('paused')
    expect(actor.getSnapshot().context.current?.id).toBe(102)
    expect(pauseFlags(actor.getSnapshot())).toMatchObject({ swapActive: false, webchatPaused: true, webphonePaused: false })
    // Leaving a webphone pause by a swap raises do-not-disturb, and the swap does not lower it.
    expect(effectsOf(log, 'setDnd')).toEqual([{ on: true }])
    actor.send({ type: 'STOP' })
    await settle('stopPause', { output: ok() })
    expect(effectsOf(log, 'setDnd')).toEqual([{ on: true }, { on: false }])
    expect(actor.getSnapshot().value).toBe('notPaused')
  })

  it('stop answering code 5 opens the exceeded justification and sends reason', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'START', pauseId: 2 })
    await settle('startPause', { output: ok(runningPause(2)) })
    actor.send({ type: 'STOP' })
    await settle('stopPause', { output: { success: false, code: 5, detail: 'Pausa excedida' } })
    expect(actor.getSnapshot().value).toEqual({ exceeded: 'justifying' })
    expect(effectsOf(log, 'notify')).toEqual([])
    actor.send({ type: 'JUSTIFY', reason: '  ' })
    expect(actor.getSnapshot().value).toEqual({ exceeded: 'justifying' })
    actor.send({ type: 'JUSTIFY', reason: 'Atendimento ao cliente VIP' })
    expect(effectsOf(log, 'stopPause')).toEqual([{}, { reason: 'Atendimento ao cliente VIP' }])
    await settle('stopPause', { output: { success: false, detail: 'Justificativa muito curta' } })
    expect(actor.getSnapshot().value).toEqual({ exceeded: 'justifying' })
    expect(effectsOf(log, 'notify')).toEqual([{ message: 'Justificativa muito curta', severity: 'error' }])
    actor.send({ type: 'JUSTIFY', reason: 'Atendimento ao cliente VIP, demorou mais' })
    await settle('stopPause', { output: ok() })
    expect(actor.getSnapshot().value).toBe('notPaused')
    expect(effectsOf(log, 'setDnd')).toEqual([{ on: false }])
  })

  it('an exceeded pause met during a swap is justified, then the swap goes on', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'START', pauseId: 1 })
    await settle('startPause', { output: ok(runningPause(1)) })
    actor.send({ type: 'SWAP', pauseId: 2 })
    await settle('stopPause', { output: { success: false, code: 5 } })
    actor.send({ type: 'JUSTIFY', reason: 'Fila cheia' })
    await settle('stopPause', { output: ok() })
    expect(effectsOf(log, 'startPause').at(-1)).toEqual({ pause_id: 2, report_pause_id: 101 })
  })

  it('a failed stop with a detail shows it as an error toast and keeps the pause', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'START', pauseId: 2 })
    await settle('startPause', { output: ok(runningPause(2)) })
    actor.send({ type: 'STOP' })
    await settle('stopPause', { output: { success: false, detail: 'Sem permissão' } })
    expect(actor.getSnapshot().value).toBe('paused')
    expect(effectsOf(log, 'notify')).toEqual([{ message: 'Sem permissão', severity: 'error' }])
  })

  it('a pause with lock_screen locks the screen with its start time', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'START', pauseId: 1 })
    await settle('startPause', { output: ok(runningPause(1)) })
    expect(effectsOf(log, 'lockScreen')).toEqual([{ pauseStartedAt: STARTED_AT }])
  })

  it("a supervisor's pause shows 'Você foi pausado por um supervisor' and can be stopped remotely", () => {
    const { actor, log } = start()
    actor.send({ type: 'REMOTE_START', pause: SUPERVISOR_PAUSE })
    expect(actor.getSnapshot().value).toBe('paused')
    expect(actor.getSnapshot().context).toMatchObject({ pausedBySupervisor: true, seconds: 30 })
    vi.advanceTimersByTime(5000)
    expect(actor.getSnapshot().context.seconds).toBe(35)
    actor.send({ type: 'REMOTE_STOP' })
    expect(actor.getSnapshot().value).toBe('notPaused')
    expect(actor.getSnapshot().context.pausedBySupervisor).toBe(false)
    expect(effectsOf(log, 'setDnd')).toEqual([{ on: false }])
    // The clock stopped with the pause.
    vi.advanceTimersByTime(5000)
    expect(actor.getSnapshot().context.seconds).toBe(0)
  })

  it('the periodic pause sync adopts a running pause after a reload and ends one stopped elsewhere', () => {
    const { actor } = start()
    actor.send({ type: 'REMOTE_SYNC', pause: runningPause(2, { seconds: 600 }) })
    expect(actor.getSnapshot().value).toBe('paused')
    expect(actor.getSnapshot().context.pausedBySupervisor).toBe(false)
    actor.send({ type: 'REMOTE_SYNC', pause: runningPause(2, { seconds: 700 }) })
    expect(actor.getSnapshot().context.seconds).toBe(700)
    actor.send({ type: 'REMOTE_SYNC', pause: null })
    expect(actor.getSnapshot().value).toBe('notPaused')
  })

  it('a failed start after a swap lifts do-not-disturb and leaves the agent out of pause', async () => {
    const { actor, log, settle } = start()
    actor.send({ type: 'START', pauseId: 1 })
    await settle('startPause', { output: ok(runningPause(1)) })
    actor.send({ type: 'SWAP', pauseId: 2 })
    await settle('stopPause', { output: ok() })
    await settle('startPause', { error: { detail: 'Network down' } })
    expect(actor.getSnapshot().value).toBe('notPaused')
    expect(effectsOf(log, 'setDnd')).toEqual([{ on: true }, { on: false }])
    expect(effectsOf(log, 'notify')).toEqual([{ message: 'Ocorreu um erro Network down', severity: 'error' }])
  })
})
