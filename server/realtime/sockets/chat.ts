import { CHAT_CLIENT_MESSAGES, CHAT_SOCKET_PATH, MESSAGES_PAGE, SYNC_OVERLAP, SYNC_PAGE } from '../../../contract/realtime/chat-socket.ts'
import type { ChatClientMessage, ChatServerMessage } from '../../../contract/realtime/chat-socket.ts'
import type { ChatRoom } from '../../../contract/api/chat.ts'
import { message } from '../../../contract/messages.ts'
import type { MessageKey } from '../../../contract/messages.ts'
import { CHAT_CHANNEL, publishChatEvent } from '../../chat/events.ts'
import { wakeOutbox } from '../../chat/outbox.ts'
import type { ChatEvent } from '../../chat/types.ts'
import { answerRoom, declineRoom } from '../../routes/chat/engine.ts'
import { consoleRooms, findRoom, highestRevision, markRead, messagesByIds, messagesPage, messagesSince, unreadCount } from '../../routes/chat/queries.ts'
import type { Viewer } from '../../routes/chat/queries.ts'
import { serializeMessageRows, serializeRoomRows } from '../../routes/chat/serialize-rows.ts'
import type { Connection } from '../connections.ts'
import { defineSocket } from '../definition.ts'

// The chat socket /ws/chat/ (spec 001 §7 "Chat socket"; frames in contract/realtime/chat-socket.ts). The host
// (../host.ts) authenticates the upgrade (session cookie, Authorization: Token or the token subprotocol), refuses a
// foreign Origin, limits frames and ends sockets whose session ended. This file answers the client's frames and
// forwards the chat core's events: the core publishes each change on the bus (CHAT_CHANNEL) with the serialized row
// and the users who must hear it; every instance hands it to the sockets of those users it holds, and to the
// supervisors watching the room here (who watches what is each instance's own state: the core need not know).
//
// Event → frame: room → `chat` (or `end` once ended); offer → `chat` ringing; message → `message`; status →
// `messageStatus`; withdrawn no_answer → `noAnswer`, other withdrawals and removed → `removeChat`; typing → `typing`.

const send = (connection: Connection, frame: ChatServerMessage) => connection.sendRaw(JSON.stringify(frame))

const viewerOf = (connection: Connection): Viewer => ({ siteId: connection.siteId, userId: connection.userId, supervisor: connection.supervisor })

/** The agent's own rooms only (answer, hangup: acts of the agent the room is offered to, never a supervisor's). */
const ownerOf = (connection: Connection): Viewer => ({ siteId: connection.siteId, userId: connection.userId, supervisor: false })

function errorFrame(connection: Connection, key: MessageKey, request: string, stepId?: number): ChatServerMessage {
  return { action: 'error', detail: message(key, connection.lang), request, ...(stepId !== undefined ? { step_id: stepId } : {}) }
}

export const chatSocket = defineSocket<ChatClientMessage>({
  path: CHAT_SOCKET_PATH,
  clientMessages: CHAT_CLIENT_MESSAGES,
  async open({ deps, log, registry }) {
    const { db, bus } = deps
    /** Room → the connections of this instance whose supervisor watches it. */
    const watchers = new Map<number, Set<Connection>>()
    const watching = new WeakMap<Connection, Set<number>>()

    function roomIdOf(event: ChatEvent): number {
      return 'room' in event ? event.room.id : event.room_id
    }

    function framesOf(event: ChatEvent): { users: ChatServerMessage; watchers: ChatServerMessage | null } {
      switch (event.type) {
        case 'room': {
          const frame: ChatServerMessage =
            event.room.status === 'ended'
              ? { action: 'end', step_id: event.room.id, room: event.room }
              : { action: 'chat', room: event.room, ringing: false, ring_seconds: null }
          return { users: frame, watchers: frame }
        }
        case 'offer':
          return {
            users: { action: 'chat', room: event.room, ringing: true, ring_seconds: event.ring_seconds },
            watchers: { action: 'chat', room: event.room, ringing: false, ring_seconds: null },
          }
        case 'message': {
          const frame: ChatServerMessage = { action: 'message', step_id: event.room_id, message: event.message }
          return { users: frame, watchers: frame }
        }
        case 'status': {
          const frame: ChatServerMessage = { action: 'messageStatus', messages: [event.message] }
          return { users: frame, watchers: frame }
        }
        case 'withdrawn': {
          const frame: ChatServerMessage =
            event.reason === 'no_answer'
              ? { action: 'noAnswer', step_id: event.room_id }
              : { action: 'removeChat', step_id: event.room_id, reason: event.reason }
          // A supervisor's viewer keeps the room: an offer moving on is not the room leaving.
          return { users: frame, watchers: null }
        }
        case 'removed': {
          const frame: ChatServerMessage = { action: 'removeChat', step_id: event.room_id, reason: 'removed' }
          return { users: frame, watchers: frame }
        }
        case 'typing': {
          const frame: ChatServerMessage = { action: 'typing', step_id: event.room_id, from: event.from }
          return { users: frame, watchers: frame }
        }
      }
    }

    function deliver(event: ChatEvent): void {
      const frames = framesOf(event)
      const forUsers = JSON.stringify(frames.users)
      const reached = new Set<Connection>()
      for (const userId of event.users) {
        for (const connection of registry.ofUser(event.site_id, userId)) {
          reached.add(connection)
          connection.sendRaw(forUsers)
        }
      }
      const watchingHere = watchers.get(roomIdOf(event))
      if (!watchingHere || !frames.watchers) return
      const forWatchers = JSON.stringify(frames.watchers)
      for (const connection of watchingHere) {
        if (connection.siteId === event.site_id && !reached.has(connection)) connection.sendRaw(forWatchers)
      }
    }

    const unsubscribe = await bus.subscribe(CHAT_CHANNEL, (payload) => {
      try {
        deliver(payload as ChatEvent)
      } catch (err) {
        log.warn({ err }, 'chat event could not be delivered')
      }
    })

    function unwatch(connection: Connection, roomId: number): void {
      watching.get(connection)?.delete(roomId)
      const set = watchers.get(roomId)
      if (!set) return
      set.delete(connection)
      if (set.size === 0) watchers.delete(roomId)
    }

    async function roomFrame(roomId: number, viewer: Viewer): Promise<ChatRoom | null> {
      const row = await findRoom(db, viewer, roomId)
      if (!row) return null
      const [room] = await serializeRoomRows(db, [row])
      return room ?? null
    }

    return {
      close: async () => {
        await unsubscribe()
      },
      closed: (connection) => {
        for (const roomId of watching.get(connection) ?? []) unwatch(connection, roomId)
        watching.delete(connection)
      },
      async dispatch(connection, frame) {
        switch (frame.action) {
          case 'ping':
            return send(connection, { action: 'pong' })
          case 'server_pong':
            return
          case 'check_rooms': {
            const rows = await consoleRooms(db, connection.siteId, connection.userId)
            const [rooms, cursor] = await Promise.all([serializeRoomRows(db, rows), highestRevision(db, rows)])
            return send(connection, { action: 'chats', rooms, cursor })
          }
          case 'answer': {
            const row = await findRoom(db, ownerOf(connection), frame.step_id)
            let answered = false
            if (row?.state === 'offered') {
              answered = (await answerRoom(deps, { siteId: connection.siteId, userId: connection.userId }, row.id)).ok
            } else if (row?.state === 'active') {
              answered = true // a second tab, or a retry: already theirs
            }
            if (!answered) return send(connection, errorFrame(connection, 'chatAnswerFailed', 'answer', frame.step_id))
            const room = await roomFrame(frame.step_id, ownerOf(connection))
            if (room) send(connection, { action: 'chat', room, ringing: false, ring_seconds: null })
            return
          }
          case 'hangup': {
            const row = await findRoom(db, ownerOf(connection), frame.step_id)
            if (!row) return send(connection, errorFrame(connection, 'notFound', 'hangup', frame.step_id))
            if (row.state === 'active') return send(connection, errorFrame(connection, 'chatHangupAnswered', 'hangup', frame.step_id))
            if (row.state === 'offered') {
              const declined = await declineRoom(deps, { siteId: connection.siteId, userId: connection.userId }, row.id)
              if (!declined.ok) return send(connection, errorFrame(connection, declined.key, 'hangup', row.id))
              return send(connection, { action: 'removeChat', step_id: row.id, reason: 'declined' })
            }
            return send(connection, { action: 'removeChat', step_id: row.id, reason: row.state === 'ended' ? 'ended' : 'removed' })
          }
          case 'read_message': {
            const viewer = viewerOf(connection)
            const row = await findRoom(db, viewer, frame.step_id)
            if (!row) return send(connection, errorFrame(connection, 'notFound', 'read_message', frame.step_id))
            const changed = await markRead(db, row.id, { ids: frame.ids, upTo: frame.up_to })
            if (changed.length) wakeOutbox(deps)
            const room = await roomFrame(row.id, viewer)
            if (!room) return
            if (changed.length === 0) return send(connection, { action: 'chat', room, ringing: false, ring_seconds: null })
            // Every tab of the agent (and the reader's) hears the new unread count, on every instance; each message read
            // is a status change too (the website visitor sees it read: server/channels/webchat/).
            const users = [...new Set([connection.userId, ...(row.userId !== null ? [row.userId] : [])])]
            for (const read of await serializeMessageRows(db, changed, new Map([[row.id, row]]))) {
              await publishChatEvent(bus, { type: 'status', site_id: connection.siteId, users, room_id: row.id, message: read })
            }
            await publishChatEvent(bus, { type: 'room', site_id: connection.siteId, users, room })
            return
          }
          case 'get_message_status': {
            const rows = await messagesByIds(db, viewerOf(connection), frame.ids)
            return send(connection, { action: 'messageStatus', messages: await serializeMessageRows(db, rows) })
          }
          case 'get_messages': {
            const row = await findRoom(db, viewerOf(connection), frame.step_id)
            if (!row) return send(connection, errorFrame(connection, 'notFound', 'get_messages', frame.step_id))
            const page = await messagesPage(db, row.id, { before: frame.before, after: frame.after, limit: frame.limit ?? MESSAGES_PAGE.default })
            const messages = await serializeMessageRows(db, page.rows, new Map([[row.id, row]]))
            return send(connection, { action: 'messages', step_id: row.id, messages, has_more: page.hasMore })
          }
          case 'count_unread_all_messages':
            return send(connection, { action: 'unreadAllMessages', count: await unreadCount(db, connection.siteId, connection.userId) })
          case 'sync': {
            const own = await consoleRooms(db, connection.siteId, connection.userId)
            const watched = [...(watching.get(connection) ?? [])].filter((id) => !own.some((r) => r.id === id))
            const extra = []
            for (const id of watched) {
              const row = await findRoom(db, viewerOf(connection), id)
              if (row) extra.push(row)
            }
            const all = [...own, ...extra]
            const from = Math.max(0, frame.cursor - SYNC_OVERLAP)
            const changed = all.filter((r) => r.revision > from)
            const since = await messagesSince(
              db,
              all.map((r) => r.id),
              from,
              SYNC_PAGE,
            )
            const roomsById = new Map(all.map((r) => [r.id, r]))
            const [rooms, messages] = await Promise.all([serializeRoomRows(db, changed), serializeMessageRows(db, since.rows, roomsById)])
            const lastMessage = since.rows.at(-1)?.revision ?? 0
            const cursor = since.hasMore ? lastMessage : Math.max(frame.cursor, lastMessage, ...changed.map((r) => r.revision))
            return send(connection, {
              action: 'syncMessages',
              rooms,
              messages,
              room_ids: all.map((r) => r.id),
              cursor,
              has_more: since.hasMore,
            })
          }
          case 'typing': {
            // The agent types in a room of theirs: the customer's widget shows it (visitors only; WhatsApp has none).
            const row = await findRoom(db, ownerOf(connection), frame.step_id)
            if (!row || row.state !== 'active') return
            await publishChatEvent(bus, { type: 'typing', site_id: connection.siteId, users: [], room_id: row.id, from: 'agent' })
            return
          }
          case 'watch': {
            if (!connection.supervisor) return send(connection, errorFrame(connection, 'permissionDenied', 'watch', frame.step_id))
            const row = await findRoom(db, viewerOf(connection), frame.step_id)
            if (!row) return send(connection, errorFrame(connection, 'notFound', 'watch', frame.step_id))
            let set = watchers.get(row.id)
            if (!set) watchers.set(row.id, (set = new Set()))
            set.add(connection)
            let mine = watching.get(connection)
            if (!mine) watching.set(connection, (mine = new Set()))
            mine.add(row.id)
            const [room] = await serializeRoomRows(db, [row])
            const page = await messagesPage(db, row.id, { limit: MESSAGES_PAGE.default })
            if (room) send(connection, { action: 'chat', room, ringing: false, ring_seconds: null })
            send(connection, {
              action: 'messages',
              step_id: row.id,
              messages: await serializeMessageRows(db, page.rows, new Map([[row.id, row]])),
              has_more: page.hasMore,
            })
            return
          }
          case 'unwatch':
            unwatch(connection, frame.step_id)
            return send(connection, { action: 'removeChat', step_id: frame.step_id, reason: 'unwatched' })
          default:
            frame satisfies never
        }
      },
    }
  },
})
