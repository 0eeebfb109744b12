import type { Bus } from '../bus/bus.ts'
import type { AppDeps } from '../deps.ts'
import type { ChatEvent } from './types.ts'

// What the core tells the chat sockets (README.md): every event goes on one bus channel, heard by each instance,
// with the users who must hear it, so no socket reads the database to forward it.

export const CHAT_CHANNEL = 'chat:events'

export async function publishChatEvent(bus: Bus, event: ChatEvent): Promise<void> {
  await bus.publish(CHAT_CHANNEL, event)
}

/** The part of a room its audience depends on. */
export type AudienceRoom = { id: number; siteId: number; userId: number | null }

/** More listeners of a room (supervisors watching it: the chat socket registers one). */
export type AudienceHook = (deps: AppDeps, room: AudienceRoom) => number[] | Promise<number[]>

const hooks = new Set<AudienceHook>()

/** Adds listeners to every room's audience; answers a function that removes the hook. */
export function registerAudienceHook(hook: AudienceHook): () => void {
  hooks.add(hook)
  return () => hooks.delete(hook)
}

/** Who hears a room's changes: its agent (or the agent it is offered to), plus whatever the hooks add. */
export async function roomAudience(deps: AppDeps, room: AudienceRoom): Promise<number[]> {
  const users = new Set<number>()
  if (room.userId !== null) users.add(room.userId)
  for (const hook of hooks) for (const user of await hook(deps, room)) users.add(user)
  return [...users]
}
