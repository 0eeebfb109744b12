import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { I18nProvider } from '@lingui/react'
import type { ChatMessage, ChatRoom } from '../../contract/api/chat.ts'
import { activateLocale, i18n } from '../../src/app/i18n.ts'
import { MessageBubble } from '../../src/features/chat/MessageBubble.tsx'
import { MessageInput } from '../../src/features/chat/MessageInput.tsx'
import { parseCoordinates } from '../../src/features/chat/LocationDialog.tsx'
import { RoomList, ROOM_ROW_HEIGHT, shortWhen } from '../../src/features/chat/RoomList.tsx'
import { dayjs } from '../../src/app/dates.ts'
import { hasMoreOf } from '../../src/features/chat/chatApi.ts'
import { applyChatFrame, EMPTY_CHAT_LIVE, laterStatus, orderRooms } from '../../src/features/chat/chatLive.ts'
import { failureText, sendsOnKey } from '../../src/features/chat/chatText.ts'
import { pageBreaks, pdfOptions } from '../../src/features/chat/exportChat.ts'

// The chat workspace's pieces in jsdom (spec 001 §2 "Message bubble", §4 "Message delivery", §5 "Chat" input rules):
// the bubble's ticks, failure and resend, cuts and media; the input's Enter rules; the list's order and empty states.

const wrap = (node: ReactNode) => render(<I18nProvider i18n={i18n}>{node}</I18nProvider>)

function message(patch: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: 1,
    uid: '5b0c7b46-2f4a-4f32-9a55-3d8ff0b4a001',
    step: 7,
    sent_by: 'agent',
    type: 'text',
    content: 'Olá, tudo bem?',
    attachment: null,
    attachment_name: '',
    name: 'Ana',
    avatar: null,
    datetime: '2026-11-26T13:00:00.000Z',
    status: 'sending',
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
    user: 1,
    revision: 1,
    ...patch,
  }
}

function room(patch: Partial<ChatRoom> = {}): ChatRoom {
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
    compatibility: { btn_template: true, btn_dial: true, send_attachment: true, emoji: true, send_voice: true, show_message_status: true },
    queue_position: null,
    estimated_wait: null,
    revision: 1,
    ...patch,
  }
}

beforeAll(() => activateLocale('pt-BR'))
afterEach(cleanup)

describe('message bubble', () => {
  it('shows the delivery ticks in order, consumed in blue', () => {
    for (const status of ['sending', 'accepted', 'dispatched', 'received', 'consumed'] as const) {
      wrap(<MessageBubble message={message({ status })} showStatus mp3={false} />)
      const tick = screen.getByTestId(`tick-${status}`)
      expect(tick.getAttribute('data-status')).toBe(status)
      cleanup()
    }
    wrap(<MessageBubble message={message({ status: 'consumed' })} showStatus mp3={false} />)
    expect(getComputedStyle(screen.getByTestId('tick-consumed')).color).toMatch(/rgb\(52, 183, 241\)|#34B7F1/i)
  })

  it('shows no tick on client messages, hidden ones or where the room hides statuses', () => {
    wrap(<MessageBubble message={message({ sent_by: 'client', status: 'received' })} showStatus mp3={false} />)
    expect(screen.queryByTestId('tick-received')).toBeNull()
    cleanup()
    wrap(<MessageBubble message={message({ visible: false, status: 'received' })} showStatus mp3={false} />)
    expect(screen.queryByTestId('tick-received')).toBeNull()
    expect(screen.getByTestId('not-visible').textContent).toBe('Não visível para o cliente')
    cleanup()
    wrap(<MessageBubble message={message({ status: 'received' })} showStatus={false} mp3={false} />)
    expect(screen.queryByTestId('tick-received')).toBeNull()
  })

  it("a failed message says 'Mensagem não enviada' and resends only after 'Deseja reenviar esta mensagem?' → Sim", async () => {
    const onResend = vi.fn()
    const failed = message({ status: 'failed', error: { code: 131047, reason: 'Re-engagement message', external_error: true } })
    wrap(<MessageBubble message={failed} showStatus mp3={false} onResend={onResend} />)
    const button = screen.getByTestId('message-failed')
    expect(button.textContent).toBe('Mensagem não enviada')
    expect(failureText(failed, 'Erro externo')).toBe('Erro externo: 131047 - Re-engagement message')
    expect(failureText(message({ error: { code: null, reason: 'timeout', external_error: false } }), 'Erro externo')).toBe('timeout')
    fireEvent.click(button)
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(dialog.textContent).toContain('Deseja reenviar esta mensagem?')
    fireEvent.click(within(dialog).getByTestId('confirm-no'))
    expect(onResend).not.toHaveBeenCalled()
    fireEvent.click(button)
    fireEvent.click(within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-yes'))
    expect(onResend).toHaveBeenCalledWith(failed)
  })

  it('cuts document names to 30 characters and downloads them; media thumbnails are 200 px and open the preview', () => {
    const onPreview = vi.fn()
    wrap(
      <>
        <MessageBubble
          message={message({
            id: 2,
            type: 'document',
            attachment: '/api/v1/chat/attachments/2/',
            attachment_name: 'orcamento-detalhado-novembro-2026-final.pdf',
          })}
          showStatus
          mp3={false}
        />
        <MessageBubble message={message({ id: 3, type: 'photo', attachment: '/api/v1/chat/attachments/3/' })} showStatus mp3={false} onPreview={onPreview} />
      </>,
    )
    const link = screen.getByTestId('document-link')
    expect(link.textContent!.length).toBeLessThanOrEqual(30)
    expect(link.textContent).toBe('orcamento-detalhado-novembro-…')
    expect(link.getAttribute('href')).toBe('/api/v1/chat/attachments/2/?download=1')
    expect(screen.getByRole('img').getAttribute('width')).toBe('200')
    fireEvent.click(screen.getByTestId('media-thumbnail'))
    expect(onPreview).toHaveBeenCalledWith({ url: '/api/v1/chat/attachments/3/', type: 'photo' })
  })

  it('plays voice as mp3 where the browser cannot play OGG; quotes the replied message; location has a 300 px map panel', () => {
    wrap(
      <>
        <MessageBubble message={message({ id: 4, type: 'voice', attachment: '/api/v1/chat/attachments/4/?token=x' })} showStatus mp3 />
        <MessageBubble
          message={message({ id: 5, is_reply: true, replied_message: { id: 1, content: 'Qual o prazo?', type: 'text', sent_by: 'client' } })}
          showStatus
          mp3
        />
        <MessageBubble
          message={message({ id: 6, type: 'location', content: '', location: { name: 'Loja', address: 'Rua A, 1', latitude: -23.5, longitude: -46.6 } })}
          showStatus
          mp3
        />
      </>,
    )
    expect(screen.getByTestId('audio-player').getAttribute('src')).toBe('/api/v1/chat/attachments/4/?token=x&convert_to=mp3')
    expect(screen.getByTestId('reply-quote').textContent).toBe('Qual o prazo?')
    expect(screen.getByText('Abrir no mapa').getAttribute('href')).toContain('mlat=-23.5')
  })
})

describe('message input', () => {
  const setup = (draft: string, voice = false) => {
    const onSend = vi.fn()
    const onDraft = vi.fn()
    wrap(<MessageInput draft={draft} onDraft={onDraft} onSend={onSend} attachments emoji voice={voice} onVoice={() => {}} />)
    return { onSend, onDraft, text: screen.getByTestId('message-text') }
  }

  it('Enter sends; with ctrl, shift, alt or meta it does not', () => {
    const { onSend, text } = setup('Bom dia')
    for (const modifier of ['ctrlKey', 'shiftKey', 'altKey', 'metaKey']) fireEvent.keyDown(text, { key: 'Enter', [modifier]: true })
    expect(onSend).not.toHaveBeenCalled()
    fireEvent.keyDown(text, { key: 'Enter' })
    expect(onSend).toHaveBeenCalledWith('Bom dia')
    expect(sendsOnKey({ key: 'a', ctrlKey: false, shiftKey: false, altKey: false, metaKey: false })).toBe(false)
  })

  it('a blank message never sends, by Enter or by the button', () => {
    const { onSend, text } = setup('   \n  ')
    fireEvent.keyDown(text, { key: 'Enter' })
    fireEvent.click(screen.getByTestId('send-button'))
    expect(onSend).not.toHaveBeenCalled()
  })

  it('shows the send button with text or without voice support, the record button otherwise', () => {
    setup('')
    // jsdom has no MediaRecorder: voice cannot be recorded, so the send button shows.
    expect(screen.getByTestId('send-button')).toBeTruthy()
    cleanup()
    vi.stubGlobal('MediaRecorder', class {})
    Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: vi.fn() }, configurable: true })
    setup('', true)
    expect(screen.getByTestId('record-button')).toBeTruthy()
    cleanup()
    setup('oi', true)
    expect(screen.getByTestId('send-button')).toBeTruthy()
    vi.unstubAllGlobals()
  })
})

describe('location', () => {
  it('reads the coordinates a maps page copies; anything else or out of range is refused', () => {
    expect(parseCoordinates('-23.561414, -46.655881')).toEqual({ latitude: -23.561414, longitude: -46.655881 })
    expect(parseCoordinates(' 40.7;-74 ')).toEqual({ latitude: 40.7, longitude: -74 })
    expect(parseCoordinates('51.5 -0.12')).toEqual({ latitude: 51.5, longitude: -0.12 })
    for (const bad of ['', '12', '91, 0', '0, 181', 'abc, 1', '1, 2, 3', '1e3, 2']) expect(parseCoordinates(bad), bad).toBeNull()
  })

  it('the input offers the location button when the room can share a place', () => {
    const onLocation = vi.fn()
    wrap(<MessageInput draft="" onDraft={() => {}} onSend={() => {}} attachments emoji voice={false} onLocation={onLocation} />)
    fireEvent.click(screen.getByTestId('location-button'))
    expect(onLocation).toHaveBeenCalledTimes(1)
  })
})

describe('room list', () => {
  const noop = () => {}
  it('orders rows by the last client response, newest first, each 100 px high; searches title, phone and date', async () => {
    const rooms = [
      room({ id: 1, title: 'Antigo', last_client_response_ts: '2026-11-25T10:00:00.000Z', phone: '+5511900000001' }),
      room({ id: 2, title: 'Recente', last_client_response_ts: '2026-11-26T10:00:00.000Z', phone: '+5511900000002' }),
      room({ id: 3, title: 'Sem resposta', last_client_response_ts: null, datetime: '2026-11-26T09:00:00.000Z', phone: '+5521955554444' }),
    ]
    expect(orderRooms(rooms).map((row) => row.id)).toEqual([2, 3, 1])
    wrap(<RoomList rooms={rooms} selected={null} onSelect={noop} ringing={[]} countdown={{}} prompt={null} onOpen={noop} />)
    const rows = screen.getAllByTestId('room-row')
    expect(rows.map((row) => row.getAttribute('data-room-id'))).toEqual(['2', '3', '1'])
    expect(ROOM_ROW_HEIGHT).toBe(100)
    fireEvent.change(screen.getByTestId('room-search'), { target: { value: '21 95555' } })
    // Filtered 500 ms after the last key (the chatSearch actor's debounce).
    await vi.waitFor(() => expect(screen.getAllByTestId('room-row').map((row) => row.getAttribute('data-room-id'))).toEqual(['3']))
  })

  it("shows today's rows as HH:mm and older ones as their date, so the name keeps the row's width", () => {
    const now = dayjs('2026-11-26T15:00:00')
    expect(shortWhen(dayjs('2026-11-26T09:05:00').toISOString(), now)).toBe('09:05')
    expect(shortWhen(dayjs('2026-11-25T23:59:00').toISOString(), now)).toMatch(/25.11.2026|11.25.2026|2026.11.25/)
    expect(shortWhen(null, now)).toBe('')
  })

  it("asks for older messages until the server's page says has_more: false", () => {
    expect(hasMoreOf({ results: [], has_more: true })).toBe(true)
    expect(hasMoreOf({ results: [], has_more: false })).toBe(false)
    expect(hasMoreOf([])).toBe(true)
  })

  it('shows the webchat prompts', () => {
    wrap(<RoomList rooms={[]} selected={null} onSelect={noop} ringing={[]} countdown={{}} prompt="otherTab" onOpen={noop} />)
    expect(screen.getByTestId('webchat-prompt').textContent).toBe('Webchat esta em execução em outra aba ou janela.')
    cleanup()
    wrap(<RoomList rooms={[]} selected={null} onSelect={noop} ringing={[]} countdown={{}} prompt="off" onOpen={noop} />)
    expect(screen.getByTestId('webchat-prompt').textContent).toBe('No momento o webchat esta desativado.')
  })
})

describe('live chat data', () => {
  it('folds socket frames: rooms, messages, statuses only forward, end', () => {
    let state = applyChatFrame(EMPTY_CHAT_LIVE, { action: 'chats', data: [room({ unread_messages: [] })] })
    state = applyChatFrame(state, {
      action: 'message',
      data: message({ id: 9, sent_by: 'client', read: false, content: 'Oi', datetime: '2026-11-26T13:05:00.000Z' }),
    })
    expect(state.rooms[7].unread_messages).toEqual([9])
    expect(state.rooms[7].last_client_response_ts).toBe('2026-11-26T13:05:00.000Z')
    state = applyChatFrame(state, { action: 'message', data: message({ id: 10, status: 'received' }) })
    state = applyChatFrame(state, { action: 'messageStatus', data: { id: 10, status: 'consumed' } })
    state = applyChatFrame(state, { action: 'messageStatus', data: { id: 10, status: 'received' } })
    expect(state.messages[7].find((row) => row.id === 10)?.status).toBe('consumed')
    state = applyChatFrame(state, { action: 'end', step_id: 7 })
    expect(state.rooms[7].status).toBe('ended')
    expect(applyChatFrame(state, { action: 'mystery' })).toBe(state)
    expect(laterStatus('consumed', 'failed')).toBe('consumed')
    expect(laterStatus('sending', 'failed')).toBe('failed')
  })

  it('exports the PDF as the spec says: A4 portrait, margin 10, quality 2, chat-{stepId}.pdf, pages split at 1400 px', () => {
    expect(pdfOptions(42)).toMatchObject({ margin: 10, filename: 'chat-42.pdf', html2canvas: { scale: 2 }, jsPDF: { format: 'a4', orientation: 'portrait' } })
    const rows = Array.from({ length: 10 }, (_, index) => ({ top: index * 400, height: 380 }))
    expect(pageBreaks(rows)).toEqual([3, 6, 9])
  })
})
