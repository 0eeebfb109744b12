import { setup, assign, cancel, and, enqueueActions, type SnapshotFrom } from 'xstate'
import { missingAction, missingPromise } from './effects.ts'
import type { AgentStatus, Notice, SocketMessage } from './types.ts'

// Pause (break) — spec 000 §2 "Pause widget", §3 "Pause (break)", §4 "Pause (break)", §7 "Agent channel and pause",
// §8 (stop failure), §9 (per-second timer); spec 001 §3 (chat flags of a pause).
// notPaused → (pending while the agent is not available) → starting → paused. From paused: 'Trocar' swaps (stop, then
// start carrying report_pause_id), 'Sair' stops. A stop answered with code 5 opens the full-screen 'Pausa excedente'
// justification, whose text is sent as reason. A supervisor can start or stop the pause remotely (socket pause,
// startPause, stopPause). Starting a pause while a pause with the webphone enabled is active (a swap) sets
// do-not-disturb; stopping without swapping clears it. While a pause runs, a per-second clock counts its duration.

export const PAUSE_EXCEEDED_CODE = 5
export const TICK_MS = 1000
export const EXCEEDED_TITLE = 'Pausa excedente'
/** The widget shows it while `pausedBySupervisor` (the pause's started_by is not the user). */
export const PAUSED_BY_SUPERVISOR_NOTICE = 'Você foi pausado por um supervisor'
const SUPERVISOR_NOTICE: Notice = { message: PAUSED_BY_SUPERVISOR_NOTICE, severity: 'info' }
/** Spec 000 §4: a pending pause starts when the webphone status is one of these. */
export const AVAILABLE_FOR_PAUSE: readonly AgentStatus[] = ['not_inuse', 'do_not_disturb', 'paused']

type Id = number | string

/** A pause as the API and the socket describe it (spec 000 §3); only the fields this machine reads. */
export type PauseRecord = {
  id: Id
  pause_id?: Id | null
  started_timestamp?: number | null
  started_by?: Id | null
  pending?: boolean
  enable_webphone?: boolean
  enable_webchat?: boolean
  allow_incoming_chat?: boolean
  allow_outgoing_chat?: boolean
  lock_screen?: boolean
  maximum_duration?: number | null
  seconds?: number | null
}

/** POST /v1/agent/pause/start/ — `report_pause_id` goes in the query string, `pause_id` in the body. */
export type StartPauseRequest = { pause_id: Id; report_pause_id?: Id }
/** POST /v1/agent/pause/stop/ — `reason` only when justifying an exceeded pause. */
export type StopPauseRequest = { reason?: string }
/** Both answer success, pause, detail, code. */
export type PauseResponse = { success: boolean; pause?: PauseRecord | null; detail?: string; code?: number }

/** The running pause: its ids and flags. */
export type CurrentPause = {
  id: Id
  pauseId: Id | null
  startedAt: number | null
  startedBy: Id | null
  enableWebphone: boolean
  enableWebchat: boolean
  allowIncomingChat: boolean
  allowOutgoingChat: boolean
  lockScreen: boolean
  maximumDuration: number | null
}

export type PauseContext = {
  userId: Id
  agentStatus: AgentStatus
  /** The pause type chosen with 'Entrar' or 'Trocar', until it starts. */
  requestedPauseId: Id | null
  /** During a swap: the pause being replaced, sent as report_pause_id. */
  reportPauseId: Id | null
  swap: boolean
  current: CurrentPause | null
  seconds: number
  pausedBySupervisor: boolean
}

export type PauseEvent =
  | { type: 'START'; pauseId: Id } // 'Entrar'
  | { type: 'SWAP'; pauseId: Id } // 'Trocar'
  | { type: 'STOP' } // 'Sair'
  | { type: 'CANCEL' } // gives up a pending pause
  | { type: 'JUSTIFY'; reason: string } // 'Confirmar' in 'Pausa excedente'
  | { type: 'AGENT_STATUS'; status: AgentStatus } // from the agent status actor
  | { type: 'REMOTE_SYNC'; pause: PauseRecord | null } // socket `pause` (answer to get_pauses)
  | { type: 'REMOTE_START'; pause: PauseRecord } // socket `startPause` (a supervisor paused the agent)
  | { type: 'REMOTE_STOP' } // socket `stopPause`
  | { type: 'TICK' } // raised by the machine itself every second while a pause runs

export type PauseInput = { userId: Id; agentStatus?: AgentStatus }

export function toCurrentPause(pause: PauseRecord, requestedPauseId: Id | null = null): CurrentPause {
  return {
    id: pause.id,
    pauseId: pause.pause_id ?? requestedPauseId,
    startedAt: pause.started_timestamp ?? null,
    startedBy: pause.started_by ?? null,
    enableWebphone: !!pause.enable_webphone,
    enableWebchat: !!pause.enable_webchat,
    allowIncomingChat: !!pause.allow_incoming_chat,
    allowOutgoingChat: !!pause.allow_outgoing_chat,
    lockScreen: !!pause.lock_screen,
    maximumDuration: pause.maximum_duration ?? null,
  }
}

function startedBySomeoneElse(pause: PauseRecord, userId: Id): boolean {
  return pause.started_by != null && String(pause.started_by) !== String(userId)
}

function errorDetail(error: unknown): string {
  if (error && typeof error === 'object') {
    const { detail, message } = error as { detail?: unknown; message?: unknown }
    if (typeof detail === 'string' && detail) return detail
    if (typeof message === 'string' && message) return message
  }
  return String(error)
}

const outputOf = (event: { output?: unknown }) => (event.output ?? { success: false }) as PauseResponse

export const pauseMachine = setup({
  types: {
    context: {} as PauseContext,
    events: {} as PauseEvent,
    input: {} as PauseInput,
  },
  actors: {
    startPause: missingPromise<PauseResponse, StartPauseRequest>('pause', 'startPause'),
    stopPause: missingPromise<PauseResponse, StopPauseRequest>('pause', 'stopPause'),
  },
  actions: {
    sendSocket: missingAction<SocketMessage>('pause', 'sendSocket'),
    setDnd: missingAction<{ on: boolean }>('pause', 'setDnd'),
    lockScreen: missingAction<{ pauseStartedAt: number | null }>('pause', 'lockScreen'),
    notify: missingAction<Notice>('pause', 'notify'),
    /** (Re)arms the one-second clock; TICK re-arms it, so it runs until stopClock. */
    startClock: enqueueActions(({ enqueue }) => {
      enqueue.cancel('pauseClock')
      enqueue.raise({ type: 'TICK' }, { delay: TICK_MS, id: 'pauseClock' })
    }),
    stopClock: cancel('pauseClock'),
    choose: assign({
      requestedPauseId: ({ event }) => (event.type === 'START' || event.type === 'SWAP' ? event.pauseId : null),
    }),
    forgetRequest: assign({ requestedPauseId: null, reportPauseId: null, swap: false }),
    endPause: assign({ current: null, seconds: 0, pausedBySupervisor: false }),
    /** A pause the agent started: count it, tell the socket, lock the screen when the pause asks for it. */
    adoptStartedPause: enqueueActions(({ context, event, enqueue }) => {
      const pause = outputOf(event as { output?: unknown }).pause ?? { id: context.requestedPauseId as Id }
      const current = toCurrentPause(pause, context.requestedPauseId)
      enqueue.assign({ current, seconds: pause.seconds ?? 0, pausedBySupervisor: startedBySomeoneElse(pause, context.userId) })
      // The agent hears once that a supervisor paused them, when a pause becomes someone else's.
      if (startedBySomeoneElse(pause, context.userId) && !context.pausedBySupervisor) enqueue({ type: 'notify', params: SUPERVISOR_NOTICE })
      enqueue('startClock')
      enqueue({ type: 'sendSocket', params: { action: 'start_pause', id: current.id } })
      if (current.lockScreen) enqueue({ type: 'lockScreen', params: { pauseStartedAt: current.startedAt } })
    }),
    /** A pause the server reports (a supervisor's, or one running since before a reload). */
    adoptRemotePause: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'REMOTE_START' && event.type !== 'REMOTE_SYNC') return
      const pause = event.pause
      if (!pause) return
      const current = toCurrentPause(pause)
      enqueue.assign({ current, seconds: pause.seconds ?? 0, pausedBySupervisor: startedBySomeoneElse(pause, context.userId) })
      // The agent hears once that a supervisor paused them, when a pause becomes someone else's.
      if (startedBySomeoneElse(pause, context.userId) && !context.pausedBySupervisor) enqueue({ type: 'notify', params: SUPERVISOR_NOTICE })
      enqueue('startClock')
      if (current.lockScreen) enqueue({ type: 'lockScreen', params: { pauseStartedAt: current.startedAt } })
    }),
    syncSeconds: assign({
      seconds: ({ context, event }) => (event.type === 'REMOTE_SYNC' && typeof event.pause?.seconds === 'number' ? event.pause.seconds : context.seconds),
    }),
    /** Spec 000 §4: starting a pause while a webphone-enabled one is active (a swap) sets do-not-disturb. */
    setDndForSwap: enqueueActions(({ context, enqueue }) => {
      if (context.current?.enableWebphone) enqueue({ type: 'setDnd', params: { on: true } })
    }),
    /** Spec 000 §4: stopping without swapping clears do-not-disturb. */
    clearDnd: enqueueActions(({ enqueue }) => enqueue({ type: 'setDnd', params: { on: false } })),

    /** A swap that failed halfway lifts the do-not-disturb it raised. */
    clearDndAfterSwap: enqueueActions(({ context, enqueue }) => {
      if (context.swap) enqueue({ type: 'setDnd', params: { on: false } })
    }),
    rememberReportPause: assign({ reportPauseId: ({ context }) => context.current?.id ?? null }),
    /** Spec 000 §8: a failed answer with a detail becomes an error toast. */
    showResponseError: enqueueActions(({ event, enqueue }) => {
      const { detail } = outputOf(event as { output?: unknown })
      enqueue({ type: 'notify', params: { message: detail || 'Ocorreu um erro', severity: 'error' } })
    }),
    /** No answer at all (network, 500): the generic toast of spec 000 §8. */
    showRequestError: enqueueActions(({ event, enqueue }) => {
      const error = (event as { error?: unknown }).error
      enqueue({ type: 'notify', params: { message: `Ocorreu um erro ${errorDetail(error)}`, severity: 'error' } })
    }),
  },
  guards: {
    isAvailable: ({ context }) => AVAILABLE_FOR_PAUSE.includes(context.agentStatus),
    hasCurrent: ({ context }) => context.current !== null,
    isSwap: ({ context }) => context.swap,
    succeeded: ({ event }) => outputOf(event as { output?: unknown }).success === true,
    exceeded: ({ event }) => outputOf(event as { output?: unknown }).code === PAUSE_EXCEEDED_CODE,
    remoteHasPause: ({ event }) => event.type === 'REMOTE_SYNC' && !!event.pause && !event.pause.pending,
    remoteHasNoPause: ({ event }) => event.type === 'REMOTE_SYNC' && !event.pause,
    remoteIsAnotherPause: ({ context, event }) =>
      event.type === 'REMOTE_SYNC' && !!event.pause && !event.pause.pending && String(event.pause.id) !== String(context.current?.id),
    hasReason: ({ event }) => event.type === 'JUSTIFY' && event.reason.trim().length > 0,
  },
}).createMachine({
  id: 'pause',
  context: ({ input }) => ({
    userId: input.userId,
    agentStatus: input.agentStatus ?? 'unavailable',
    requestedPauseId: null,
    reportPauseId: null,
    swap: false,
    current: null,
    seconds: 0,
    pausedBySupervisor: false,
  }),
  on: {
    AGENT_STATUS: { actions: assign({ agentStatus: ({ event }) => event.status }) },
    TICK: {
      guard: 'hasCurrent',
      actions: [assign({ seconds: ({ context }) => context.seconds + 1 }), 'startClock'],
    },
  },
  initial: 'notPaused',
  states: {
    notPaused: {
      on: {
        START: [
          { guard: 'isAvailable', target: 'starting', actions: 'choose' },
          { target: 'pending', actions: 'choose' },
        ],
        REMOTE_START: { target: 'paused', actions: 'adoptRemotePause' },
        REMOTE_SYNC: { guard: 'remoteHasPause', target: 'paused', actions: 'adoptRemotePause' },
      },
    },
    // The chosen pause waits until the agent is available (after a call, after-service, ...).
    pending: {
      always: [
        { guard: and(['isAvailable', 'hasCurrent']), target: 'swapping' },
        { guard: 'isAvailable', target: 'starting' },
      ],
      on: {
        CANCEL: [
          { guard: 'hasCurrent', target: 'paused', actions: 'forgetRequest' },
          { target: 'notPaused', actions: 'forgetRequest' },
        ],
        STOP: { guard: 'hasCurrent', target: 'stopping', actions: 'forgetRequest' },
        REMOTE_START: { target: 'paused', actions: ['forgetRequest', 'adoptRemotePause'] },
        REMOTE_STOP: { guard: 'hasCurrent', actions: ['stopClock', 'endPause', 'clearDnd'] },
        START: { actions: 'choose' },
        SWAP: { guard: 'hasCurrent', actions: 'choose' },
      },
    },
    starting: {
      invoke: {
        id: 'startPause',
        src: 'startPause',
        input: ({ context }): StartPauseRequest =>
          context.reportPauseId == null
            ? { pause_id: context.requestedPauseId as Id }
            : { pause_id: context.requestedPauseId as Id, report_pause_id: context.reportPauseId },
        onDone: [
          { guard: 'succeeded', target: 'paused', actions: ['adoptStartedPause', 'forgetRequest'] },
          { target: 'notPaused', actions: ['showResponseError', 'clearDndAfterSwap', 'forgetRequest'] },
        ],
        onError: { target: 'notPaused', actions: ['showRequestError', 'clearDndAfterSwap', 'forgetRequest'] },
      },
    },
    paused: {
      on: {
        STOP: 'stopping',
        SWAP: [
          { guard: 'isAvailable', target: 'swapping', actions: 'choose' },
          { target: 'pending', actions: 'choose' },
        ],
        REMOTE_STOP: { target: 'notPaused', actions: ['stopClock', 'endPause', 'clearDnd'] },
        REMOTE_START: { target: 'paused', actions: 'adoptRemotePause' },
        REMOTE_SYNC: [
          { guard: 'remoteHasNoPause', target: 'notPaused', actions: ['stopClock', 'endPause', 'clearDnd'] },
          { guard: 'remoteIsAnotherPause', target: 'paused', actions: 'adoptRemotePause' },
          { guard: 'remoteHasPause', actions: 'syncSeconds' },
        ],
      },
    },
    // 'Trocar': stop the current pause (keeping do-not-disturb up between the two), then start the chosen one.
    swapping: {
      entry: [assign({ swap: true }), 'setDndForSwap'],
      invoke: {
        id: 'stopPause',
        src: 'stopPause',
        input: (): StopPauseRequest => ({}),
        onDone: [
          { guard: 'succeeded', target: 'starting', actions: ['rememberReportPause', 'stopClock', 'endPause'] },
          { guard: 'exceeded', target: 'exceeded' },
          { target: 'paused', actions: ['showResponseError', 'clearDndAfterSwap', 'forgetRequest'] },
        ],
        onError: { target: 'paused', actions: ['showRequestError', 'clearDndAfterSwap', 'forgetRequest'] },
      },
    },
    stopping: {
      invoke: {
        id: 'stopPause',
        src: 'stopPause',
        input: (): StopPauseRequest => ({}),
        onDone: [
          { guard: 'succeeded', target: 'notPaused', actions: ['stopClock', 'endPause', 'clearDnd'] },
          { guard: 'exceeded', target: 'exceeded' },
          { target: 'paused', actions: 'showResponseError' },
        ],
        onError: { target: 'paused', actions: 'showRequestError' },
      },
    },
    // Full-screen 'Pausa excedente': the agent must justify; the pause keeps running until the stop is accepted.
    exceeded: {
      meta: { title: EXCEEDED_TITLE },
      initial: 'justifying',
      on: {
        REMOTE_STOP: { target: 'notPaused', actions: ['stopClock', 'endPause', 'clearDnd', 'forgetRequest'] },
      },
      states: {
        justifying: {
          on: { JUSTIFY: { guard: 'hasReason', target: 'submitting' } },
        },
        submitting: {
          invoke: {
            id: 'stopPause',
            src: 'stopPause',
            input: ({ event }): StopPauseRequest => ({ reason: event.type === 'JUSTIFY' ? event.reason.trim() : '' }),
            onDone: [
              {
                guard: and(['succeeded', 'isSwap']),
                target: '#pause.starting',
                actions: ['rememberReportPause', 'stopClock', 'endPause'],
              },
              { guard: 'succeeded', target: '#pause.notPaused', actions: ['stopClock', 'endPause', 'clearDnd'] },
              { target: 'justifying', actions: 'showResponseError' },
            ],
            onError: { target: 'justifying', actions: 'showRequestError' },
          },
        },
      },
    },
  },
})

/** What the status actors need from the pause (spec 000 §4 webphone status, spec 001 §4 webchat status). */
export function pauseFlags(snapshot: SnapshotFrom<typeof pauseMachine>) {
  const { current, swap } = snapshot.context
  return {
    /** A pause enabling the webphone is current. */
    webphonePaused: !!current?.enableWebphone,
    /** A pause enabling the webchat is current. */
    webchatPaused: !!current?.enableWebchat,
    /** Between the stop and the start of 'Trocar'. */
    swapActive: swap,
    allowIncomingChat: !!current?.allowIncomingChat,
    allowOutgoingChat: !!current?.allowOutgoingChat,
  }
}
