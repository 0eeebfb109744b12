import { setup } from 'xstate'
import { missingAction } from './effects.ts'
import type { SocketMessage } from './types.ts'

// Tab ownership — spec 000 §4 "Shared service ownership", spec 001 §4 "Service ownership (shared tab)", timers §9.
// Only one browser tab serves calls and chats. Tabs of one browser talk over a BroadcastChannel-like transport; the
// server decides across browsers and tells each connection on the service socket whether it is the service
// (START_SERVICE) or not (SERVICE_ELSEWHERE). A tab that loses the service stops the phone, shows a notice and
// reloads after 3 s; 'Atender aqui' sends service_here and reloads after 100 ms.

export const TAKEN_OVER_RELOAD_MS = 3000
export const SERVICE_HERE_RELOAD_MS = 100

export const OTHER_TAB_NOTICE = 'Webphone esta em execução em outra aba ou janela.'
export const SERVICE_HERE_LABEL = 'Atender aqui'
export const TAKEN_OVER_NOTICE = 'Solicitação de atendimento em outra aba, está será atualizada.'

/** What tabs of one browser post to each other. */
export type TabMessage = { type: 'who_serves' | 'serving' | 'service_here'; tabId: string }

export type TabOwnershipEvent =
  | { type: 'START_SERVICE' } // server: this connection is the service
  | { type: 'SERVICE_ELSEWHERE' } // server: another connection (tab or browser) is the service
  | { type: 'PEER_WHO_SERVES'; tabId: string }
  | { type: 'PEER_SERVING'; tabId: string }
  | { type: 'PEER_SERVICE_HERE'; tabId: string }
  | { type: 'SERVICE_HERE' } // the agent clicked 'Atender aqui'

export type TabOwnershipInput = { tabId: string }

const PEER_EVENTS = { who_serves: 'PEER_WHO_SERVES', serving: 'PEER_SERVING', service_here: 'PEER_SERVICE_HERE' } as const

/** Turns a message from the channel into an event; the tab's own messages and unknown ones give null. */
export function tabMessageToEvent(message: unknown, ownTabId: string): TabOwnershipEvent | null {
  if (!message || typeof message !== 'object') return null
  const { type, tabId } = message as Partial<TabMessage>
  if (typeof tabId !== 'string' || tabId === ownTabId || !type || !(type in PEER_EVENTS)) return null
  return { type: PEER_EVENTS[type], tabId }
}

export const tabOwnershipMachine = setup({
  types: {
    context: {} as { tabId: string },
    events: {} as TabOwnershipEvent,
    input: {} as TabOwnershipInput,
  },
  actions: {
    broadcast: missingAction<TabMessage>('tabOwnership', 'broadcast'),
    sendSocket: missingAction<SocketMessage>('tabOwnership', 'sendSocket'),
    stopPhone: missingAction('tabOwnership', 'stopPhone'),
    reload: missingAction('tabOwnership', 'reload'),
  },
}).createMachine({
  id: 'tabOwnership',
  context: ({ input }) => ({ tabId: input.tabId }),
  initial: 'claiming',
  states: {
    // Asks the other tabs of this browser and waits for the server's verdict.
    claiming: {
      entry: { type: 'broadcast', params: ({ context }) => ({ type: 'who_serves', tabId: context.tabId }) },
      on: {
        START_SERVICE: 'serving',
        SERVICE_ELSEWHERE: 'otherTab',
        PEER_SERVING: 'otherTab',
        PEER_SERVICE_HERE: 'otherTab',
      },
    },
    serving: {
      entry: { type: 'broadcast', params: ({ context }) => ({ type: 'serving', tabId: context.tabId }) },
      on: {
        PEER_WHO_SERVES: {
          actions: { type: 'broadcast', params: ({ context }) => ({ type: 'serving', tabId: context.tabId }) },
        },
        PEER_SERVICE_HERE: 'takenOver',
        SERVICE_ELSEWHERE: 'takenOver',
      },
    },
    otherTab: {
      meta: { notice: OTHER_TAB_NOTICE, action: SERVICE_HERE_LABEL },
      on: {
        SERVICE_HERE: 'reloadingHere',
        // The server promotes this tab, e.g. when the serving tab's socket closed.
        START_SERVICE: 'serving',
      },
    },
    takenOver: {
      meta: { notice: TAKEN_OVER_NOTICE },
      entry: 'stopPhone',
      after: { [TAKEN_OVER_RELOAD_MS]: 'reloading' },
    },
    reloadingHere: {
      entry: [
        { type: 'sendSocket', params: { action: 'service_here' } },
        { type: 'broadcast', params: ({ context }) => ({ type: 'service_here', tabId: context.tabId }) },
      ],
      after: { [SERVICE_HERE_RELOAD_MS]: 'reloading' },
    },
    reloading: { type: 'final', entry: 'reload' },
  },
})
