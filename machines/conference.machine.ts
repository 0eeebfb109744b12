import { setup, assign, enqueueActions, type ActorRefFrom } from 'xstate'
import { missingAction } from './effects.ts'
import type { PhoneCommand } from './webphoneTypes.ts'

// A local conference — spec 000 §2 (stage conference: several calls picked), §4 "Conference" and "a pendulum
// transfer starts a conference". The agent's browser mixes the chosen calls (the adapter, with Web Audio): each call
// hears the agent's microphone plus the other calls, the agent hears them all. When a call ends it leaves the mix;
// with fewer than two calls left, or on END, the conference ends and the mixing stops.

export const MIN_CONFERENCE_CALLS = 2

export type ConferenceInput = { callIds: string[] }
export type ConferenceContext = { callIds: string[] }
export type ConferenceEvent = { type: 'CALL_ENDED'; callId: string } | { type: 'ADD_CALL'; callId: string } | { type: 'END' }
export type ConferenceOutput = { callIds: string[] }

export const conferenceMachine = setup({
  types: {
    context: {} as ConferenceContext,
    events: {} as ConferenceEvent,
    input: {} as ConferenceInput,
    output: {} as ConferenceOutput,
  },
  actions: {
    phone: missingAction<PhoneCommand>('conference', 'phone'),
    mix: enqueueActions(({ context, enqueue }) => enqueue({ type: 'phone', params: { type: 'conference', callIds: context.callIds } })),
    unmix: enqueueActions(({ enqueue }) => enqueue({ type: 'phone', params: { type: 'conference', callIds: [] } })),
  },
  guards: {
    enoughCalls: ({ context }) => context.callIds.length >= MIN_CONFERENCE_CALLS,
    /** After the event: still at least two calls. */
    enoughCallsAfter: ({ context, event }) => event.type === 'CALL_ENDED' && context.callIds.filter((id) => id !== event.callId).length >= MIN_CONFERENCE_CALLS,
    knownCall: ({ context, event }) => event.type === 'CALL_ENDED' && context.callIds.includes(event.callId),
    newCall: ({ context, event }) => event.type === 'ADD_CALL' && !context.callIds.includes(event.callId),
  },
}).createMachine({
  id: 'conference',
  context: ({ input }) => ({ callIds: [...new Set(input.callIds)] }),
  initial: 'checking',
  states: {
    checking: { always: [{ guard: 'enoughCalls', target: 'mixing' }, { target: 'ended' }] },
    mixing: {
      entry: 'mix',
      on: {
        CALL_ENDED: [
          {
            guard: 'enoughCallsAfter',
            target: 'mixing',
            reenter: true,
            actions: assign({ callIds: ({ context, event }) => context.callIds.filter((id) => id !== event.callId) }),
          },
          {
            guard: 'knownCall',
            target: 'ended',
            actions: assign({ callIds: ({ context, event }) => context.callIds.filter((id) => id !== event.callId) }),
          },
        ],
        ADD_CALL: {
          guard: 'newCall',
          target: 'mixing',
          reenter: true,
          actions: assign({ callIds: ({ context, event }) => [...context.callIds, event.callId] }),
        },
        END: { target: 'ended' },
      },
    },
    ended: { type: 'final', entry: 'unmix' },
  },
  output: ({ context }) => ({ callIds: context.callIds }),
})

export type ConferenceActorRef = ActorRefFrom<typeof conferenceMachine>
