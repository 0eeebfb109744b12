import type { ChatMessage, ChatRoom } from '../../../contract/api/chat.ts'
import type { Db } from '../../db/client.ts'
import { serializeMessages, serializeRooms } from '../../chat/serialize.ts'
import type { MessageRow, RoomRow } from '../../chat/serialize.ts'

// The rows of chat_rooms / chat_room_messages in the shapes of contract/api/chat.ts: the chat core's serializer
// (server/chat/serialize.ts), the same one its bus events carry, so a room listed by the socket or a route and the
// same room in an event agree by construction.

export type { MessageRow, RoomRow }

export function serializeRoomRows(db: Db, rows: readonly RoomRow[]): Promise<ChatRoom[]> {
  return serializeRooms({ db }, [...rows])
}

/** `rooms`: rows already at hand, so a page of one room's messages reads its title once. */
export function serializeMessageRows(db: Db, rows: readonly MessageRow[], rooms?: ReadonlyMap<number, Pick<RoomRow, 'id' | 'title'>>): Promise<ChatMessage[]> {
  const only = rooms && rooms.size === 1 ? [...rooms.values()][0] : undefined
  return serializeMessages({ db }, [...rows], only)
}
