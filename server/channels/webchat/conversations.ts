import type { VisitorMessage, VisitorServerMessage } from '../../../contract/realtime/visitor-socket.ts'
import type { Bus } from '../../bus/bus.ts'
import type { VisitorProfile } from './visitor-token.ts'

// What the webchat channel asks of the chat core, and how the core reaches a visitor. The channel knows visitors,
// sockets and files; rooms, queues and agents are the core's (server/chat/). Phase 1 runs on the in-memory
// conversations below (one instance, lost on restart) so the widget works end to end before the core exists; phase 2
// replaces them by the core's inbound/outbound without touching the socket or the widget.

/** One visitor of one channel: the identity the core keys a room on (one open room per visitor per channel). */
export type VisitorRef = { siteId: number; channelId: number; visitorId: string }

export type { VisitorProfile } from './visitor-token.ts'

/** A file the visitor uploaded (attachments.ts), by the time a message names it; `url` is relative to the server. */
export type VisitorFile = { id: string; path: string; url: string; name: string; type: VisitorMessage['type']; mime: string; size: number }

/** A visitor's message; `profile` is the pre-chat form the visitor token carries. */
export type VisitorInput = { uid: string; content: string; file: VisitorFile | null; profile: VisitorProfile }

export interface WebchatConversations {
  /** A visitor session was created (the pre-chat form). */
  startSession(ref: VisitorRef, profile: VisitorProfile): Promise<void>
  /** An inbound message; the same uid again (a re-send after a time-out) answers the message already stored. */
  deliverVisitorMessage(ref: VisitorRef, input: VisitorInput): Promise<VisitorMessage>
  /** The conversation after `cursor` (a message id), oldest first; all of it (the open room's) for null. */
  history(ref: VisitorRef, cursor: number | null): Promise<VisitorMessage[]>
  /** The visitor saw the agent's messages up to this id (their status becomes consumed). */
  visitorRead(ref: VisitorRef, upTo: number): Promise<void>
  /** The visitor's socket got these agent messages (their status becomes received). */
  visitorReceived(ref: VisitorRef, messages: { id: number; uid: string }[]): Promise<void>
  visitorTyping(ref: VisitorRef, typing: boolean): Promise<void>
  /** The agent side of an open room: their name, for `agent` on (re)connect; null while nobody answered. */
  currentAgent(ref: VisitorRef): Promise<{ name: string; avatar: string | null } | null>
  /** A file of this visitor's conversation stored outside the visitor's upload folder (an agent's), or null. */
  attachmentPath(ref: VisitorRef, name: string): Promise<string | null>
}

// ---- the core → visitor direction: a frame for every socket of one visitor, wherever it is connected.

export const VISITOR_CHANNEL = 'webchat:visitor'
export type VisitorEnvelope = { channel_id: number; visitor_id: string; frame: VisitorServerMessage }

/** Sends a frame to every open widget of a visitor (every tab, every instance: the bus carries it). */
export async function pushToVisitor(bus: Bus, ref: Pick<VisitorRef, 'channelId' | 'visitorId'>, frame: VisitorServerMessage): Promise<void> {
  const envelope: VisitorEnvelope = { channel_id: ref.channelId, visitor_id: ref.visitorId, frame }
  await bus.publish(VISITOR_CHANNEL, envelope)
}

// ---- phase 1: in memory

type Thread = { messages: VisitorMessage[]; profile: VisitorProfile | null; agent: { name: string; avatar: string | null } | null }

export type MemoryConversations = WebchatConversations & {
  /** What an agent would do through the core (tests and the demo until the core exists). */
  onAgentMessage(ref: VisitorRef, agent: { name: string; avatar?: string | null }, content: string): Promise<VisitorMessage>
  onAgentTyping(ref: VisitorRef, typing: boolean): Promise<void>
  /** The agent read the visitor's messages up to this id. */
  onAgentRead(ref: VisitorRef, upTo: number): Promise<void>
  onEnded(ref: VisitorRef): Promise<void>
  thread(ref: VisitorRef): Thread | undefined
}

export function createMemoryConversations(bus: Bus): MemoryConversations {
  const threads = new Map<string, Thread>()
  let sequence = 0
  const key = (ref: VisitorRef) => `${ref.channelId}:${ref.visitorId}`
  const thread = (ref: VisitorRef): Thread => {
    let found = threads.get(key(ref))
    if (!found) threads.set(key(ref), (found = { messages: [], profile: null, agent: null }))
    return found
  }
  return {
    async startSession(ref, profile) {
      thread(ref).profile = profile
    },
    async deliverVisitorMessage(ref, input) {
      const own = thread(ref)
      const known = own.messages.find((m) => m.uid === input.uid && m.sent_by === 'client')
      if (known) return known
      const stored: VisitorMessage = {
        id: ++sequence,
        uid: input.uid,
        sent_by: 'client',
        type: input.file?.type ?? 'text',
        content: input.content,
        attachment: input.file?.url ?? null,
        attachment_name: input.file?.name ?? null,
        name: input.profile.name || own.profile?.name || null,
        datetime: new Date().toISOString(),
        status: 'sent',
      }
      own.messages.push(stored)
      return stored
    },
    async history(ref, cursor) {
      return (threads.get(key(ref))?.messages ?? []).filter((m) => cursor === null || m.id > cursor)
    },
    async visitorRead() {},
    async visitorReceived() {},
    async attachmentPath() {
      return null
    },
    async visitorTyping() {},
    async currentAgent(ref) {
      return threads.get(key(ref))?.agent ?? null
    },
    async onAgentMessage(ref, agent, content) {
      const own = thread(ref)
      if (own.agent?.name !== agent.name) {
        own.agent = { name: agent.name, avatar: agent.avatar ?? null }
        await pushToVisitor(bus, ref, { action: 'agent', ...own.agent })
      }
      const stored: VisitorMessage = {
        id: ++sequence,
        uid: crypto.randomUUID(),
        sent_by: 'agent',
        type: 'text',
        content,
        attachment: null,
        attachment_name: null,
        name: agent.name,
        datetime: new Date().toISOString(),
        status: 'sent',
      }
      own.messages.push(stored)
      await pushToVisitor(bus, ref, { action: 'message', message: stored })
      return stored
    },
    async onAgentTyping(ref, typing) {
      await pushToVisitor(bus, ref, { action: 'typing', typing })
    },
    async onAgentRead(ref, upTo) {
      const ids: number[] = []
      for (const m of thread(ref).messages) {
        if (m.sent_by === 'client' && m.id <= upTo && m.status !== 'read') {
          m.status = 'read'
          ids.push(m.id)
        }
      }
      if (ids.length) await pushToVisitor(bus, ref, { action: 'status', ids, status: 'read' })
    },
    async onEnded(ref) {
      await pushToVisitor(bus, ref, { action: 'ended' })
    },
    thread: (ref) => threads.get(key(ref)),
  }
}
