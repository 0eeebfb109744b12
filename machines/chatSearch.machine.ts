import { setup, assign } from 'xstate'

// Chat search — the 500 ms debounce of the chat lists' search boxes (spec 001 §7 "search … debounced 500 ms", §9
// "List debounce 500 ms"): typing keeps restarting the wait; 500 ms after the last key the query is committed, and
// the views query the server (TanStack Query) with the committed one. Clearing commits at once.

export const SEARCH_DEBOUNCE_MS = 500

export type ChatSearchContext = { typed: string; committed: string }
export type ChatSearchEvent = { type: 'TYPE'; value: string } | { type: 'CLEAR' }

export const chatSearchMachine = setup({
  types: {
    context: {} as ChatSearchContext,
    events: {} as ChatSearchEvent,
    input: {} as { value?: string },
  },
  delays: { debounce: SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'chatSearch',
  context: ({ input }) => ({ typed: input.value ?? '', committed: input.value ?? '' }),
  initial: 'idle',
  on: {
    TYPE: { target: '.debouncing', reenter: true, actions: assign({ typed: ({ event }) => event.value }) },
    CLEAR: { target: '.idle', actions: assign({ typed: '', committed: '' }) },
  },
  states: {
    idle: {},
    debouncing: {
      after: { debounce: { target: 'idle', actions: assign({ committed: ({ context }) => context.typed.trim() }) } },
    },
  },
})
