import { describe, expect, it } from 'vitest'
import type { ChatMessage, ChatRoom } from '../../contract/api/chat.ts'
import { chatFrameEvents, roomSeed } from '../../src/agent/slices/chatRooms.ts'
import { chatSocketProtocols } from '../../src/agent/slices/chatSocket.ts'
import { applyChatFrame, EMPTY_CHAT_LIVE, withHistory } from '../../src/features/chat/chatLive.ts'

// How chat-socket frames (contract/realtime/chat-socket.ts shapes) reach the room actors and the live data.

const base = { uid: 'u', phone: '+5511', avatar: null, datetime: '2026-11-26T12:00:00.000Z', end: null, finished_at: null, archived: false }
function room(patch: Partial<ChatRoom>): ChatRoom {
  return {
    ...base,
    id: 1,
    title: 'Cliente',
    status: 'offered',
    channel: { id: 1, description: 'WA', type: 'whatsapp' },
    queue: null,
    subtitle: '',
    badge_color: '',
    badge_icon: '',
    unread_messages: [],
    last_message: null,
    last_client_message_content: '',
    last_client_response_ts: null,
    has_expired: false,
    can_agent_send_message: true,
    chat_type: 20,
    user: null,
    compatibility: { btn_template: false, btn_dial: false, send_attachment: true, emoji: true, send_voice: true, show_message_status: true },
    queue_position: null,
    estimated_wait: null,
    revision: 1,
    ...patch,
  } as ChatRoom
}

const chat = {
  socketUrl: 'ws://x/ws/chat/',
  token: null,
  team: { enable_webchat_auto_answer: false, chat_limit_per_user: 2, chat_timeout_to_remove_inactive: 20 },
}

describe('chat frames → room actors', () => {
  it('seeds a room from the team, the pause and the agent’s other open rooms', () => {
    const mine = room({ id: 2, status: 'active', user: { id: 5, name: 'Ana' } })
    const offered = room({ id: 3 })
    expect(roomSeed(offered, [mine, offered], 5, chat, { allowIncoming: false, allowOutgoing: true })).toEqual({
      stepId: 3,
      chatType: 20,
      assignedToMe: false,
      answered: false,
      ended: false,
      autoAnswer: false,
      removeAfterSeconds: 20,
      pause: { allowIncoming: false, allowOutgoing: true },
      openChats: 1,
      chatLimit: 2,
      queueable: true,
    })
    expect(roomSeed(mine, [mine], 5, chat, null)).toMatchObject({ answered: true, assignedToMe: true })
  })

  it('turns frames into room events', () => {
    const rooms = [room({ id: 3 }), room({ id: 4, status: 'active', user: { id: 5, name: 'Ana' } })]
    const seed = (row: ChatRoom) => roomSeed(row, rooms, 5, chat, null)
    expect(chatFrameEvents({ action: 'chat', room: rooms[1], ringing: false, ring_seconds: null }, rooms, seed, 5)).toEqual([
      { type: 'ROOMS_SEEN', rooms: rooms.map(seed) },
      { type: 'ROOM', stepId: 4, event: { type: 'ANSWERED' } },
    ])
    expect(chatFrameEvents({ action: 'noAnswer', step_id: 3 }, rooms, seed, 5)).toEqual([{ type: 'ROOM', stepId: 3, event: { type: 'DROPPED' } }])
    expect(chatFrameEvents({ action: 'removeChat', step_id: 3, reason: 'taken' }, rooms, seed, 5)).toEqual([
      { type: 'ROOM', stepId: 3, event: { type: 'ANSWER_FAILED' } },
    ])
    expect(chatFrameEvents({ action: 'end', step_id: 4, room: rooms[1] }, rooms, seed, 5)).toEqual([{ type: 'ROOM', stepId: 4, event: { type: 'ENDED' } }])
    expect(chatFrameEvents({ action: 'message', step_id: 4, message: {} }, rooms, seed, 5)).toEqual([
      { type: 'ROOM', stepId: 4, event: { type: 'MESSAGES_CHANGED' } },
    ])
    // The customer's message ends their typing; their typing frames (never the agent's own) reach the room.
    expect(chatFrameEvents({ action: 'message', step_id: 4, message: { sent_by: 'client' } }, rooms, seed, 5)).toEqual([
      { type: 'ROOM', stepId: 4, event: { type: 'MESSAGES_CHANGED' } },
      { type: 'ROOM', stepId: 4, event: { type: 'CLIENT_MESSAGE' } },
    ])
    expect(chatFrameEvents({ action: 'typing', step_id: 4, from: 'client' }, rooms, seed, 5)).toEqual([
      { type: 'ROOM', stepId: 4, event: { type: 'CLIENT_TYPING' } },
    ])
    expect(chatFrameEvents({ action: 'typing', step_id: 4, from: 'agent' }, rooms, seed, 5)).toEqual([])
    expect(chatFrameEvents({ action: 'error', request: 'answer', step_id: 3, detail: 'x' }, rooms, seed, 5)).toEqual([
      { type: 'ROOM', stepId: 3, event: { type: 'ANSWER_FAILED' } },
    ])
  })

  it('a sync keeps exactly the server’s rooms; removeChat and unreadAllMessages apply', () => {
    let state = applyChatFrame(EMPTY_CHAT_LIVE, { action: 'chats', rooms: [room({ id: 3 }), room({ id: 4 })], cursor: 9 })
    expect(Object.keys(state.rooms)).toEqual(['3', '4'])
    state = applyChatFrame(state, { action: 'syncMessages', rooms: [room({ id: 5 })], messages: [], room_ids: [4, 5], cursor: 12, has_more: false })
    expect(Object.keys(state.rooms)).toEqual(['4', '5'])
    state = applyChatFrame(state, { action: 'removeChat', step_id: 4, reason: 'transferred' })
    expect(Object.keys(state.rooms)).toEqual(['5'])
    expect(applyChatFrame(state, { action: 'unreadAllMessages', count: 7 }).unreadTotal).toBe(7)
  })

  it('sends the token as a subprotocol only with a token session', () => {
    expect(chatSocketProtocols('abc')).toEqual(['token', 'abc'])
    expect(chatSocketProtocols(null)).toEqual([])
  })

  it('a transferred room holds only the messages after the transfer: its first page adds the earlier ones, never older copies', () => {
    const message = (id: number, patch: Partial<ChatMessage> = {}): ChatMessage => ({
      id,
      uid: `uid-${id}`,
      step: 6,
      sent_by: 'client',
      type: 'text',
      content: `m${id}`,
      attachment: null,
      attachment_name: '',
      name: '',
      avatar: null,
      datetime: `2026-11-26T12:0${id}:00.000Z`,
      status: null,
      visible: true,
      visible_agent: true,
      read: true,
      is_reply: false,
      replied_message: null,
      can_reply: true,
      error: null,
      location: null,
      contacts: [],
      template_type: null,
      template: null,
      user: null,
      revision: id,
      ...patch,
    })
    // Live: the transfer's system line and the agent's message, already received by the customer.
    let state = applyChatFrame(EMPTY_CHAT_LIVE, { action: 'chats', rooms: [room({ id: 6, status: 'active' })] })
    state = applyChatFrame(state, { action: 'message', message: message(3, { sent_by: 'system', content: 'Conversa transferida' }) })
    state = applyChatFrame(state, { action: 'message', message: message(4, { sent_by: 'agent', status: 'received' }) })
    // The first page (an older copy of message 4, still 'accepted'): 1 and 2 are added, 4 keeps what the socket said.
    state = withHistory(state, 6, [message(1), message(2), message(3), message(4, { sent_by: 'agent', status: 'accepted' })])
    expect(state.messages[6]!.map((m) => m.id)).toEqual([1, 2, 3, 4])
    expect(state.messages[6]!.at(-1)!.status).toBe('received')
    // Nothing new: the same state object.
    expect(withHistory(state, 6, [message(1)])).toBe(state)
  })
})
