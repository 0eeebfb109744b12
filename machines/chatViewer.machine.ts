import { setup, assign } from 'xstate'
import { missingPromise } from './effects.ts'

// Chat room viewer — a supervisor (or an agent in History / Archived) watching one room (spec 001 §2 "Chat room
// viewer", §4 "Room viewer and scrolling": the viewer polls every 5 s until the chat ends; §9 "Room poll 5 s").
// loading → watching (next poll in 5 s) → loading … until a load says the room ended → ended (no more polls; the
// toolbar's refresh still loads once). A failed load retries on the same 5 s beat. The data itself lives in the
// query cache: `load` refetches it and answers whether the room has ended.

export const VIEWER_POLL_MS = 5000

export type ViewerLoad = { ended: boolean }
export type ChatViewerInput = { stepId: number }
export type ChatViewerContext = { stepId: number; loads: number }
export type ChatViewerEvent = { type: 'REFRESH' }

export const chatViewerMachine = setup({
  types: {
    context: {} as ChatViewerContext,
    events: {} as ChatViewerEvent,
    input: {} as ChatViewerInput,
  },
  actors: {
    load: missingPromise<ViewerLoad, { stepId: number }>('chatViewer', 'load'),
  },
  delays: { poll: VIEWER_POLL_MS },
}).createMachine({
  id: 'chatViewer',
  context: ({ input }) => ({ stepId: input.stepId, loads: 0 }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ stepId: context.stepId }),
        onDone: [
          { guard: ({ event }) => event.output.ended, target: 'ended', actions: assign({ loads: ({ context }) => context.loads + 1 }) },
          { target: 'watching', actions: assign({ loads: ({ context }) => context.loads + 1 }) },
        ],
        onError: 'failed',
      },
    },
    watching: {
      after: { poll: 'loading' },
      on: { REFRESH: 'loading' },
    },
    failed: {
      after: { poll: 'loading' },
      on: { REFRESH: 'loading' },
    },
    // The chat ended: the conversation no longer changes, the poll stops.
    ended: {
      on: { REFRESH: 'loading' },
    },
  },
})
