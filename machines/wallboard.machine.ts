import { assign, setup } from 'xstate'
import type { WallboardDelta, WallboardSnapshot } from '../contract/realtime/wallboard.ts'
import type { QueueCallers } from '../contract/realtime/queue-callers.ts'
import { missingAction } from './effects.ts'
import type { SocketMessage } from './types.ts'

// The supervisor wallboard's subscription (issue 19; spec 000 §2 /dashboards, §6 sites.view_dashboard_supervisor) on
// the service socket, frames in contract/realtime/wallboard.ts. The page says WATCH while it is shown and UNWATCH when
// it leaves; the socket's state arrives as CONNECTED / DISCONNECTED. While watched and connected the machine
// subscribes, naming the feed and revision it last applied: the server answers the deltas it missed or a snapshot.
// A delta applies only on the revision it names (`base`); one that does not fits means frames were lost, so the
// machine subscribes again from scratch. The data itself is server state: `applySnapshot` / `applyDelta` hand it to
// the views' store; the machine keeps only the feed and revision.

export const WALLBOARD_RETRY_MS = 10_000

export type WallboardEvent =
  | { type: 'WATCH' }
  | { type: 'UNWATCH' }
  | { type: 'CONNECTED' }
  | { type: 'DISCONNECTED' }
  | { type: 'SNAPSHOT'; frame: WallboardSnapshot }
  | { type: 'DELTA'; frame: WallboardDelta }
  /** The callers waiting in telephony queues (the whole site's list, after each change). */
  | { type: 'CALLERS'; frame: QueueCallers }
  /** The server refused the subscription (no sites.view_dashboard_supervisor). */
  | { type: 'REFUSED' }

export type WallboardContext = {
  connected: boolean
  feed: string | null
  revision: number | null
}

export const wallboardMachine = setup({
  types: { context: {} as WallboardContext, events: {} as WallboardEvent },
  actions: {
    sendSocket: missingAction<SocketMessage>('wallboard', 'sendSocket'),
    /** The views' store takes the whole site (src/features/dashboards/wallboardStore.ts). */
    applySnapshot: missingAction<WallboardSnapshot>('wallboard', 'applySnapshot'),
    applyDelta: missingAction<WallboardDelta>('wallboard', 'applyDelta'),
    applyCallers: missingAction<QueueCallers>('wallboard', 'applyCallers'),
    /** The store marks its data stale (the socket is down) or clears it (nobody watches). */
    markStale: missingAction('wallboard', 'markStale'),
    connected: assign({ connected: true }),
    disconnected: assign({ connected: false }),
    remember: assign(({ event }) => {
      const frame = (event as { frame: { feed: string; revision: number } }).frame
      return { feed: frame.feed, revision: frame.revision }
    }),
    forget: assign({ feed: null, revision: null }),
  },
  guards: {
    isConnected: ({ context }) => context.connected,
    fits: ({ context, event }) => event.type === 'DELTA' && event.frame.feed === context.feed && event.frame.base === context.revision,
  },
}).createMachine({
  id: 'wallboard',
  context: { connected: false, feed: null, revision: null },
  initial: 'idle',
  on: {
    CONNECTED: { actions: 'connected' },
    DISCONNECTED: { actions: 'disconnected' },
  },
  states: {
    idle: {
      on: {
        WATCH: [{ guard: 'isConnected', target: 'watching.subscribing' }, { target: 'watching.offline' }],
      },
    },
    watching: {
      initial: 'offline',
      exit: ['forget', { type: 'markStale' }],
      on: {
        UNWATCH: {
          target: 'idle',
          actions: [{ type: 'sendSocket', params: () => ({ action: 'wallboard_unsubscribe' }) }],
        },
        DISCONNECTED: { target: '.offline', actions: ['disconnected', { type: 'markStale' }] },
        REFUSED: '.refused',
        // Sent to every supervisor's socket whether subscribed or not; shown while watched.
        CALLERS: { actions: { type: 'applyCallers', params: ({ event }) => event.frame } },
      },
      states: {
        offline: {
          on: { CONNECTED: { target: 'subscribing', actions: 'connected' } },
        },
        subscribing: {
          entry: { type: 'sendSocket', params: ({ context }) => ({ action: 'wallboard_subscribe', feed: context.feed, revision: context.revision }) },
          // No answer (a frame lost on a socket that stayed open): ask again.
          after: { [WALLBOARD_RETRY_MS]: { target: 'subscribing', reenter: true } },
          on: {
            SNAPSHOT: { target: 'live', actions: [{ type: 'applySnapshot', params: ({ event }) => event.frame }, 'remember'] },
            DELTA: [
              { guard: 'fits', target: 'live', actions: [{ type: 'applyDelta', params: ({ event }) => event.frame }, 'remember'] },
              { target: 'subscribing', reenter: true, actions: 'forget' },
            ],
          },
        },
        live: {
          on: {
            SNAPSHOT: { actions: [{ type: 'applySnapshot', params: ({ event }) => event.frame }, 'remember'] },
            DELTA: [
              { guard: 'fits', actions: [{ type: 'applyDelta', params: ({ event }) => event.frame }, 'remember'] },
              // A gap: something was lost. Start again from a snapshot.
              { target: 'subscribing', actions: 'forget' },
            ],
          },
        },
        refused: {},
      },
    },
  },
})
