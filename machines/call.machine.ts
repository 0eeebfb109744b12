import { setup, assign, enqueueActions, raise, type ActorRefFrom } from 'xstate'
import { missingAction, missingPromise } from './effects.ts'
import type { SocketMessage } from './types.ts'
import { CALL_HEADERS, clientNameOf } from './webphoneTypes.ts'
import type { CallDirection, CallHeaders, PhoneCommand } from './webphoneTypes.ts'

// One webphone call — spec 000 §3 "Call session", §4 "Webphone state" (lifecycle), §5 (DTMF keys), §9 (delays).
// ringing → inuse (answered) ⇄ onhold / onmute → ended (final; the webphone then drops the call). When the call is
// accepted a `webphone_answer` goes on the status feed 2 s later. The call's metadata (its form, client, activity) is
// polled from the moment its uid is known: every 100 ms for the first ten attempts, then every 1000 ms, until
// received. A hangup asked within 3 s of the start while no metadata has arrived waits for the metadata or the end of
// those 3 s. DTMF tones queue: numeric ones last 120 ms with 500 ms before the next, others 80 ms and 100 ms.
// Effects: action `phone` (a PhoneCommand for the adapter), `sendSocket`, `changed` (a summary for the webphone);
// actor `fetchMetadata` (one attempt: resolves the metadata, or null while the server has none yet).

export const ANSWER_EVENT_DELAY_MS = 2000
export const METADATA_FAST_MS = 100
export const METADATA_FAST_ATTEMPTS = 10
export const METADATA_SLOW_MS = 1000
export const EARLY_HANGUP_WINDOW_MS = 3000
export const DTMF_NUMERIC = { duration: 120, gap: 500 } as const
export const DTMF_OTHER = { duration: 80, gap: 100 } as const
export const DTMF_TONES = '0123456789*#ABCD'

/** Spec 000 §9: the duration and gap of one DTMF tone. */
export function dtmfTiming(tone: string): { duration: number; gap: number } {
  return /^[0-9]$/.test(tone) ? DTMF_NUMERIC : DTMF_OTHER
}

/** The wait before metadata attempt `attempt + 1` after `attempt` attempts came back empty. */
export function metadataDelay(attempts: number): number {
  return attempts < METADATA_FAST_ATTEMPTS ? METADATA_FAST_MS : METADATA_SLOW_MS
}

export type CallMetadata = Record<string, unknown>

export type CallInput = {
  id: string
  direction: CallDirection
  phone: string
  name?: string
  uid?: string | null
  callType: number
  queue?: string | null
  headers?: CallHeaders
}

export type CallContext = {
  id: string
  /** The line state, as the webphone hears it. */
  line: CallSummary['state']
  uid: string | null
  direction: CallDirection
  phone: string
  name: string
  accepted: boolean
  /** Media flows (an early 183 counts for outgoing calls). */
  connected: boolean
  mute: boolean
  hold: boolean
  startedAt: number
  answeredAt: number | null
  endedAt: number | null
  callType: number
  queue: string | null
  headers: CallHeaders
  metadata: CallMetadata | null
  endReason: string | null
  endCode: number | null
  /** The answer was sent and the phone has not confirmed it yet. */
  answering: boolean
  /** Inside the first 3 s. */
  early: boolean
  /** A hangup waits for the metadata (or the 3 s). */
  hangupPending: boolean
  /** The hangup went to the phone. */
  hangingUp: boolean
  metadataAttempts: number
  metadataFetching: boolean
  metadataWaiting: boolean
  answerEventPending: boolean
  dtmfQueue: string[]
  /** A tone is playing, or its gap not over: the next one waits. */
  dtmfBusy: boolean
}

/** What the webphone learns after each change of the call. */
export type CallSummary = {
  callId: string
  state: 'ringing' | 'inuse' | 'onhold' | 'onmute' | 'ended'
  accepted: boolean
  uid: string | null
  direction: CallDirection
  hasMetadata: boolean
  answeredAt: number | null
  endedAt: number | null
  /** The other party's number (the after-service shows it once the call is gone). */
  phone?: string
}

export type CallEvent =
  | { type: 'ANSWER' }
  | { type: 'HANGUP' }
  | { type: 'HOLD' }
  | { type: 'UNHOLD' }
  | { type: 'MUTE' }
  | { type: 'UNMUTE' }
  | { type: 'DTMF'; tone: string }
  | { type: 'PHONE_PROGRESS'; callId: string; code: number; uid?: string }
  | { type: 'PHONE_ACCEPTED'; callId: string; uid?: string }
  | { type: 'PHONE_REPLACED'; callId: string; uid: string; phone: string; name: string; headers: CallHeaders }
  /** The server moved the call to another step (socket changeCallStep): `uid` the step it was on, `stepUid` the new. */
  | { type: 'STEP_CHANGED'; uid: string; stepUid: string }
  | { type: 'PHONE_ENDED'; callId: string; code: number | null; reason: string }
  // raised by the machine itself
  | { type: 'ANSWER_EVENT' }
  | { type: 'METADATA_POLL' }
  | { type: 'EARLY_WINDOW_CLOSED' }
  | { type: 'DTMF_NEXT' }
  // the metadata attempt (a spawned child)
  | { type: 'xstate.done.actor.metadata'; output: CallMetadata | null }
  | { type: 'xstate.error.actor.metadata'; error: unknown }

export type CallOutput = {
  id: string
  uid: string | null
  accepted: boolean
  startedAt: number
  answeredAt: number | null
  endedAt: number
  endReason: string | null
}

function summary(context: CallContext): CallSummary {
  return {
    callId: context.id,
    state: context.line,
    accepted: context.accepted,
    uid: context.uid,
    direction: context.direction,
    hasMetadata: context.metadata !== null,
    answeredAt: context.answeredAt,
    endedAt: context.endedAt,
    phone: context.phone,
  }
}

export const callMachine = setup({
  types: {
    context: {} as CallContext,
    events: {} as CallEvent,
    input: {} as CallInput,
    output: {} as CallOutput,
    children: {} as { metadata: 'fetchMetadata' },
  },
  actors: {
    fetchMetadata: missingPromise<CallMetadata | null, { uid: string; callId: string; attempt: number }>('call', 'fetchMetadata'),
  },
  actions: {
    phone: missingAction<PhoneCommand>('call', 'phone'),
    sendSocket: missingAction<SocketMessage>('call', 'sendSocket'),
    changed: missingAction<CallSummary>('call', 'changed'),
    /** Entry of each line state, after it recorded `line`: the webphone hears the call's summary. */
    report: enqueueActions(({ context, enqueue }) => enqueue({ type: 'changed', params: summary(context) })),
    fetchMetadata: enqueueActions(({ context, enqueue }) => {
      if (!context.uid || context.metadata) return
      enqueue.assign({ metadataFetching: true, metadataWaiting: false, metadataAttempts: context.metadataAttempts + 1 })
      enqueue.spawnChild('fetchMetadata', {
        id: 'metadata',
        input: { uid: context.uid, callId: context.id, attempt: context.metadataAttempts + 1 },
      })
    }),
    scheduleMetadata: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ metadataFetching: false, metadataWaiting: true })
      enqueue.raise({ type: 'METADATA_POLL' }, { delay: metadataDelay(context.metadataAttempts), id: 'metadataPoll' })
    }),
    learnUid: enqueueActions(({ context, event, enqueue }) => {
      const uid = 'uid' in event ? event.uid : undefined
      if (!uid || context.uid) return
      enqueue.assign({ uid })
      enqueue('fetchMetadata')
    }),
    /** The agent's hangup, or its delay (spec 000 §4: within 3 s of the start and without metadata). */
    requestHangup: enqueueActions(({ context, enqueue }) => {
      if (context.hangingUp || context.hangupPending) return
      if (context.early && !context.metadata) {
        enqueue.assign({ hangupPending: true })
        return
      }
      enqueue('hangupNow')
    }),
    hangupNow: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ hangupPending: false, hangingUp: true })
      enqueue({ type: 'phone', params: { type: 'hangup', callId: context.id } })
    }),
    releasePendingHangup: enqueueActions(({ context, enqueue }) => {
      if (context.hangupPending) enqueue('hangupNow')
    }),
    queueTone: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'DTMF') return
      const tone = event.tone.toUpperCase()
      if (tone.length !== 1 || !DTMF_TONES.includes(tone)) return
      if (context.dtmfBusy) return enqueue.assign({ dtmfQueue: [...context.dtmfQueue, tone] })
      const { duration, gap } = dtmfTiming(tone)
      enqueue.assign({ dtmfBusy: true })
      enqueue({ type: 'phone', params: { type: 'dtmf', callId: context.id, tone, duration, gap } })
      enqueue.raise({ type: 'DTMF_NEXT' }, { delay: duration + gap, id: 'dtmf' })
    }),
    nextTone: enqueueActions(({ context, enqueue }) => {
      const [next, ...rest] = context.dtmfQueue
      enqueue.assign({ dtmfBusy: !!next, dtmfQueue: rest })
      if (!next) return
      const { duration, gap } = dtmfTiming(next)
      enqueue({ type: 'phone', params: { type: 'dtmf', callId: context.id, tone: next, duration, gap } })
      enqueue.raise({ type: 'DTMF_NEXT' }, { delay: duration + gap, id: 'dtmf' })
    }),
    accept: enqueueActions(({ context, event, enqueue }) => {
      const uid = event.type === 'PHONE_ACCEPTED' && event.uid && !context.uid ? event.uid : null
      enqueue.assign({ accepted: true, connected: true, answering: false, answeredAt: Date.now(), answerEventPending: true })
      if (uid) {
        enqueue.assign({ uid })
        enqueue('fetchMetadata')
      }
      enqueue.raise({ type: 'ANSWER_EVENT' }, { delay: ANSWER_EVENT_DELAY_MS, id: 'answerEvent' })
    }),
  },
  guards: {
    incoming: ({ context }) => context.direction === 'incoming',
    canAnswer: ({ context }) => context.direction === 'incoming' && !context.answering && !context.hangingUp,
    muted: ({ context }) => context.mute,
    gotMetadata: ({ event }) => event.type === 'xstate.done.actor.metadata' && event.output != null,
    isEarly: ({ context }) => context.early,
  },
}).createMachine({
  id: 'call',
  context: ({ input }) => ({
    id: input.id,
    line: 'ringing',
    uid: input.uid ?? null,
    direction: input.direction,
    phone: input.phone,
    name: input.name ?? '',
    accepted: false,
    connected: false,
    mute: false,
    hold: false,
    startedAt: Date.now(),
    answeredAt: null,
    endedAt: null,
    callType: input.callType,
    queue: input.queue ?? null,
    headers: input.headers ?? {},
    metadata: null,
    endReason: null,
    endCode: null,
    answering: false,
    early: true,
    hangupPending: false,
    hangingUp: false,
    metadataAttempts: 0,
    metadataFetching: false,
    metadataWaiting: false,
    answerEventPending: false,
    dtmfQueue: [],
    dtmfBusy: false,
  }),
  entry: ['fetchMetadata', raise({ type: 'EARLY_WINDOW_CLOSED' }, { delay: EARLY_HANGUP_WINDOW_MS, id: 'earlyWindow' })],
  on: {
    'xstate.done.actor.metadata': [
      {
        guard: 'gotMetadata',
        actions: [assign({ metadata: ({ event }) => event.output, metadataFetching: false }), 'releasePendingHangup'],
      },
      { actions: 'scheduleMetadata' },
    ],
    'xstate.error.actor.metadata': { actions: 'scheduleMetadata' },
    METADATA_POLL: { actions: 'fetchMetadata' },
    EARLY_WINDOW_CLOSED: { actions: [assign({ early: false }), 'releasePendingHangup'] },
    ANSWER_EVENT: {
      actions: [
        assign({ answerEventPending: false }),
        enqueueActions(({ context, enqueue }) => enqueue({ type: 'sendSocket', params: { action: 'webphone_answer', uid: context.uid, call_id: context.id } })),
      ],
    },
    DTMF_NEXT: { actions: 'nextTone' },
    PHONE_PROGRESS: { actions: 'learnUid' },
    // The customer of an attended transfer replaced the colleague on this call: it is theirs now (uid, number,
    // name, metadata), and the webphone hears the new uid.
    PHONE_REPLACED: {
      actions: [
        assign(({ context, event }) => ({
          uid: event.uid,
          phone: event.phone,
          name: clientNameOf(event.headers) || event.name,
          headers: event.headers,
          callType: Number(event.headers[CALL_HEADERS.callType]) || context.callType,
          queue: event.headers[CALL_HEADERS.queue] ?? null,
          // The server may have told the new step first (STEP_CHANGED): its metadata is this step's already.
          metadata: event.uid === context.uid ? context.metadata : null,
          metadataAttempts: event.uid === context.uid ? context.metadataAttempts : 0,
        })),
        enqueueActions(({ context, enqueue }) => {
          if (!context.metadataFetching) enqueue('fetchMetadata')
        }),
        'report',
      ],
    },
    // The same, told by the server (changeCallStep): only while the call is still on the step the server names, so a
    // late or repeated notice changes nothing. The number and name come with the SIP side (PHONE_REPLACED) or the metadata.
    STEP_CHANGED: {
      guard: ({ context, event }) => context.uid === event.uid && event.stepUid !== event.uid,
      actions: [
        // An attempt in flight asks about the old step: its answer must not become the new step's.
        enqueueActions(({ context, enqueue }) => {
          if (context.metadataFetching) enqueue.stopChild('metadata')
          enqueue.cancel('metadataPoll')
        }),
        assign(({ event }) => ({ uid: event.stepUid, metadata: null, metadataAttempts: 0, metadataFetching: false, metadataWaiting: false })),
        'fetchMetadata',
        'report',
      ],
    },
    PHONE_ENDED: {
      target: '.ended',
      actions: assign({
        endedAt: () => Date.now(),
        endReason: ({ event }) => event.reason,
        endCode: ({ event }) => event.code,
        hangupPending: false,
        answerEventPending: false,
        dtmfQueue: [],
      }),
    },
    HANGUP: { actions: 'requestHangup' },
  },
  initial: 'ringing',
  states: {
    ringing: {
      entry: [assign({ line: 'ringing' as const }), 'report'],
      on: {
        ANSWER: {
          guard: 'canAnswer',
          actions: [
            assign({ answering: true }),
            enqueueActions(({ context, enqueue }) => enqueue({ type: 'phone', params: { type: 'answer', callId: context.id } })),
          ],
        },
        PHONE_PROGRESS: {
          actions: ['learnUid', assign({ connected: ({ context, event }) => context.connected || event.code === 183 })],
        },
        PHONE_ACCEPTED: { target: 'inuse', actions: 'accept' },
      },
    },
    inuse: {
      entry: [assign({ line: 'inuse' as const }), 'report'],
      on: {
        HOLD: { target: 'onhold' },
        MUTE: { target: 'onmute' },
        DTMF: { actions: 'queueTone' },
      },
    },
    onhold: {
      entry: [
        assign({ hold: true }),
        enqueueActions(({ context, enqueue }) => enqueue({ type: 'phone', params: { type: 'hold', callId: context.id, on: true } })),
        assign({ line: 'onhold' as const }),
        'report',
      ],
      exit: [
        assign({ hold: false }),
        enqueueActions(({ context, event, enqueue }) => {
          if (!context.hangingUp && event.type !== 'PHONE_ENDED') enqueue({ type: 'phone', params: { type: 'hold', callId: context.id, on: false } })
        }),
      ],
      on: {
        UNHOLD: [{ guard: 'muted', target: 'onmute' }, { target: 'inuse' }],
        MUTE: {
          guard: ({ context }) => !context.mute,
          actions: [
            assign({ mute: true }),
            enqueueActions(({ context, enqueue }) => enqueue({ type: 'phone', params: { type: 'mute', callId: context.id, on: true } })),
          ],
        },
        UNMUTE: {
          guard: 'muted',
          actions: [
            assign({ mute: false }),
            enqueueActions(({ context, enqueue }) => enqueue({ type: 'phone', params: { type: 'mute', callId: context.id, on: false } })),
          ],
        },
      },
    },
    onmute: {
      entry: [
        enqueueActions(({ context, enqueue }) => {
          if (!context.mute) enqueue({ type: 'phone', params: { type: 'mute', callId: context.id, on: true } })
        }),
        assign({ mute: true }),
        assign({ line: 'onmute' as const }),
        'report',
      ],
      on: {
        UNMUTE: {
          target: 'inuse',
          actions: [
            assign({ mute: false }),
            enqueueActions(({ context, enqueue }) => enqueue({ type: 'phone', params: { type: 'mute', callId: context.id, on: false } })),
          ],
        },
        HOLD: { target: 'onhold' },
        DTMF: { actions: 'queueTone' },
      },
    },
    ended: {
      type: 'final',
      entry: [assign({ line: 'ended' as const }), 'report'],
    },
  },
  output: ({ context }) => ({
    id: context.id,
    uid: context.uid,
    accepted: context.accepted,
    startedAt: context.startedAt,
    answeredAt: context.answeredAt,
    endedAt: context.endedAt ?? Date.now(),
    endReason: context.endReason,
  }),
})

export type CallActorRef = ActorRefFrom<typeof callMachine>
