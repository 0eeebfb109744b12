import { queryOptions } from '@tanstack/react-query'
import type { ChatMessage, ChatRoom, SendMessageBody, SendTemplateBody, TransferBody } from '../../../contract/api/chat.ts'
import { CHAT_PATHS } from '../../../contract/api/chat.ts'
import { AGENT_PATHS } from '../../../contract/api/agent.ts'
import type { ChatHistoryRow } from '../../../contract/api/chat-calls.ts'
import { api } from '../../api/client.ts'
import type { Query } from '../../api/client.ts'
import type { ListResponse } from '../../entities/api.ts'

// The chat workspace's REST calls (spec 001 §7, contract/api/chat.ts CHAT_PATHS).

export const CHAT_KEY = ['chat'] as const

/** A row of History, Archived and Live (GET historic/, archives/, live/): the last customer message is a cut string. */
export type ChatListRow = ChatHistoryRow

export type TemplateOption = { id: number; description: string; channel?: number; template_type?: 'TEXT' | 'IMAGE' | 'VIDEO' }
export type TemplateDetail = TemplateOption & { media: string | null; content: string; params: { name: string; value: string }[] }

export type RoomDetail = Record<string, unknown> & { id: number }

export type SearchFilters = { search: string; sort: 'datetime' | '-datetime'; from: string; to: string; attachment: boolean }
export const NO_SEARCH_FILTERS: SearchFilters = { search: '', sort: '-datetime', from: '', to: '', attachment: false }

export function sendMessage(stepId: number, body: SendMessageBody): Promise<{ data?: { data?: ChatMessage } | ChatMessage }> {
  return api.post(CHAT_PATHS.sendMessage(stepId), body)
}

/** The message the send answer carries: `data.data` (spec 001 §7), or `data`. */
export function sentMessage(answer: { data?: { data?: ChatMessage } | ChatMessage } | undefined): ChatMessage | null {
  const data = answer?.data as { data?: ChatMessage } | ChatMessage | undefined
  if (!data) return null
  if ('data' in data && data.data) return data.data
  return 'id' in data ? (data as ChatMessage) : null
}

export const closeChat = (uid: string) => api.post<{ success: boolean }>(CHAT_PATHS.close(uid), {})
export const resendMessage = (stepId: number, messageId: number) => api.get<unknown>(CHAT_PATHS.resend(stepId), { message_id: messageId })
export const unarchiveChat = (id: number) => api.get<unknown>(CHAT_PATHS.unarchive(id))
export const transferChat = (id: number, body: TransferBody) => api.post<{ success: boolean; detail?: string }>(CHAT_PATHS.transfer(id), body)
export const sendTemplate = (body: SendTemplateBody) => api.post<unknown>(CHAT_PATHS.sendTemplate, body)

export function roomMessagesQuery(stepId: number) {
  return queryOptions({
    queryKey: [...CHAT_KEY, 'messages', stepId] as const,
    queryFn: ({ signal }) => api.get<ListResponse<ChatMessage> | ChatMessage[]>(CHAT_PATHS.messages(stepId), undefined, { signal }),
  })
}

/** The page of a room's messages older than `before` (spec 001 §7 GET chats/{id}/messages/, our `before`/`limit`). */
export function olderMessages(stepId: number, before: number, limit = OLDER_PAGE): Promise<ListResponse<ChatMessage> & { has_more?: boolean }> {
  return api.get(CHAT_PATHS.messages(stepId), { before, limit })
}
/** How many older messages one scroll to the top asks for (the server's most per page). */
export const OLDER_PAGE = 200

/** Whether the server said older messages exist (`has_more`); true when the answer does not say. */
export function hasMoreOf(answer: unknown): boolean {
  return !(answer && typeof answer === 'object' && 'has_more' in answer && (answer as { has_more: unknown }).has_more === false)
}

export function messagesOf(answer: ListResponse<ChatMessage> | ChatMessage[] | undefined): ChatMessage[] {
  if (!answer) return []
  const rows: unknown[] = Array.isArray(answer) ? answer : (answer.results ?? [])
  return rows.filter((row): row is ChatMessage => !!row && typeof row === 'object' && 'sent_by' in row && 'step' in row && 'visible' in row)
}

export function roomDetailQuery(stepId: number) {
  return queryOptions({
    queryKey: [...CHAT_KEY, 'room', stepId] as const,
    queryFn: ({ signal }) => api.get<RoomDetail>(CHAT_PATHS.room(stepId), undefined, { signal }),
  })
}

export type ChatListKind = 'historic' | 'archives' | 'live'

export function chatListQuery(kind: ChatListKind, page: number, pageSize: number, search: string) {
  const query: Query = { offset: page * pageSize, limit: pageSize, ...(search ? { search } : {}) }
  return queryOptions({
    queryKey: [...CHAT_KEY, kind, query] as const,
    queryFn: ({ signal }) => api.get<ListResponse<ChatListRow>>(CHAT_PATHS[kind], query, { signal }),
  })
}

export function templatesQuery(channel: number | null) {
  return queryOptions({
    queryKey: [...CHAT_KEY, 'templates', channel] as const,
    queryFn: ({ signal }) => api.get<ListResponse<TemplateOption> | TemplateOption[]>(CHAT_PATHS.templates, channel ? { channel } : {}, { signal }),
    enabled: channel !== null,
  })
}

export function templateQuery(id: number | null, context: { stepId?: number | null; clientId?: number | null }) {
  const query: Query = { step_id: context.stepId ?? undefined, client_id: context.clientId ?? undefined }
  return queryOptions({
    queryKey: [...CHAT_KEY, 'template', id, query] as const,
    queryFn: ({ signal }) => api.get<TemplateDetail>(CHAT_PATHS.template(id ?? 0), query, { signal }),
    enabled: id !== null,
  })
}

export function chatSearchQuery(kind: 'messages' | 'rooms', chatId: number, filters: SearchFilters, page: number, pageSize = 10) {
  const query: Query = {
    offset: page * pageSize,
    limit: pageSize,
    sort: filters.sort,
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.from ? { datetime__gte: filters.from } : {}),
    ...(filters.to ? { datetime__lte: filters.to } : {}),
    ...(filters.attachment ? { attachment: true } : {}),
  }
  return queryOptions({
    queryKey: [...CHAT_KEY, 'search', kind, chatId, query] as const,
    queryFn: ({ signal }) =>
      api.get<ListResponse<Record<string, unknown>>>(kind === 'messages' ? CHAT_PATHS.searchMessages(chatId) : CHAT_PATHS.searchRooms(chatId), query, {
        signal,
      }),
  })
}

/** An attachment URL with a query added (download=1, convert_to=mp3), whatever query it already has. */
export function attachmentUrl(url: string, extra: Record<string, string>): string {
  const [path, query = ''] = url.split('?')
  const params = new URLSearchParams(query)
  for (const [key, value] of Object.entries(extra)) params.set(key, value)
  return `${path}?${params.toString()}`
}

/** The chat channel sign-in (spec 000 §7 "Agent channel"; spec 001 §4 "Agent login: to the chat channel"). */
export function chatChannel(loggedIn: boolean, by: 'user' | 'system'): Promise<unknown> {
  return loggedIn
    ? api.post(AGENT_PATHS.channelLogin, undefined, { query: { channel: 'chat', logged_in_by: by } })
    : api.post(AGENT_PATHS.channelLogout, undefined, { query: { channel: 'chat' } })
}
