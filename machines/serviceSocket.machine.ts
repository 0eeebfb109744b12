import { setup, assign, sendTo, enqueueActions, stateIn } from 'xstate'
import * as v from 'valibot'
import { SERVER_ACTIONS, SERVER_MESSAGES } from '../contract/realtime/service-socket.ts'
import type { ServerAction } from '../contract/realtime/service-socket.ts'
import { missingAction, missingCallback } from './effects.ts'
import type { Notice, SocketMessage } from './types.ts'

// Service socket — the status feed on /ws/business/: spec 000 §4 "Logout" and §7 "Websocket (status feed)", spec 001
// §4 "Service ownership" (realtime states) and §7 "Shared service socket", timers in both §9.
// `connection` region: connecting → connected (login on open, ping every 5 s, get_pauses and get_activities every
// 5 s while this tab serves) → disconnected, which reconnects after 1 s, 2 s, 4 s … capped at 30 s (reset by a
// successful open), asks the caller to re-send its reports on every open and to re-sync after a reconnect. Received
// actions of the contract are forwarded but serverPing (answered with server_pong), pong and logout; unknown actions
// are ignored. `remoteLogout` region: a logout command shows a notice and logs out after 15 s, postponed while the
// agent has calls.
// The WebSocket itself is the `connection` callback actor the caller provides (one per attempt): it sends
// SOCKET_OPEN / SOCKET_MESSAGE (parsed JSON) / SOCKET_CLOSED and sends every { type: 'send', message } it receives.

export const PING_INTERVAL_MS = 5000
export const RECONNECT_FIRST_MS = 1000
export const RECONNECT_MAX_MS = 30_000
export const REMOTE_LOGOUT_DELAY_MS = 15_000
export const REMOTE_LOGOUT_NOTICE = 'Comando recebido, você será deslogado em 15 segundos'

/** Server actions this machine acts on itself: serverPing is answered, pong ends nothing, logout counts down. */
export const SOCKET_OWN_ACTIONS = ['serverPing', 'pong', 'logout'] as const satisfies readonly ServerAction[]

/**
 * Received actions handed to the caller (`forward`): every other action of the contract (contract/realtime), so the
 * contract, this list and the caller's table (src/agent/realtime.ts, one handler per action) cannot disagree.
 */
export const FORWARDED_ACTIONS = SERVER_ACTIONS.filter(
  (action): action is Exclude<ServerAction, (typeof SOCKET_OWN_ACTIONS)[number]> => !(SOCKET_OWN_ACTIONS as readonly string[]).includes(action),
)
export type ForwardedAction = (typeof FORWARDED_ACTIONS)[number]

/** What the transport actor receives. */
export type TransportCommand = { type: 'send'; message: SocketMessage }

export type ServiceSocketEvent =
  | { type: 'SOCKET_OPEN' }
  | { type: 'SOCKET_CLOSED' }
  | { type: 'SOCKET_MESSAGE'; message: unknown }
  | { type: 'SERVING_CHANGED'; serving: boolean } // this tab owns the service (from tab ownership)
  | { type: 'CALLS_CHANGED'; hasCalls: boolean } // the webphone has calls (postpones a remote logout)
  | { type: 'PAGE_CHANGED'; page: string } // the SPA navigated
  | { type: 'SEND'; message: SocketMessage } // another actor's message (change_state, start_pause, ...)
  | { type: 'CLOSE' } // signing out: close for good

export type ServiceSocketContext = {
  retryDelay: number
  everConnected: boolean
  serving: boolean
  hasCalls: boolean
  page: string | null
}

export type ServiceSocketInput = { serving?: boolean; hasCalls?: boolean; page?: string | null }

function actionOf(message: unknown): string | null {
  if (!message || typeof message !== 'object') return null
  const action = (message as { action?: unknown }).action
  return typeof action === 'string' ? action : null
}

export function isForwardedAction(action: string | null): action is ForwardedAction {
  return !!action && (FORWARDED_ACTIONS as readonly string[]).includes(action)
}

/** The next back-off wait after one that lasted `delay`: doubled, at most 30 s. */
export function nextRetryDelay(delay: number): number {
  return Math.min(delay * 2, RECONNECT_MAX_MS)
}

export const serviceSocketMachine = setup({
  types: {
    context: {} as ServiceSocketContext,
    events: {} as ServiceSocketEvent,
    input: {} as ServiceSocketInput,
  },
  actors: {
    connection: missingCallback<TransportCommand, void>('serviceSocket', 'connection'),
  },
  actions: {
    /** Writes one message on the open transport. */
    sendSocket: sendTo('connection', (_, message: SocketMessage): TransportCommand => ({ type: 'send', message })),
    /** Hands a received action to the caller (the root actor system routes it to pause, tab ownership, ...). */
    forward: missingAction<SocketMessage>('serviceSocket', 'forward'),
    /** After a reconnect: the caller asks for its server state again (the running pause). */
    resync: missingAction('serviceSocket', 'resync'),
    /**
     * Every open, the first included: the caller's actors report their state again (change_state), since what they
     * reported before the socket opened or while it was down was dropped.
     */
    resend: missingAction('serviceSocket', 'resend'),
    notify: missingAction<Notice>('serviceSocket', 'notify'),
    /** The app's logout: stop the webphone, sign out. */
    logout: missingAction('serviceSocket', 'logout'),
  },
  delays: {
    pingInterval: PING_INTERVAL_MS,
    reconnect: ({ context }) => context.retryDelay,
    remoteLogout: REMOTE_LOGOUT_DELAY_MS,
  },
  guards: {
    isServerPing: ({ event }) => event.type === 'SOCKET_MESSAGE' && v.is(SERVER_MESSAGES.serverPing, event.message),
    // The caller parses each forwarded payload with its schema (and drops a malformed one) where it handles it.
    isForwarded: ({ event }) => event.type === 'SOCKET_MESSAGE' && isForwardedAction(actionOf(event.message)),
    isLogoutCommand: ({ event }) => event.type === 'SOCKET_MESSAGE' && v.is(SERVER_MESSAGES.logout, event.message),
    hasCalls: ({ context }) => context.hasCalls,
    callsEnded: ({ event }) => event.type === 'CALLS_CHANGED' && !event.hasCalls,
  },
}).createMachine({
  id: 'serviceSocket',
  type: 'parallel',
  context: ({ input }) => ({
    retryDelay: RECONNECT_FIRST_MS,
    everConnected: false,
    serving: input.serving ?? false,
    hasCalls: input.hasCalls ?? false,
    page: input.page ?? null,
  }),
  on: {
    SERVING_CHANGED: { actions: assign({ serving: ({ event }) => event.serving }) },
    CALLS_CHANGED: { actions: assign({ hasCalls: ({ event }) => event.hasCalls }) },
    PAGE_CHANGED: { actions: assign({ page: ({ event }) => event.page }) },
  },
  states: {
    connection: {
      initial: 'socket',
      on: { CLOSE: '.closed' },
      states: {
        // One transport actor per attempt, alive while connecting and connected.
        socket: {
          invoke: { id: 'connection', src: 'connection' },
          on: { SOCKET_CLOSED: 'disconnected' },
          initial: 'connecting',
          states: {
            connecting: {
              on: {
                SOCKET_OPEN: {
                  target: 'connected',
                  actions: [
                    { type: 'sendSocket', params: { action: 'login' } },
                    enqueueActions(({ context, enqueue }) => {
                      if (context.page) enqueue({ type: 'sendSocket', params: { action: 'change_page', page: context.page } })
                      if (context.serving) {
                        enqueue({ type: 'sendSocket', params: { action: 'get_pauses' } })
                        enqueue({ type: 'sendSocket', params: { action: 'get_activities' } })
                      }
                      if (context.everConnected) enqueue('resync')
                      enqueue.assign({ retryDelay: RECONNECT_FIRST_MS, everConnected: true })
                      enqueue('resend')
                    }),
                  ],
                },
              },
            },
            connected: {
              after: {
                pingInterval: {
                  target: 'connected',
                  reenter: true,
                  actions: [
                    { type: 'sendSocket', params: { action: 'ping' } },
                    enqueueActions(({ context, enqueue }) => {
                      if (!context.serving) return
                      enqueue({ type: 'sendSocket', params: { action: 'get_pauses' } })
                      enqueue({ type: 'sendSocket', params: { action: 'get_activities' } })
                    }),
                  ],
                },
              },
              on: {
                SOCKET_MESSAGE: [
                  { guard: 'isServerPing', actions: { type: 'sendSocket', params: { action: 'server_pong' } } },
                  {
                    guard: 'isForwarded',
                    actions: { type: 'forward', params: ({ event }) => event.message as SocketMessage },
                  },
                  // pong, logout (handled by remoteLogout) and unknown actions: nothing to do here.
                ],
                SEND: { actions: { type: 'sendSocket', params: ({ event }) => event.message } },
                PAGE_CHANGED: {
                  actions: [
                    assign({ page: ({ event }) => event.page }),
                    { type: 'sendSocket', params: ({ event }) => ({ action: 'change_page', page: event.page }) },
                  ],
                },
                SERVING_CHANGED: {
                  actions: [
                    assign({ serving: ({ event }) => event.serving }),
                    enqueueActions(({ event, enqueue }) => {
                      if (!event.serving) return
                      enqueue({ type: 'sendSocket', params: { action: 'get_pauses' } })
                      enqueue({ type: 'sendSocket', params: { action: 'get_activities' } })
                    }),
                  ],
                },
              },
            },
          },
        },
        // Messages sent meanwhile are dropped; the caller re-sends its state when told to re-sync.
        disconnected: {
          after: {
            reconnect: {
              target: 'socket',
              actions: assign({ retryDelay: ({ context }) => nextRetryDelay(context.retryDelay) }),
            },
          },
        },
        closed: { type: 'final' },
      },
    },
    remoteLogout: {
      initial: 'idle',
      states: {
        idle: {
          on: { SOCKET_MESSAGE: { guard: 'isLogoutCommand', target: 'countingDown' } },
        },
        countingDown: {
          entry: { type: 'notify', params: { message: REMOTE_LOGOUT_NOTICE, severity: 'warning' } },
          after: {
            remoteLogout: [{ guard: 'hasCalls', target: 'postponed' }, { target: 'loggingOut' }],
          },
        },
        // Spec 000 §4: never log out under a call; the calls flag is re-checked on every change.
        postponed: {
          on: {
            CALLS_CHANGED: {
              guard: 'callsEnded',
              target: 'loggingOut',
              actions: assign({ hasCalls: false }),
            },
          },
        },
        // The logout event goes out on the socket if it is up, then the app signs out (spec 000 §4 "Logout").
        loggingOut: {
          type: 'final',
          entry: [
            enqueueActions(({ check, enqueue }) => {
              if (check(stateIn({ connection: { socket: 'connected' } }))) enqueue({ type: 'sendSocket', params: { action: 'logout' } })
            }),
            'logout',
          ],
        },
      },
    },
  },
})
