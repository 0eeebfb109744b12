import { setup, assign } from 'xstate'
import type { MakeCallResponse, PreviewLead } from '../contract/api/dialer.ts'
import { missingAction, missingPromise } from './effects.ts'
import type { AgentStatus } from './types.ts'

// Preview dialer — issue 18 item 2 "preview (type 18: the agent sees the lead, may skip, dials with one click or after
// a countdown)"; spec 000 §7 make-call-to-mailing-client (with remove_reserved). While this tab serves, the phone is
// registered and the agent is not_inuse, the dialer asks the server for the agent's preview lead (GET preview-lead:
// the lead the agent holds, else the next due one of a running preview campaign whose queue they belong to, reserved
// for them). A lead is offered: the agent calls it (or the campaign's countdown runs out: one tick a second), or skips
// it. Calling first turns the hold into the call's (PUT make-call-to-mailing-client), then the webphone dials the
// phone the server answered with the lead's headers; the call's end brings the next lead. Skipping releases the hold
// (`remove_reserved=true`: the server puts the lead back after the campaign's interval). No lead, or a failed request:
// asked again after NO_LEAD_WAIT_MS. Leaving not_inuse (a pause, a call of one's own, after-service) stops at once;
// the hold stays the agent's until it expires, and the same lead comes back.

/** Asked again after this long when there was no lead or a request failed (ours). */
export const NO_LEAD_WAIT_MS = 15_000
/** The countdown's tick. */
export const COUNTDOWN_TICK_MS = 1000

export type PreviewDialerContext = {
  /** False without the webphone or the dialer requests: the dialer never leaves `idle`. */
  enabled: boolean
  serving: boolean
  registered: boolean
  status: AgentStatus | null
  lead: NonNullable<PreviewLead> | null
  /** Seconds left before the countdown dials (null: no countdown, the agent dials). */
  remaining: number | null
  /** The webphone's call for the lead. */
  callId: string | null
  /** The server's reason when make-call refused (shown on the card until the next lead). */
  refusal: string | null
}

export type PreviewDialerEvent =
  | { type: 'SERVING_CHANGED'; serving: boolean }
  | { type: 'REGISTRATION_CHANGED'; registered: boolean }
  | { type: 'STATUS_CHANGED'; status: AgentStatus }
  | { type: 'CALL' }
  | { type: 'SKIP' }
  /** The webphone's call for the lead is gone. */
  | { type: 'CALL_ENDED'; callId: string }

export type PreviewDialRequest = { lead: NonNullable<PreviewLead>; phone: string }
export type PreviewDialResult = { callId: string }

export function canPreview(context: Pick<PreviewDialerContext, 'enabled' | 'serving' | 'registered' | 'status'>): boolean {
  return context.enabled && context.serving && context.registered && context.status === 'not_inuse'
}

export const previewDialerMachine = setup({
  types: {
    context: {} as PreviewDialerContext,
    events: {} as PreviewDialerEvent,
    input: {} as { enabled?: boolean },
  },
  actors: {
    /** GET preview-lead. */
    fetchLead: missingPromise<PreviewLead, void>('previewDialer', 'fetchLead'),
    /** PUT make-call-to-mailing-client ?mailing_client= */
    makeCall: missingPromise<MakeCallResponse, { id: number }>('previewDialer', 'makeCall'),
    /** PUT make-call-to-mailing-client ?mailing_client=&remove_reserved=true */
    release: missingPromise<unknown, { id: number }>('previewDialer', 'release'),
    /** The webphone dials (answered at once with its call id; rejects when it refused). */
    dial: missingPromise<PreviewDialResult, PreviewDialRequest>('previewDialer', 'dial'),
  },
  actions: {
    notify: missingAction<{ message: string; severity: 'error' | 'warning' | 'info' }>('previewDialer', 'notify'),
  },
  guards: {
    canPreview: ({ context }) => canPreview(context),
    counting: ({ context }) => context.remaining !== null,
  },
  delays: { noLead: NO_LEAD_WAIT_MS, tick: COUNTDOWN_TICK_MS },
}).createMachine({
  id: 'previewDialer',
  context: ({ input }) => ({
    enabled: input.enabled ?? true,
    serving: false,
    registered: false,
    status: null,
    lead: null,
    remaining: null,
    callId: null,
    refusal: null,
  }),
  on: {
    SERVING_CHANGED: { actions: assign({ serving: ({ event }) => event.serving }) },
    REGISTRATION_CHANGED: { actions: assign({ registered: ({ event }) => event.registered }) },
    STATUS_CHANGED: { actions: assign({ status: ({ event }) => event.status }) },
  },
  initial: 'idle',
  states: {
    // Not allowed to preview now; re-checked after every input.
    idle: {
      entry: assign({ lead: null, remaining: null, callId: null }),
      always: { guard: 'canPreview', target: 'fetching' },
    },
    fetching: {
      always: { guard: ({ context }) => !canPreview(context), target: 'idle' },
      invoke: {
        id: 'fetchLead',
        src: 'fetchLead',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'offered',
            actions: assign(({ event }) => ({
              lead: event.output,
              remaining: event.output!.countdown > 0 ? event.output!.countdown : null,
              refusal: null,
            })),
          },
          { target: 'resting' },
        ],
        onError: { target: 'resting' },
      },
    },
    // Nothing to offer (or the server failed): asked again later.
    resting: {
      always: { guard: ({ context }) => !canPreview(context), target: 'idle' },
      after: { noLead: { target: 'fetching' } },
    },
    // The lead is on the agent's card.
    offered: {
      always: { guard: ({ context }) => !canPreview(context), target: 'idle' },
      on: { CALL: { target: 'claiming' }, SKIP: { target: 'skipping' } },
      initial: 'choosing',
      states: {
        choosing: { always: { guard: 'counting', target: 'counting' } },
        // The campaign's countdown: one tick a second, then the call.
        counting: {
          after: {
            tick: [
              { guard: ({ context }) => (context.remaining ?? 0) <= 1, target: '#previewDialer.claiming', actions: assign({ remaining: 0 }) },
              { target: 'counting', reenter: true, actions: assign({ remaining: ({ context }) => (context.remaining ?? 1) - 1 }) },
            ],
          },
        },
      },
    },
    // The agent's hold becomes the call's; a refusal (held by another, not due, blocklisted) shows and the next comes.
    claiming: {
      invoke: {
        id: 'makeCall',
        src: 'makeCall',
        input: ({ context }) => ({ id: context.lead!.mailing_client }),
        onDone: [
          { guard: ({ event }) => event.output.success, target: 'dialling' },
          {
            target: 'resting',
            actions: [
              assign({ refusal: ({ event }) => event.output.reason }),
              { type: 'notify', params: ({ event }) => ({ message: event.output.reason, severity: 'warning' }) },
            ],
          },
        ],
        onError: { target: 'resting' },
      },
    },
    dialling: {
      invoke: {
        id: 'dial',
        src: 'dial',
        input: ({ context }) => ({ lead: context.lead!, phone: context.lead!.phone }),
        onDone: { target: 'calling', actions: assign({ callId: ({ event }) => event.output.callId }) },
        // The webphone refused: the hold goes back (the lead is not lost for the campaign).
        onError: { target: 'skipping' },
      },
    },
    // The lead's call: the server records its result on the lead; its end brings the next.
    calling: {
      on: { CALL_ENDED: { guard: ({ context, event }) => event.callId === context.callId, target: 'idle' } },
    },
    skipping: {
      invoke: {
        id: 'release',
        src: 'release',
        input: ({ context }) => ({ id: context.lead!.mailing_client }),
        onDone: { target: 'idle' },
        onError: { target: 'resting' },
      },
    },
  },
})
