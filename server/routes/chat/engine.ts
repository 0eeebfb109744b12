import { and, eq } from 'drizzle-orm'
import type { ChatMessage, SendMessageBody, TransferBody } from '../../../contract/api/chat.ts'
import type { Locale } from '../../../contract/locales.ts'
import type { MessageKey } from '../../../contract/messages.ts'
import { answerOffer, declineOffer, transferRoom } from '../../chat/acd/queue.ts'
import { closeRoom as coreCloseRoom, unarchiveRoom as coreUnarchiveRoom } from '../../chat/lifecycle.ts'
import { resendMessage as coreResendMessage, sendAgentMessage } from '../../chat/outbound.ts'
import { chatRoomMessages } from '../../db/schema/index.ts'
import type { RoomRow } from '../../chat/serialize.ts'
import type { AppDeps } from '../../deps.ts'
import { detailError } from '../../http/errors.ts'

// The writes the chat socket and the chat calls ask of the chat core and the ACD (server/chat/README.md's table), in
// one place: the routes and the socket have checked the caller may see the room (queries.ts) before calling here; the
// core and the ACD check again what they own (the room's agent, its state) and answer their own refusals.

/** Who acts, in their site; `supervisor` may act on any room of the site. */
export type Actor = { siteId: number; userId: number; supervisor?: boolean; lang?: Locale }

/** An ACD refusal: its status and the text of contract/messages.ts. */
export type Refusal = { ok: false; status: number; key: MessageKey }

/** The ACD's answerOffer: the room offered to the agent becomes theirs. */
export async function answerRoom(deps: AppDeps, actor: Actor, roomId: number): Promise<{ ok: true } | Refusal> {
  const result = await answerOffer(deps, { siteId: actor.siteId, userId: actor.userId, roomId })
  return result.ok ? { ok: true } : result
}

/** The ACD's declineOffer: the agent refuses the room offered to them; it goes to the next agent. */
export async function declineRoom(deps: AppDeps, actor: Actor, roomId: number): Promise<{ ok: true } | Refusal> {
  const result = await declineOffer(deps, { siteId: actor.siteId, userId: actor.userId, roomId })
  return result.ok ? { ok: true } : result
}

/** The ACD's transferRoom: to an agent of the site or to a chat queue. */
export async function transferRoomTo(deps: AppDeps, actor: Actor, roomId: number, to: TransferBody): Promise<{ ok: true } | Refusal> {
  const result = await transferRoom(deps, { siteId: actor.siteId, byUserId: actor.userId, supervisor: actor.supervisor ?? false, roomId, to })
  return result.ok ? { ok: true } : result
}

/** The core's sendAgentMessage: the message and its outbox row in one transaction. */
export function sendMessage(deps: AppDeps, actor: Actor, roomId: number, body: SendMessageBody): Promise<ChatMessage> {
  return sendAgentMessage(deps, { siteId: actor.siteId, userId: actor.userId, roomId, body, lang: actor.lang })
}

/** The core's resendMessage, for a message of this room only (another room's id is not found). */
export async function resendMessage(deps: AppDeps, actor: Actor, roomId: number, messageId: number): Promise<ChatMessage> {
  const [row] = await deps.db
    .select({ id: chatRoomMessages.id })
    .from(chatRoomMessages)
    .where(and(eq(chatRoomMessages.id, messageId), eq(chatRoomMessages.roomId, roomId), eq(chatRoomMessages.siteId, actor.siteId)))
  if (!row) throw detailError(404, 'notFound', actor.lang ?? 'pt-BR')
  return coreResendMessage(deps, { siteId: actor.siteId, userId: actor.userId, messageId, lang: actor.lang })
}

/** The core's closeRoom: the room's agent ends it, or a supervisor does. */
export async function closeRoom(deps: AppDeps, actor: Actor, roomId: number, roomUserId: number | null): Promise<RoomRow> {
  const bySupervisor = actor.supervisor === true && roomUserId !== actor.userId
  return coreCloseRoom(deps, {
    siteId: actor.siteId,
    roomId,
    ...(bySupervisor ? { by: 'supervisor' as const } : { byUserId: actor.userId }),
    lang: actor.lang,
  })
}

/** The core's unarchiveRoom. */
export async function unarchiveRoom(deps: AppDeps, actor: Actor, roomId: number): Promise<void> {
  await coreUnarchiveRoom(deps, { siteId: actor.siteId, roomId, lang: actor.lang })
}
