import { queryOptions } from '@tanstack/react-query'
import { CHAT_PATHS } from '../../../contract/api/chat.ts'
import type { ChatDoneAnswer, ChatForms } from '../../../contract/api/chat-calls.ts'
import type { TabFormPostResponse } from '../../../contract/api/service-actions.ts'
import { api } from '../../api/client.ts'
import { chatLive } from './chatLive.ts'

// A chat's outcome in the browser (issue 15 item 4): its forms (GET chats/{id}/forms/), the answers the Form tab holds
// until they are sent (kept per room, so the room machine's close can send them first), and the two requests the room
// machine invokes when closing (chatRoom.machine.ts saveForm / closeChat, provided in src/agent/slices/chatRooms.ts
// through the chat effects).

export const chatFormsKey = (stepId: number) => ['chat', 'forms', stepId] as const

export function chatFormsQuery(stepId: number) {
  return queryOptions({
    queryKey: chatFormsKey(stepId),
    queryFn: ({ signal }) => api.get<ChatForms>(CHAT_PATHS.forms(stepId), undefined, { signal }),
  })
}

const tabForm = (stepId: number) => `/v1/service/action/tab-form/${stepId}/`

/** The Form tab's answers per room (valid ones, as the payload rules shape them) and the form they belong to. */
const answers = new Map<number, { formId: number; values: Record<string, unknown>; sent: boolean }>()

export function rememberAnswers(stepId: number, formId: number, values: Record<string, unknown>, sent: boolean): void {
  answers.set(stepId, { formId, values, sent })
}

export function forgetAnswers(stepId: number): void {
  answers.delete(stepId)
}

/** tab-form ?type=form&form_id=&step_type=chat: the answers, once (a form already sent is not resent). */
export async function saveChatForm(stepId: number): Promise<TabFormPostResponse | null> {
  const held = answers.get(stepId)
  if (!held || held.sent) return null
  held.sent = true
  try {
    return await api.post<TabFormPostResponse>(tabForm(stepId), held.values, { query: { type: 'form', form_id: held.formId, step_type: 'chat' } })
  } catch (error) {
    held.sent = false
    throw error
  }
}

/** tab-form ?type=classification&step_type=chat. */
export function saveChatClassification(stepId: number, body: Record<string, unknown>): Promise<TabFormPostResponse> {
  return api.post<TabFormPostResponse>(tabForm(stepId), body, { query: { type: 'classification', step_type: 'chat' } })
}

/** POST close/{uid}/ (the room's uid from the live data); a refusal rejects with the server's detail (the spec's toast). */
export async function closeChatRoom(stepId: number, force: boolean): Promise<ChatDoneAnswer> {
  const room = chatLive.get().rooms[stepId]
  if (!room) throw new Error('Ocorreu um erro')
  const answer = await api.post<ChatDoneAnswer>(CHAT_PATHS.close(room.uid), force ? { force: true } : {})
  forgetAnswers(stepId)
  return answer
}

/** The chat effects' part for closing (src/agent/types.ts ChatEffects). */
export const chatOutcomeEffects = {
  saveRoomForm: (stepId: number) => saveChatForm(stepId),
  closeRoom: (stepId: number, force: boolean) => closeChatRoom(stepId, force),
}
