import { assign, not, setup } from 'xstate'

// One XState machine per call the media app holds (the same library as the SPA's machines). The machines decide;
// their actions are given by brain.ts (`machine.provide`), which turns them into worker commands and records.

export type MediaEvent =
  | { type: 'PLAYED' }
  | { type: 'DTMF'; digit: string }
  | { type: 'AGENT_FREE' }
  | { type: 'BRIDGED'; leg: string }
  | { type: 'BRIDGE_FAILED'; code: number }
  | { type: 'ENDED' }
  /** The caller's recording stopped (voicemail): `ms` of audio in `file`. */
  | { type: 'RECORDED'; file: string; ms: number }

// ---- a caller waiting in a queue (README.md "Queues hold callers")

export type QueueWaitInput = {
  /** Milliseconds from now until the queue's max wait is over (null: no limit). */
  maxWaitMs: number | null
  /** Periodic announcement every this many ms (null: none). */
  announceEveryMs: number | null
  /** An announcement on entry. */
  hasEntryAnnouncement: boolean
  /** The key that takes a waiting caller out of the queue (to its exit destination); null: none. */
  exitKey?: string | null
}

export const queueWaitMachine = setup({
  types: {
    context: {} as QueueWaitInput,
    input: {} as QueueWaitInput,
    events: {} as MediaEvent,
  },
  actions: {
    playEntry: () => {},
    playMusic: () => {},
    playAnnouncement: () => {},
    offer: () => {},
    bridged: (_, _params: { leg: string }) => {},
    overflow: () => {},
    leave: () => {},
  },
  guards: {
    hasEntryAnnouncement: ({ context }) => context.hasEntryAnnouncement,
    isExitKey: ({ context, event }) => event.type === 'DTMF' && !!context.exitKey && event.digit === context.exitKey,
    limited: ({ context }) => context.maxWaitMs !== null,
    announces: ({ context }) => context.announceEveryMs !== null,
  },
  delays: {
    maxWait: ({ context }) => context.maxWaitMs ?? 2 ** 31 - 1,
    announceEvery: ({ context }) => context.announceEveryMs ?? 2 ** 31 - 1,
  },
}).createMachine({
  id: 'queueWait',
  context: ({ input }) => input,
  initial: 'holding',
  on: { ENDED: '.ended' },
  states: {
    holding: {
      // The max wait counts from entry, through every offer that failed.
      after: { maxWait: { guard: 'limited', target: 'overflow' } },
      initial: 'entry',
      states: {
        entry: {
          always: { guard: not('hasEntryAnnouncement'), target: 'waiting' },
          entry: 'playEntry',
          on: { PLAYED: 'waiting', DTMF: { guard: 'isExitKey', target: '#queueWait.left' } },
        },
        waiting: {
          initial: 'music',
          on: { AGENT_FREE: 'offering', DTMF: { guard: 'isExitKey', target: '#queueWait.left' } },
          states: {
            music: {
              entry: 'playMusic',
              after: { announceEvery: { guard: 'announces', target: 'announcing' } },
            },
            announcing: { entry: 'playAnnouncement', on: { PLAYED: 'music' } },
          },
        },
        offering: {
          entry: 'offer',
          on: {
            BRIDGED: { target: '#queueWait.bridged', actions: { type: 'bridged', params: ({ event }) => ({ leg: event.leg }) } },
            BRIDGE_FAILED: 'waiting',
          },
        },
      },
    },
    bridged: {},
    overflow: { entry: 'overflow' },
    /** The caller pressed the queue's exit key. */
    left: { entry: 'leave' },
    ended: { type: 'final' },
  },
})

// ---- an IVR (ivrbasic): greeting, a key per option, timeout and invalid-key handling with repeats

export type IvrInput = {
  options: readonly string[]
  timeoutMs: number
  repeatCount: number
}
export type IvrContext = IvrInput & { tries: number; chosen: string | null }

export const ivrMachine = setup({
  types: {
    context: {} as IvrContext,
    input: {} as IvrInput,
    events: {} as MediaEvent,
  },
  actions: {
    playGreeting: () => {},
    playTimeout: () => {},
    playInvalid: () => {},
    stopPlaying: () => {},
    goToOption: (_, _params: { digit: string }) => {},
    goToTimeout: () => {},
    countTry: assign({ tries: ({ context }) => context.tries + 1 }),
  },
  guards: {
    isOption: ({ context, event }) => event.type === 'DTMF' && context.options.includes(event.digit),
    triesLeft: ({ context }) => context.tries + 1 < Math.max(1, context.repeatCount),
  },
  delays: { keyTimeout: ({ context }) => context.timeoutMs },
}).createMachine({
  id: 'ivr',
  context: ({ input }) => ({ ...input, tries: 0, chosen: null }),
  initial: 'greeting',
  on: {
    ENDED: '.ended',
    DTMF: [
      {
        guard: 'isOption',
        target: '.chosen',
        actions: ['stopPlaying', { type: 'goToOption', params: ({ event }) => ({ digit: event.type === 'DTMF' ? event.digit : '' }) }],
      },
      { guard: 'triesLeft', target: '.invalid', actions: ['stopPlaying', 'countTry'] },
      { target: '.timedOut', actions: 'stopPlaying' },
    ],
  },
  states: {
    greeting: { entry: 'playGreeting', on: { PLAYED: 'collecting' } },
    collecting: {
      after: {
        keyTimeout: [{ guard: 'triesLeft', target: 'timeoutAudio', actions: 'countTry' }, { target: 'timedOut' }],
      },
    },
    timeoutAudio: { entry: 'playTimeout', on: { PLAYED: 'greeting' } },
    invalid: { entry: 'playInvalid', on: { PLAYED: 'greeting' } },
    chosen: { type: 'final' },
    timedOut: { entry: 'goToTimeout', type: 'final' },
    ended: { type: 'final' },
  },
})

// ---- announce: a sound, then the destination

export const announceMachine = setup({
  types: { events: {} as MediaEvent },
  actions: { playSound: () => {}, goOn: () => {} },
}).createMachine({
  id: 'announce',
  initial: 'playing',
  on: { ENDED: '.ended' },
  states: {
    playing: { entry: 'playSound', on: { PLAYED: 'done' } },
    done: { entry: 'goOn', type: 'final' },
    ended: { type: 'final' },
  },
})
