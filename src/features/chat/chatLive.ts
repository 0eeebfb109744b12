import type { ChatMessage, ChatRoom, DeliveryStatus } from '../../../contract/api/chat.ts'
import { DELIVERY_STATUSES } from '../../../contract/api/chat.ts'
import { createStore } from '../../app/store.ts'

// The agent's live chat data as the chat socket pushes it (spec 001 §7 "Chat socket": chats, chat, messages, message,
// messageStatus, syncMessages, end, noAnswer): the rooms and the loaded messages of each. Server state, but pushed,
// not fetched: the socket's frames are folded in here (`applyChatFrame`, pure) and the views read it with useStore.
// Process state (ringing, countdowns) is the chat room actors'; this holds data only.

export type ChatLiveState = {
  rooms: Record<number, ChatRoom>
  messages: Record<number, ChatMessage[]>
  /** count_unread_all_messages as the server last answered it. */
  unreadTotal: number
}

export const EMPTY_CHAT_LIVE: ChatLiveState = { rooms: {}, messages: {}, unreadTotal: 0 }

export const chatLive = createStore<ChatLiveState>(EMPTY_CHAT_LIVE)

type Frame = Record<string, unknown> & { action?: unknown }

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)
const isRoom = (value: unknown): value is ChatRoom => isObject(value) && typeof value.id === 'number' && typeof value.title === 'string'
const isMessage = (value: unknown): value is ChatMessage =>
  isObject(value) && typeof value.id === 'number' && typeof value.step === 'number' && 'sent_by' in value

/** The rows a frame carries under `data`, `chats`, `messages`, `results`, `chat`, `message` or `room`. */
function rowsOf(frame: Frame): unknown[] {
  for (const key of ['data', 'rooms', 'chats', 'messages', 'results']) if (Array.isArray(frame[key])) return frame[key] as unknown[]
  for (const key of ['data', 'chat', 'message', 'room']) if (isObject(frame[key])) return [frame[key]]
  return []
}

function stepOf(frame: Frame): number | null {
  for (const key of ['step_id', 'step', 'id']) if (typeof frame[key] === 'number') return frame[key] as number
  const data = frame.data
  if (isObject(data)) for (const key of ['step_id', 'step', 'id']) if (typeof data[key] === 'number') return data[key] as number
  return null
}

/** Delivery never moves back (WHATSAPP.md §A1.5): a late `received` after `consumed` changes nothing; failed is final. */
export function laterStatus(current: DeliveryStatus | null, next: DeliveryStatus | null): DeliveryStatus | null {
  if (!next) return current
  if (!current) return next
  if (current === 'failed') return current
  if (next === 'failed') return current === 'sending' || current === 'accepted' ? next : current
  return DELIVERY_STATUSES.indexOf(next) > DELIVERY_STATUSES.indexOf(current) ? next : current
}

function upsertMessages(list: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const next = [...list]
  for (const message of incoming) {
    const index = next.findIndex((row) => row.id === message.id || (!!message.uid && row.uid === message.uid))
    if (index < 0) next.push(message)
    else next[index] = { ...next[index], ...message, status: laterStatus(next[index].status, message.status) }
  }
  return next.sort(byTime)
}

const byTime = (a: ChatMessage, b: ChatMessage) => a.datetime.localeCompare(b.datetime) || a.id - b.id

/**
 * A room's first page as the server answered it, added to what the socket pushed: only the messages the console does
 * not hold yet (a room transferred to this agent holds just what came after the transfer). The ones it holds came
 * live and are as new or newer, so they stay as they are (a cached page never takes a status or an attachment back).
 */
export function withHistory(state: ChatLiveState, stepId: number, rows: readonly ChatMessage[]): ChatLiveState {
  const list = state.messages[stepId] ?? []
  const missing = rows.filter((message) => message.step === stepId && !list.some((row) => row.id === message.id || (!!message.uid && row.uid === message.uid)))
  if (!missing.length) return state
  return { ...state, messages: { ...state.messages, [stepId]: [...list, ...missing].sort(byTime) } }
}

function withMessages(state: ChatLiveState, incoming: ChatMessage[]): ChatLiveState {
  if (!incoming.length) return state
  const messages = { ...state.messages }
  const rooms = { ...state.rooms }
  const groups = new Map<number, ChatMessage[]>()
  for (const message of incoming) groups.set(message.step, [...(groups.get(message.step) ?? []), message])
  for (const [stepId, group] of groups) {
    messages[stepId] = upsertMessages(messages[stepId] ?? [], group)
    const room = rooms[stepId]
    if (room) {
      const last = messages[stepId].at(-1) ?? null
      const lastClient = [...messages[stepId]].reverse().find((message) => message.sent_by === 'client')
      rooms[stepId] = {
        ...room,
        last_message: last,
        last_client_message_content: lastClient?.content ?? room.last_client_message_content,
        last_client_response_ts: lastClient?.datetime ?? room.last_client_response_ts,
        unread_messages: [...new Set([...room.unread_messages, ...group.filter((m) => m.sent_by === 'client' && !m.read).map((m) => m.id)])],
      }
    }
  }
  return { ...state, rooms, messages }
}

/** Folds one chat-socket frame into the live state; frames it cannot read leave it as it was. */
export function applyChatFrame(state: ChatLiveState, raw: unknown): ChatLiveState {
  if (!isObject(raw)) return state
  const frame = raw as Frame
  switch (frame.action) {
    case 'chats': {
      const rooms: Record<number, ChatRoom> = {}
      for (const row of rowsOf(frame)) if (isRoom(row)) rooms[row.id] = row
      return { ...state, rooms }
    }
    case 'chat': {
      const rows = rowsOf(frame).filter(isRoom)
      if (!rows.length) return state
      const rooms = { ...state.rooms }
      for (const row of rows) rooms[row.id] = { ...rooms[row.id], ...row }
      return { ...state, rooms }
    }
    case 'messages':
    case 'message':
      return withMessages(state, [...rowsOf(frame), ...(isObject(frame.message) ? [frame.message] : [])].filter(isMessage))
    case 'syncMessages': {
      // The rooms and messages changed since the cursor; a room missing from room_ids left the console meanwhile.
      const rooms = { ...state.rooms }
      for (const row of Array.isArray(frame.rooms) ? frame.rooms : []) if (isRoom(row)) rooms[row.id] = { ...rooms[row.id], ...row }
      let next: ChatLiveState = { ...state, rooms }
      if (Array.isArray(frame.room_ids)) {
        const keep = new Set(frame.room_ids as number[])
        for (const id of Object.keys(rooms).map(Number)) if (!keep.has(id)) next = removeRoom(next, id)
      }
      return withMessages(next, (Array.isArray(frame.messages) ? frame.messages : []).filter(isMessage))
    }
    case 'removeChat': {
      const stepId = stepOf(frame)
      return stepId !== null ? removeRoom(state, stepId) : state
    }
    case 'unreadAllMessages': {
      const count = typeof frame.count === 'number' ? frame.count : null
      return count === null ? state : { ...state, unreadTotal: count }
    }
    case 'messageStatus': {
      const full = rowsOf(frame).filter(isMessage)
      if (full.length) return withMessages(state, full)
      const rows = rowsOf(frame).length ? rowsOf(frame) : [frame]
      let next = state
      for (const row of rows) {
        if (!isObject(row)) continue
        const id = typeof row.id === 'number' ? row.id : typeof row.message_id === 'number' ? row.message_id : null
        if (id === null) continue
        for (const [step, list] of Object.entries(next.messages)) {
          const index = list.findIndex((message) => message.id === id)
          if (index < 0) continue
          const message = list[index]
          const updated: ChatMessage = {
            ...message,
            status: laterStatus(message.status, (row.status as DeliveryStatus) ?? null),
            error: (row.error as ChatMessage['error']) ?? message.error,
          }
          next = { ...next, messages: { ...next.messages, [step]: list.map((m, i) => (i === index ? updated : m)) } }
        }
      }
      return next
    }
    case 'end': {
      const stepId = stepOf(frame)
      if (isRoom(frame.room)) return { ...state, rooms: { ...state.rooms, [frame.room.id]: { ...state.rooms[frame.room.id], ...frame.room } } }
      const room = stepId !== null ? state.rooms[stepId] : undefined
      if (!room) return state
      const end = typeof frame.end === 'string' ? frame.end : new Date().toISOString()
      return { ...state, rooms: { ...state.rooms, [room.id]: { ...room, end: room.end ?? end, status: 'ended' } } }
    }
    case 'noAnswer': {
      const stepId = stepOf(frame)
      return stepId !== null ? removeRoom(state, stepId) : state
    }
    case 'unread': {
      const count = typeof frame.count === 'number' ? frame.count : null
      return count === null ? state : { ...state, unreadTotal: count }
    }
    default:
      return state
  }
}

/** A removed room: its messages go too (spec 001 §4 "Removing a chat clears its messages"). */
export function removeRoom(state: ChatLiveState, stepId: number): ChatLiveState {
  if (!state.rooms[stepId] && !state.messages[stepId]) return state
  const { [stepId]: _room, ...rooms } = state.rooms
  const { [stepId]: _messages, ...messages } = state.messages
  return { ...state, rooms, messages }
}

/** Adds the agent's own message (sending) or replaces it with the server's data. */
export function putMessage(state: ChatLiveState, message: ChatMessage): ChatLiveState {
  return withMessages(state, [message])
}

/** Rows of the left column: newest last client response first (spec 001 §2), rooms without one by their opening. */
export function orderRooms(rooms: readonly ChatRoom[]): ChatRoom[] {
  const key = (room: ChatRoom) => room.last_client_response_ts ?? room.datetime
  return [...rooms].sort((a, b) => key(b).localeCompare(key(a)) || b.id - a.id)
}

/** The search of the left column: title, phone or datetime (as shown). */
export function matchesRoom(room: ChatRoom, search: string, shownDate: (iso: string) => string): boolean {
  const needle = search.trim().toLowerCase()
  if (!needle) return true
  const digits = needle.replace(/\D/g, '')
  return (
    room.title.toLowerCase().includes(needle) ||
    (!!digits && room.phone.replace(/\D/g, '').includes(digits)) ||
    shownDate(room.last_client_response_ts ?? room.datetime).includes(needle)
  )
}

/** Unread messages over every room (the menu's Chats badge). */
export function unreadCount(state: ChatLiveState): number {
  const counted = Object.values(state.rooms).reduce((sum, room) => sum + room.unread_messages.length, 0)
  return Math.max(counted, state.unreadTotal)
}
