import type { ChatMessage, SendMessageBody, TransferBody } from '../../../contract/api/chat.ts'
import type { AppDeps } from '../../deps.ts'

// The writes the chat socket and the chat calls ask of the chat core and the ACD (server/chat/README.md's table).
// One seam, so the socket and the routes name the engine in one place: each function is the core's or the ACD's
// named function once their branches are merged; until then it answers `EngineNotReady` (the route answers 503, the
// socket an error frame) and the routes' reads, validation, permissions and site scoping work on their own.

export class EngineNotReady extends Error {
  constructor(what: string) {
    super(`${what}: the chat engine does not provide it yet`)
  }
}

/** Who acts, in their site. */
export type Actor = { siteId: number; userId: number }

/** The ACD's answerOffer: the room offered to the agent becomes theirs; false when it is no longer offered to them. */
export async function answerRoom(_deps: AppDeps, _actor: Actor, _roomId: number): Promise<boolean> {
  throw new EngineNotReady('answerOffer (server/chat/acd/queue.ts)')
}

/** The ACD's declineOffer: the agent refuses the room offered to them; it goes to the next agent. */
export async function declineRoom(_deps: AppDeps, _actor: Actor, _roomId: number): Promise<boolean> {
  throw new EngineNotReady('declineOffer (server/chat/acd/queue.ts)')
}

/** The ACD's transferRoom: to an agent of the site or to a chat queue. */
export async function transferRoomTo(_deps: AppDeps, _actor: Actor, _roomId: number, _to: TransferBody): Promise<boolean> {
  throw new EngineNotReady('transferRoom (server/chat/acd/queue.ts)')
}

/** The core's sendAgentMessage: the message and its outbox row in one transaction. */
export async function sendMessage(_deps: AppDeps, _actor: Actor, _roomId: number, _body: SendMessageBody): Promise<ChatMessage> {
  throw new EngineNotReady('sendAgentMessage (server/chat/outbound.ts)')
}

/** The core's resendMessage: a failed agent message back to the outbox. */
export async function resendMessage(_deps: AppDeps, _actor: Actor, _roomId: number, _messageId: number): Promise<ChatMessage> {
  throw new EngineNotReady('resendMessage (server/chat/outbound.ts)')
}

/** The core's closeRoom: the agent ends the conversation. */
export async function closeRoom(_deps: AppDeps, _actor: Actor, _roomId: number): Promise<void> {
  throw new EngineNotReady('closeRoom (server/chat/lifecycle.ts)')
}

/** The core's unarchiveRoom. */
export async function unarchiveRoom(_deps: AppDeps, _actor: Actor, _roomId: number): Promise<void> {
  throw new EngineNotReady('unarchiveRoom (server/chat/lifecycle.ts)')
}
