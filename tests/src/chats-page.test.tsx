import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import type { ChatMessage, ChatRoom } from '../../contract/api/chat.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { chatLive, EMPTY_CHAT_LIVE } from '../../src/features/chat/chatLive.ts'
import { openApp, serve, setupDom } from './settings/harness.tsx'

// /chats in the real app (spec 001 §2 "Chat workspace", §4 "Chat states"): the empty states, the room's bars by its
// state, and the Chats menu entry's unread badge (spec 000 §2), fed the way the chat socket feeds them.

function room(patch: Partial<ChatRoom>): ChatRoom {
  return {
    id: 7,
    uid: '5b0c7b46-2f4a-4f32-9a55-3d8ff0b4a0aa',
    title: 'Maria Souza',
    phone: '+5511987654321',
    avatar: null,
    datetime: '2026-11-26T12:00:00.000Z',
    end: null,
    finished_at: null,
    status: 'active',
    archived: false,
    channel: { id: 1, description: 'WhatsApp Vendas', type: 'whatsapp' },
    queue: { id: 2, description: 'Vendas' },
    subtitle: '',
    badge_color: '',
    badge_icon: '',
    unread_messages: [],
    last_message: null,
    last_client_message_content: 'Quero um orçamento',
    last_client_response_ts: '2026-11-26T12:30:00.000Z',
    has_expired: false,
    can_agent_send_message: true,
    chat_type: 20,
    user: { id: 1, name: 'Ana' },
    compatibility: { btn_template: true, btn_dial: false, send_attachment: true, emoji: true, send_voice: false, show_message_status: true },
    queue_position: null,
    estimated_wait: null,
    revision: 1,
    ...patch,
  }
}

const clientMessage = (step: number): ChatMessage => ({
  id: 100 + step,
  uid: `5b0c7b46-2f4a-4f32-9a55-3d8ff0b4a${String(100 + step).padStart(3, '0')}`,
  step,
  sent_by: 'client',
  type: 'text',
  content: 'Quero um orçamento',
  attachment: null,
  attachment_name: '',
  name: 'Maria',
  avatar: null,
  datetime: '2026-11-26T12:30:00.000Z',
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
  revision: 2,
})

const ROOMS = [
  room({ id: 7 }),
  room({ id: 8, title: 'Encerrado Silva', end: '2026-11-26T12:40:00.000Z', status: 'ended' }),
  room({ id: 9, title: 'Expirado Lima', has_expired: true }),
  room({ id: 10, title: 'Aguardando Reis', can_agent_send_message: false, last_client_response_ts: null, chat_type: 10, unread_messages: [1, 2, 3] }),
]

beforeAll(setupDom)
beforeEach(() => chatLive.set(EMPTY_CHAT_LIVE))
afterEach(cleanup)

describe('/chats', () => {
  it("says 'Todas as mensagens foram lidas' without rooms, 'Selecione um chat' with rooms, and shows each room's bar", async () => {
    serve([PERMISSIONS.viewChat, PERMISSIONS.viewDashboard])
    await openApp('/chats')
    expect((await screen.findByTestId('chats-empty')).textContent).toBe('Todas as mensagens foram lidas')

    act(() => chatLive.set({ ...EMPTY_CHAT_LIVE, rooms: Object.fromEntries(ROOMS.map((row) => [row.id, row])), messages: { 7: [clientMessage(7)] } }))
    expect((await screen.findByTestId('chats-empty')).textContent).toBe('Selecione um chat')
    // The menu's Chats entry counts the unread messages.
    const entry = document.querySelector<HTMLElement>('[data-menu="chats"]')!
    expect(within(entry).getByText('3')).toBeTruthy()

    const open = async (id: number) => {
      fireEvent.click(screen.getAllByTestId('room-row').find((row) => row.getAttribute('data-room-id') === String(id))!)
      return screen.findByTestId('room-pane')
    }
    await open(7)
    expect(screen.getByTestId('message-input')).toBeTruthy()
    expect(screen.getByTestId('send-template')).toBeTruthy()
    expect(screen.queryByTestId('call-room')).toBeNull()
    fireEvent.click(screen.getByTestId('close-room'))
    expect((await screen.findByTestId('confirm-dialog')).textContent).toContain('Você tem certeza que deseja encerrar?')
    fireEvent.click(screen.getByTestId('confirm-no'))

    await open(8)
    expect((await screen.findByTestId('ended-bar')).textContent).toContain('Este chat foi encerrado')
    await open(9)
    expect((await screen.findByTestId('expired-template')).textContent).toBe('Chat expirado envie um template para retornar o contato')
    await open(10)
    expect((await screen.findByTestId('waiting-bar')).textContent).toBe('Aguardando resposta do template pelo cliente')
  })
})
