import { setup, assign, enqueueActions, type ActorRefFrom } from 'xstate'
import { BLIND_TRANSFER_PREFIX } from '../contract/codes/transfer.ts'
import { missingAction, missingPromise } from './effects.ts'
import type { Notice } from './types.ts'
import type { PhoneCommand, TransferType } from './webphoneTypes.ts'

// A transfer of one call — spec 000 §3 "Transfer in progress", §4 "Webphone state" (transfer), §7 (POST
// /v1/agent/transfer/cancel/), §8 ('Não foi possível fazer a transferência'), §9 (blind prefix).
// Blind: a REFER of the origin call to the destination (with the blind prefix) → transferred, or failed.
// Attend and pendulum: the webphone has put the origin on hold and dialled the destination; once the destination is
// accepted the transfer can be confirmed (REFER with Replaces: the two parties are joined and the agent leaves). A
// pendulum joins the three in a conference as soon as the destination answers. Cancel, or the destination hanging
// up, tells the server (transfer/cancel) and ends the transfer; the webphone then hangs the destination up and
// returns to the origin. The machine ends with its result; the webphone moves the stage and the calls.

/** Re-exported for the machine's callers; it lives with the other dial codes of contract/codes/transfer.ts. */
export { BLIND_TRANSFER_PREFIX }
export const TRANSFER_FAILED_NOTICE = 'Não foi possível fazer a transferência'

/** POST /v1/agent/transfer/cancel/ (spec 000 §7): the origin call's uid as step_id. */
export type CancelTransferRequest = { step_id: string | null; type: TransferType; app: string; appdata: string }

export type TransferInput = {
  type: TransferType
  originCallId: string
  originUid: string | null
  destinationCallId: string | null
  destination: string
  /** The flow app and its data (spec 000 §6 transfer permissions); a plain number is app `number`. */
  app?: string
  appdata?: string
}

export type TransferResult = 'transferred' | 'failed' | 'cancelled' | 'abandoned'
export type TransferOutput = { result: TransferResult; type: TransferType; originCallId: string; destinationCallId: string | null }

export type TransferContext = Required<TransferInput> & { destinationAccepted: boolean; result: TransferResult | null }

export type TransferEvent =
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'DESTINATION_ACCEPTED' }
  | { type: 'DESTINATION_ENDED' }
  | { type: 'ORIGIN_ENDED' }
  | { type: 'PHONE_TRANSFERRED'; callId: string; ok: boolean; reason?: string }

export const transferMachine = setup({
  types: {
    context: {} as TransferContext,
    events: {} as TransferEvent,
    input: {} as TransferInput,
    output: {} as TransferOutput,
  },
  actors: {
    cancelTransfer: missingPromise<unknown, CancelTransferRequest>('transfer', 'cancelTransfer'),
  },
  actions: {
    phone: missingAction<PhoneCommand>('transfer', 'phone'),
    notify: missingAction<Notice>('transfer', 'notify'),
    /** Pendulum: the origin, the destination and the agent talk together. */
    startConference: missingAction<{ callIds: string[] }>('transfer', 'startConference'),
    endConference: missingAction('transfer', 'endConference'),
    referBlind: enqueueActions(({ context, enqueue }) =>
      enqueue({ type: 'phone', params: { type: 'transferBlind', callId: context.originCallId, target: `${BLIND_TRANSFER_PREFIX}${context.destination}` } }),
    ),
    referAttended: enqueueActions(({ context, enqueue }) => {
      if (!context.destinationCallId) return
      if (context.type === 'pendulum') enqueue('endConference')
      enqueue({ type: 'phone', params: { type: 'transferAttended', callId: context.originCallId, targetCallId: context.destinationCallId } })
    }),
    conferenceForPendulum: enqueueActions(({ context, enqueue }) => {
      if (context.type === 'pendulum' && context.destinationCallId)
        enqueue({ type: 'startConference', params: { callIds: [context.originCallId, context.destinationCallId] } })
    }),
    notifyFailure: enqueueActions(({ event, enqueue }) => {
      const reason = event.type === 'PHONE_TRANSFERRED' ? event.reason : undefined
      enqueue({ type: 'notify', params: { message: reason || TRANSFER_FAILED_NOTICE, severity: 'error' } })
    }),
  },
  guards: {
    blind: ({ context }) => context.type === 'blind',
    pendulum: ({ context }) => context.type === 'pendulum',
    referAccepted: ({ event }) => event.type === 'PHONE_TRANSFERRED' && event.ok,
  },
}).createMachine({
  id: 'transfer',
  context: ({ input }) => ({
    type: input.type,
    originCallId: input.originCallId,
    originUid: input.originUid,
    destinationCallId: input.destinationCallId,
    destination: input.destination,
    app: input.app ?? 'number',
    appdata: input.appdata ?? input.destination,
    destinationAccepted: false,
    result: null,
  }),
  initial: 'choosing',
  states: {
    choosing: { always: [{ guard: 'blind', target: 'referring' }, { target: 'dialing' }] },
    referring: {
      entry: 'referBlind',
      on: {
        PHONE_TRANSFERRED: [
          { guard: 'referAccepted', target: 'transferred' },
          { target: 'failed', actions: 'notifyFailure' },
        ],
        // The far end took the REFER and hung the origin up before the NOTIFY came.
        ORIGIN_ENDED: { target: 'transferred' },
      },
    },
    dialing: {
      on: {
        DESTINATION_ACCEPTED: [
          { guard: 'pendulum', target: 'conference', actions: assign({ destinationAccepted: true }) },
          { target: 'ready', actions: assign({ destinationAccepted: true }) },
        ],
        DESTINATION_ENDED: { target: 'cancelling' },
        CANCEL: { target: 'cancelling' },
        ORIGIN_ENDED: { target: 'abandoned' },
      },
    },
    // The destination answered: the transfer button shows (attend).
    ready: {
      on: {
        CONFIRM: { target: 'confirming' },
        CANCEL: { target: 'cancelling' },
        DESTINATION_ENDED: { target: 'cancelling' },
        ORIGIN_ENDED: { target: 'abandoned' },
      },
    },
    // Pendulum: the three talk together until the agent confirms or cancels.
    conference: {
      entry: 'conferenceForPendulum',
      on: {
        CONFIRM: { target: 'confirming' },
        CANCEL: { target: 'cancelling', actions: 'endConference' },
        DESTINATION_ENDED: { target: 'cancelling', actions: 'endConference' },
        ORIGIN_ENDED: { target: 'abandoned', actions: 'endConference' },
      },
    },
    confirming: {
      entry: 'referAttended',
      on: {
        PHONE_TRANSFERRED: [
          { guard: 'referAccepted', target: 'transferred' },
          { guard: 'pendulum', target: 'conference', actions: 'notifyFailure' },
          { target: 'ready', actions: 'notifyFailure' },
        ],
        ORIGIN_ENDED: { target: 'transferred' },
      },
    },
    cancelling: {
      invoke: {
        id: 'cancelTransfer',
        src: 'cancelTransfer',
        input: ({ context }) => ({ step_id: context.originUid, type: context.type, app: context.app, appdata: context.appdata }),
        onDone: { target: 'cancelled' },
        onError: {
          target: 'cancelled',
          actions: enqueueActions(({ event, enqueue }) => {
            const detail = (event.error as { detail?: string; message?: string } | null)?.detail ?? (event.error as Error | null)?.message ?? ''
            enqueue({ type: 'notify', params: { message: `Ocorreu um erro ${detail}`.trim(), severity: 'error' } })
          }),
        },
      },
    },
    transferred: { type: 'final', entry: assign({ result: 'transferred' as const }) },
    failed: { type: 'final', entry: assign({ result: 'failed' as const }) },
    cancelled: { type: 'final', entry: assign({ result: 'cancelled' as const }) },
    // The origin hung up before the transfer completed: the destination stays a call of its own.
    abandoned: { type: 'final', entry: assign({ result: 'abandoned' as const }) },
  },
  output: ({ context }) => ({
    result: context.result ?? 'cancelled',
    type: context.type,
    originCallId: context.originCallId,
    destinationCallId: context.destinationCallId,
  }),
})

export type TransferActorRef = ActorRefFrom<typeof transferMachine>
