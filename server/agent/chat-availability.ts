import type { AppDeps } from '../deps.ts'

// Whatever changes whether an agent may take chats (signing in to or out of the chat channel, a pause starting or
// ending) says so here; the chat ACD (server/chat/acd/) registers the listener that recomputes the agent's webchat
// status and offers waiting rooms. server/agent never imports the chat engine: the chat engine imports this.

export type ChatAvailabilityListener = (deps: AppDeps, who: { siteId: number; userId: number }) => Promise<void>

const listeners = new Set<ChatAvailabilityListener>()

/** Registers a listener (once per function); answers the function that removes it. */
export function onChatAvailability(listener: ChatAvailabilityListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * Called after the change is committed. A listener's failure never fails the agent's request: the ACD's sweep offers
 * waiting rooms again within a second anyway.
 */
export async function chatAvailabilityChanged(deps: AppDeps, who: { siteId: number; userId: number }): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener(deps, who)
    } catch {
      // The sweep (server/chat/acd/sweep.ts) catches up.
    }
  }
}
