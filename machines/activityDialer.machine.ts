import { setup, assign } from 'xstate'
import type { Activity } from '../contract/api/activities.ts'
import { ACTIVITY_MAX_ATTEMPTS } from '../contract/constants.ts'
import { missingAction, missingPromise } from './effects.ts'
import type { AgentStatus, SocketMessage } from './types.ts'

// Activity dialer — spec 000 §4 "Webphone state": "When available and scheduled activities are pending, the next is
// dialled automatically (an activity is done after 50 attempts)"; §3 Activity; §7 websocket get_activities,
// done_activity, activity; §9.
// While this tab serves, the phone is registered and the agent status is `not_inuse`, the dialer takes the due
// activity with automatic execution that was tried least recently (the server's order, by start, breaks ties),
// records the attempt (`attempt`: POST …/activities/{id}/attempt/, the 50th makes it done), then asks the webphone to
// dial its destination with the activity id in the call headers (`dial`: resolves the webphone's call id, rejects
// when the webphone refused). An answered call marks the activity done (socket `done_activity` and the REST done);
// a call that ends unanswered, a refused dial or a failed attempt request waits FAILURE_WAIT_MS before the next try.
// Leaving not_inuse (a pause, after-service, ringing, a call of the agent's own) stops it at once before the dial;
// once the dial is under way the call itself makes the agent busy, so the dialer follows the call to its end.
// Context keeps the dialer's queue (id and destination of each candidate), never the whole server list.

/** After an unanswered call, a refused dial or a failed attempt request, the next try waits this long (ours). */
export const FAILURE_WAIT_MS = 60_000

/** The SIP header that carries the activity id on its call (ours; call control records it on the step). */
export { ACTIVITY_CALL_HEADER } from '../contract/api/activities.ts'

/** What the dialer keeps of a due activity. */
export type QueuedActivity = { id: number; destination: string }

export type ActivityDialerContext = {
  /** False when the user has no webphone or no activity requests: the dialer never leaves `idle`. */
  enabled: boolean
  serving: boolean
  registered: boolean
  status: AgentStatus | null
  /** The due activities the dialer may dial, in the server's order. */
  queue: QueuedActivity[]
  /** Activities this tab marked done, dropped from lists that still carry them (the server's push may lag). */
  doneIds: number[]
  /** Attempt order: activity id → the sequence number of its last try here (least recent goes first). */
  tried: Record<number, number>
  sequence: number
  /** The activity being worked, and the webphone's call for it. */
  current: QueuedActivity | null
  callId: string | null
}

export type ActivityDialerEvent =
  | { type: 'SERVING_CHANGED'; serving: boolean }
  | { type: 'REGISTRATION_CHANGED'; registered: boolean }
  | { type: 'STATUS_CHANGED'; status: AgentStatus }
  /** The whole due list (the socket's `activity`); `at` is now in epoch ms (an activity whose end passed is skipped). */
  | { type: 'ACTIVITIES'; activities: Activity[]; at: number }
  /** The webphone's call for the current activity changed: answered, or gone. */
  | { type: 'CALL_CHANGED'; callId: string; accepted: boolean; ended: boolean }

export type ActivityDialerInput = { enabled?: boolean }

export type DialRequest = { id: number; destination: string }
export type DialResult = { callId: string }

/** The activities of a due list the dialer may dial: automatic, active, not done, within their end, not done here. */
export function dialable(activities: readonly Activity[], at: number, doneIds: readonly number[] = []): QueuedActivity[] {
  return activities
    .filter(
      (activity) =>
        activity.automatic_execution &&
        activity.active &&
        !activity.done &&
        activity.count < ACTIVITY_MAX_ATTEMPTS &&
        activity.destination !== '' &&
        !doneIds.includes(activity.id) &&
        (activity.end === null || Date.parse(activity.end) >= at),
    )
    .map((activity) => ({ id: activity.id, destination: activity.destination }))
}

/** The next activity to dial: the least recently tried here, the server's order breaking ties. */
export function nextActivity(context: Pick<ActivityDialerContext, 'queue' | 'tried'>): QueuedActivity | null {
  let best: QueuedActivity | null = null
  let bestTry = Infinity
  for (const activity of context.queue) {
    const tried = context.tried[activity.id] ?? -1
    if (tried < bestTry) {
      best = activity
      bestTry = tried
    }
  }
  return best
}

/** The dialer may start a try: serving, registered, available, and allowed at all. */
export function canDial(context: Pick<ActivityDialerContext, 'enabled' | 'serving' | 'registered' | 'status'>): boolean {
  return context.enabled && context.serving && context.registered && context.status === 'not_inuse'
}

/** An attempt answer that says the activity was already done before this try (worked by hand): it is not dialled. */
function doneBefore(output: unknown): boolean {
  const activity = output as Partial<Activity> | null
  return !!activity && activity.done === true && (activity.count ?? 0) < ACTIVITY_MAX_ATTEMPTS
}

const withoutCurrent = ({ context }: { context: ActivityDialerContext }) => context.queue.filter((activity) => activity.id !== context.current?.id)

export const activityDialerMachine = setup({
  types: {
    context: {} as ActivityDialerContext,
    events: {} as ActivityDialerEvent,
    input: {} as ActivityDialerInput,
  },
  actors: {
    attempt: missingPromise<Activity, { id: number }>('activityDialer', 'attempt'),
    dial: missingPromise<DialResult, DialRequest>('activityDialer', 'dial'),
  },
  actions: {
    sendSocket: missingAction<SocketMessage>('activityDialer', 'sendSocket'),
    /** POST …/activities/{id}/done/ (fire and forget: the socket's done_activity says the same). */
    markDone: missingAction<{ id: number }>('activityDialer', 'markDone'),
  },
  guards: {
    canDial: ({ context }) => canDial(context),
    hasNext: ({ context }) => nextActivity(context) !== null,
  },
  delays: { failureWait: FAILURE_WAIT_MS },
}).createMachine({
  id: 'activityDialer',
  context: ({ input }) => ({
    enabled: input.enabled ?? true,
    serving: false,
    registered: false,
    status: null,
    queue: [],
    doneIds: [],
    tried: {},
    sequence: 0,
    current: null,
    callId: null,
  }),
  on: {
    SERVING_CHANGED: { actions: assign({ serving: ({ event }) => event.serving }) },
    REGISTRATION_CHANGED: { actions: assign({ registered: ({ event }) => event.registered }) },
    STATUS_CHANGED: { actions: assign({ status: ({ event }) => event.status }) },
    ACTIVITIES: { actions: assign({ queue: ({ context, event }) => dialable(event.activities, event.at, context.doneIds) }) },
  },
  initial: 'idle',
  states: {
    // Not allowed to dial now (or nothing worked yet); re-checked after every input.
    idle: {
      entry: assign({ current: null, callId: null }),
      always: { guard: 'canDial', target: 'ready' },
    },
    // Allowed, waiting for a due activity.
    ready: {
      always: [
        { guard: ({ context }) => !canDial(context), target: 'idle' },
        {
          guard: 'hasNext',
          target: 'attempting',
          actions: assign(({ context }) => {
            const current = nextActivity(context)!
            return { current, tried: { ...context.tried, [current.id]: context.sequence }, sequence: context.sequence + 1 }
          }),
        },
      ],
    },
    // POST attempt. Leaving not_inuse meanwhile stops the try at once (the answer is then ignored).
    attempting: {
      always: { guard: ({ context }) => !canDial(context), target: 'idle' },
      invoke: {
        id: 'attempt',
        src: 'attempt',
        input: ({ context }) => ({ id: context.current!.id }),
        onDone: [
          // Done by hand since the list came: nothing to dial.
          {
            guard: ({ event }) => doneBefore(event.output),
            target: 'idle',
            actions: assign({ queue: withoutCurrent, doneIds: ({ context }) => [...context.doneIds, context.current!.id] }),
          },
          { target: 'dialling' },
        ],
        onError: { target: 'waiting' },
      },
    },
    // The webphone dials (one request, answered at once): the call that starts makes the agent busy, so the status
    // is not watched here.
    dialling: {
      invoke: {
        id: 'dial',
        src: 'dial',
        input: ({ context }) => ({ id: context.current!.id, destination: context.current!.destination }),
        onDone: { target: 'calling', actions: assign({ callId: ({ event }) => event.output.callId }) },
        onError: { target: 'waiting' },
      },
    },
    // The activity's call rings at the other end.
    calling: {
      on: {
        CALL_CHANGED: [
          {
            guard: ({ context, event }) => event.callId === context.callId && event.accepted,
            target: 'answered',
            actions: [
              { type: 'sendSocket', params: ({ context }) => ({ action: 'done_activity', id: context.current!.id }) },
              { type: 'markDone', params: ({ context }) => ({ id: context.current!.id }) },
              assign({ queue: withoutCurrent, doneIds: ({ context }) => [...context.doneIds, context.current!.id] }),
            ],
          },
          { guard: ({ context, event }) => event.callId === context.callId && event.ended, target: 'waiting' },
        ],
      },
    },
    // Answered and done: the dialer waits for the call to end before the next.
    answered: {
      on: { CALL_CHANGED: { guard: ({ context, event }) => event.callId === context.callId && event.ended, target: 'idle' } },
    },
    // A try failed: the next one waits.
    waiting: {
      entry: assign({ callId: null }),
      after: { failureWait: { target: 'idle' } },
    },
  },
})
