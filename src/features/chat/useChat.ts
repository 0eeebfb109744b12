import { useCallback } from 'react'
import { useSelector } from '@xstate/react'
import type { AnyActorRef } from 'xstate'
import type { ChatLocation, ChatMessage, ChatRoom } from '../../../contract/api/chat.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useStore } from '../../app/store.ts'
import type { ChatClientFrame } from '../../../machines/chatSocket.machine.ts'
import type { ChatRoomEvent } from '../../../machines/chatRoom.machine.ts'
import { roomActorId } from '../../../machines/chatRooms.machine.ts'
import { ApiError } from '../../api/errors.ts'
import { api } from '../../api/client.ts'
import { clientPath } from '../../entities/api.ts'
import { CHAT_ATTACHMENT_PATHS } from '../../../contract/api/chat-attachments.ts'
import type { ChatUploadAnswer } from '../../../contract/api/chat-attachments.ts'
import { resendMessage, sendMessage, sentMessage } from './chatApi.ts'
import { chatLive, putMessage } from './chatLive.ts'
import { chatSignals } from './chatSignals.ts'

// The chat workspace's hooks: the live rooms and messages, the actors' signals, and what a view may ask of the actors
// (answer, hang up, read) or of the server (send, resend).

export function useChatLive() {
  return useStore(chatLive)
}

export function useChatSignals() {
  return useStore(chatSignals)
}

const NO_REF = { getSnapshot: () => undefined, subscribe: () => ({ unsubscribe: () => {} }) } as unknown as AnyActorRef

/** Talks to the chat actors; a no-op outside the agent system (tests, the viewer). */
export function useChatActors() {
  const system = useAgentSystem()
  const room = useCallback(
    (stepId: number, event: ChatRoomEvent) => {
      if (system) system.get('chatRooms').send({ type: 'ROOM', stepId, event })
    },
    [system],
  )
  const socket = useCallback(
    (message: ChatClientFrame) => {
      if (system) system.get('chatSocket').send({ type: 'SEND', message })
    },
    [system],
  )
  return { room, socket, connected: system ? system.get('chatSocket') : null }
}

/** Whether the chat socket is up in this tab (and whether this tab serves at all). */
export function useChatConnection(): { connected: boolean; standby: boolean; available: boolean } {
  const system = useAgentSystem()
  const ref = system ? system.get('chatSocket') : NO_REF
  const value = useSelector(ref, (snapshot: { matches?: (state: unknown) => boolean } | undefined) =>
    snapshot?.matches ? (snapshot.matches({ socket: 'connected' }) ? 'connected' : snapshot.matches('standby') ? 'standby' : 'down') : 'none',
  )
  return { connected: value === 'connected', standby: value === 'standby', available: value !== 'none' }
}

/** Whether a room's unread bar is up (its actor's `unreadBar.shown`). */
export function useUnreadBar(stepId: number | null): boolean {
  const system = useAgentSystem()
  const parent = system ? system.get('chatRooms') : NO_REF
  const child = useSelector(parent, (snapshot: { children?: Record<string, AnyActorRef | undefined> } | undefined) =>
    stepId === null ? undefined : snapshot?.children?.[roomActorId(stepId)],
  )
  return useSelector(
    child ?? NO_REF,
    (snapshot: { matches?: (state: unknown) => boolean } | undefined) => !!snapshot?.matches?.({ answered: { unreadBar: 'shown' } }),
  )
}

function newUid(): string {
  return globalThis.crypto?.randomUUID?.() ?? '00000000-0000-4000-8000-' + Date.now().toString(16).padStart(12, '0').slice(-12)
}

let temporaryId = -1

/** The agent's message as it shows while it is sent (spec 001 §4 "A sent message first shows as sending"). */
export function draftMessage(room: ChatRoom, content: string, reply: ChatMessage | null, userId: number | null): ChatMessage {
  return {
    id: temporaryId--,
    uid: newUid(),
    step: room.id,
    sent_by: 'agent',
    type: 'text',
    content,
    attachment: null,
    attachment_name: '',
    name: '',
    avatar: null,
    datetime: new Date().toISOString(),
    status: 'sending',
    visible: true,
    visible_agent: true,
    read: true,
    is_reply: !!reply,
    replied_message: reply ? { id: reply.id, content: reply.content, type: reply.type, sent_by: reply.sent_by } : null,
    can_reply: false,
    error: null,
    location: null,
    contacts: [],
    template_type: null,
    template: null,
    user: userId,
    revision: 0,
  }
}

function replaceMessage(draft: ChatMessage, next: ChatMessage | null, failure: string | null) {
  chatLive.set((state) => {
    const list = (state.messages[draft.step] ?? []).filter((message) => message.id !== draft.id)
    const cleared = { ...state, messages: { ...state.messages, [draft.step]: list } }
    if (next) return putMessage(cleared, next)
    return putMessage(cleared, { ...draft, status: 'failed', error: { code: null, reason: failure ?? '', external_error: false } })
  })
}

/** Sends a text: shown as sending at once, then replaced by the server's message or marked failed with its detail. */
export async function sendText(room: ChatRoom, content: string, reply: ChatMessage | null, userId: number | null): Promise<void> {
  const draft = draftMessage(room, content, reply, userId)
  chatLive.set((state) => putMessage(state, draft))
  try {
    const answer = await sendMessage(room.id, { uid: draft.uid, content, reply: reply?.id ?? null })
    replaceMessage(draft, sentMessage(answer), null)
  } catch (error) {
    replaceMessage(draft, null, error instanceof ApiError ? error.message : String((error as Error)?.message ?? error))
  }
}

/** Shares a place: shown as sending at once, then the server's message or failed with its detail. */
export async function sendLocation(room: ChatRoom, location: ChatLocation, userId: number | null): Promise<void> {
  const draft: ChatMessage = { ...draftMessage(room, '', null, userId), type: 'location', location }
  chatLive.set((state) => putMessage(state, draft))
  try {
    const answer = await sendMessage(room.id, { uid: draft.uid, content: '', location })
    replaceMessage(draft, sentMessage(answer), null)
  } catch (error) {
    replaceMessage(draft, null, error instanceof ApiError ? error.message : String((error as Error)?.message ?? error))
  }
}

/** Uploads a file or a recorded voice note, then sends it as its kind (spec 001 §2 attachments, the record button). */
export async function sendAttachment(room: ChatRoom, file: Blob, name: string, voice: boolean, userId: number | null): Promise<void> {
  const draft = { ...draftMessage(room, '', null, userId), type: (voice ? 'voice' : 'document') as ChatMessage['type'], attachment_name: name }
  chatLive.set((state) => putMessage(state, draft))
  try {
    const form = new FormData()
    // A recording says so: the server then takes the browser's WebM/Opus and stores the Ogg Opus WhatsApp accepts.
    if (voice) form.append('voice', '1')
    form.append('file', file, name)
    const upload = await api.post<ChatUploadAnswer>(clientPath(CHAT_ATTACHMENT_PATHS.upload), form)
    const answer = await sendMessage(room.id, { uid: draft.uid, content: '', attachment: upload.id, type: voice ? 'voice' : upload.type })
    replaceMessage(draft, sentMessage(answer), null)
  } catch (error) {
    replaceMessage(draft, null, error instanceof ApiError ? error.message : String((error as Error)?.message ?? error))
  }
}

/** Resends a failed message: one the server knows by its id, else the same text again (same uid: idempotent). */
export async function resend(room: ChatRoom, message: ChatMessage, userId: number | null): Promise<void> {
  if (message.id > 0) {
    await resendMessage(room.id, message.id)
    return
  }
  chatLive.set((state) => ({ ...state, messages: { ...state.messages, [room.id]: (state.messages[room.id] ?? []).filter((m) => m.id !== message.id) } }))
  await sendText(room, message.content, null, userId)
}
