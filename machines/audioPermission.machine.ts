import { assign, setup } from 'xstate'
import { missingAction } from './effects.ts'

// Audio permission — spec 000 §2 Layouts "Audio authorisation dialog", §8 "A browser audio block opens the
// authorisation dialog". Browsers refuse to play audio until the user has interacted with the page (play() rejects with
// NotAllowedError). Every playback of the console (the start-up silence, the webphone's remote audio) reports how it
// went; a refused one opens the dialog, whenever it happens, and its 'Permitir' plays the refused ones again inside
// the click, the gesture the browser waits for. A playback refused even then (the browser's site settings block
// sound) is not asked about again until a playback goes through: the dialog would only come back after every click.

export const AUDIO_DIALOG_TITLE = 'Permitir áudio'
export const AUDIO_ALLOW_LABEL = 'Permitir'

export type AudioPermissionEvent =
  /** The browser refused a play() for want of a user gesture; `retried` when it was the click's own retry. */
  | { type: 'PLAYBACK_BLOCKED'; id: string; retried: boolean }
  | { type: 'PLAYBACK_OK'; id: string }
  /** A refused playback was stopped (its call ended): nothing left to retry for it. */
  | { type: 'PLAYBACK_ENDED'; id: string }
  /** The user clicked 'Permitir'. */
  | { type: 'ALLOW' }

/** What a playback reports (everything but the click). */
export type PlaybackReport = Exclude<AudioPermissionEvent, { type: 'ALLOW' }>

export type AudioPermissionContext = {
  /** Ids of the refused playbacks waiting for the click, in the order they were refused. */
  waiting: string[]
}

export const audioPermissionMachine = setup({
  types: {
    context: {} as AudioPermissionContext,
    events: {} as AudioPermissionEvent,
  },
  actions: {
    /** Plays the refused playbacks again; runs inside the click on 'Permitir', synchronously. */
    retry: missingAction<{ ids: string[] }>('audioPermission', 'retry'),
    remember: assign({
      waiting: ({ context, event }) =>
        event.type === 'PLAYBACK_BLOCKED' && !context.waiting.includes(event.id) ? [...context.waiting, event.id] : context.waiting,
    }),
    forget: assign({ waiting: ({ context, event }) => ('id' in event ? context.waiting.filter((id) => id !== event.id) : context.waiting) }),
  },
  guards: {
    refusedAfterClick: ({ event }) => event.type === 'PLAYBACK_BLOCKED' && event.retried,
  },
}).createMachine({
  id: 'audioPermission',
  context: { waiting: [] },
  on: {
    PLAYBACK_ENDED: { actions: 'forget' },
  },
  initial: 'unknown',
  states: {
    // Nothing has played yet (the start-up probe is on its way).
    unknown: {
      on: {
        PLAYBACK_OK: { target: 'allowed', actions: 'forget' },
        PLAYBACK_BLOCKED: { target: 'blocked', actions: 'remember' },
      },
    },
    allowed: {
      on: {
        PLAYBACK_BLOCKED: [
          { guard: 'refusedAfterClick', target: 'refused', actions: 'remember' },
          { target: 'blocked', actions: 'remember' },
        ],
      },
    },
    // The dialog is open; only 'Permitir' closes it (the click is what the browser needs).
    blocked: {
      meta: { title: AUDIO_DIALOG_TITLE, action: AUDIO_ALLOW_LABEL },
      on: {
        PLAYBACK_BLOCKED: { actions: 'remember' },
        // One playback went through, the others still wait for the click.
        PLAYBACK_OK: { actions: 'forget' },
        ALLOW: {
          target: 'allowed',
          actions: [{ type: 'retry', params: ({ context }) => ({ ids: context.waiting }) }, assign({ waiting: [] })],
        },
      },
    },
    // Refused even inside the click: not asked again until a playback goes through.
    refused: {
      on: {
        PLAYBACK_BLOCKED: { actions: 'remember' },
        PLAYBACK_OK: { target: 'allowed', actions: 'forget' },
      },
    },
  },
})
