import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import { CHAT_PATHS, SendMessageBody, TransferBody } from '../../../contract/api/chat.ts'
import type { ChatMessage } from '../../../contract/api/chat.ts'
import { ChatCloseBody, ChatListQuery, ChatMessagesQuery, ChatResendQuery, ChatSearchQuery, LAST_MESSAGE_CUT } from '../../../contract/api/chat-calls.ts'
import type {
  ChatDoneAnswer,
  ChatForms,
  ChatHistoryRow,
  ChatList,
  ChatMessagesPage,
  ChatRoomDetail,
  ChatSearchRoomRow,
  ChatSendAnswer,
} from '../../../contract/api/chat-calls.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { message } from '../../../contract/messages.ts'
import { and, eq, inArray } from 'drizzle-orm'
import { chatChannels, chatQueues, users } from '../../db/schema/index.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import * as engine from './engine.ts'
import type { Viewer } from './queries.ts'
import { allMessages, findRoom, findRoomByUid, listRooms, messageCount, messagesPage, searchMessages, searchRooms } from './queries.ts'
import type { RoomRow } from './serialize-rows.ts'
import { serializeMessageRows, serializeRoomRows } from './serialize-rows.ts'
import { renderConversation } from './export-page.ts'
import { CLOSE_REFUSAL_MESSAGE, chatForms, classificationNames, closeRefusal, roomOutcome } from '../../chat/outcomes.ts'
import { sendNpsSurvey } from '../../chat/nps.ts'

// The chat calls of spec 001 §7 (the three template calls are the WhatsApp channel's, server/channels/whatsapp/).
// Every call needs sites.view_chat; the printable export download_chat_conversation. A room is its site's and, there,
// its agent's or a supervisor's (sites.view_dashboard_supervisor): any other id is 404 and changes nothing. Reads are
// here (queries.ts); writes go to the chat core and the ACD (engine.ts).

const IdParam = v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/), v.transform(Number), v.maxValue(Number.MAX_SAFE_INTEGER))
const UidParam = v.pipe(v.string(), v.uuid())

export async function chatRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps
  const chat = { config: { permission: PERMISSIONS.viewChat } }

  const viewer = (request: FastifyRequest): Viewer => ({
    siteId: request.auth!.user.siteId,
    userId: request.auth!.user.id,
    supervisor: request.auth!.roles.includes(PERMISSIONS.viewDashboardSupervisor),
  })
  const actor = (request: FastifyRequest): engine.Actor => ({ ...viewer(request), lang: request.lang })
  const notFound = (request: FastifyRequest) => detailError(404, 'notFound', request.lang)

  /** The room named by the path's `name` parameter, if the caller may see it; 404 otherwise (a malformed id too). */
  async function roomOf(request: FastifyRequest, name: string): Promise<RoomRow> {
    const raw = (request.params as Record<string, string | undefined>)[name]
    const parsed = v.safeParse(IdParam, raw)
    if (!parsed.success) throw notFound(request)
    const row = await findRoom(db, viewer(request), parsed.output)
    if (!row) throw notFound(request)
    return row
  }

  // ---- messages

  app.post(CHAT_PATHS.sendMessage(':stepId'), chat, async (request): Promise<ChatSendAnswer> => {
    const body = parseInput(SendMessageBody, request.body ?? {}, request.lang)
    const room = await roomOf(request, 'stepId')
    const sent: ChatMessage = await engine.sendMessage(app.deps, actor(request), room.id, body)
    return { success: true, data: sent }
  })

  app.get(CHAT_PATHS.messages(':id'), chat, async (request): Promise<ChatMessagesPage> => {
    const query = parseInput(ChatMessagesQuery, request.query, request.lang)
    const room = await roomOf(request, 'id')
    const [page, count] = await Promise.all([messagesPage(db, room.id, { before: query.before, limit: query.limit }), messageCount(db, room.id)])
    return { results: await serializeMessageRows(db, page.rows, new Map([[room.id, room]])), has_more: page.hasMore, count }
  })

  app.get(CHAT_PATHS.resend(':id'), chat, async (request): Promise<ChatSendAnswer> => {
    const query = parseInput(ChatResendQuery, request.query, request.lang)
    const room = await roomOf(request, 'id')
    const sent = await engine.resendMessage(app.deps, actor(request), room.id, query.message_id)
    return { success: true, data: sent }
  })

  // The classification and form of the chat (spec 001 §7): null when it has none (server/chat/outcomes.ts).
  app.get(CHAT_PATHS.forms(':id'), chat, async (request): Promise<ChatForms> => {
    const room = await roomOf(request, 'id')
    return chatForms(db, room)
  })

  // ---- the room

  app.get(CHAT_PATHS.room(':stepId'), chat, async (request): Promise<ChatRoomDetail> => {
    const room = await roomOf(request, 'stepId')
    return roomDetail(room)
  })

  app.get(CHAT_PATHS.historic, chat, async (request): Promise<ChatList<ChatHistoryRow>> => {
    const query = parseInput(ChatListQuery, request.query, request.lang)
    return await historyRows(await listRooms(db, viewer(request), { archived: false, ...query }))
  })

  app.get(CHAT_PATHS.archives, chat, async (request): Promise<ChatList<ChatHistoryRow>> => {
    const query = parseInput(ChatListQuery, request.query, request.lang)
    return await historyRows(await listRooms(db, viewer(request), { archived: true, ...query }))
  })

  app.get(CHAT_PATHS.live, chat, async (request): Promise<ChatList<ChatHistoryRow>> => {
    const query = parseInput(ChatListQuery, request.query, request.lang)
    return await historyRows(await listRooms(db, viewer(request), { archived: false, live: true, ...query }))
  })

  app.get(CHAT_PATHS.unarchive(':id'), chat, async (request): Promise<ChatDoneAnswer> => {
    const room = await roomOf(request, 'id')
    if (room.archived) await engine.unarchiveRoom(app.deps, actor(request), room.id)
    return { success: true }
  })

  app.post(CHAT_PATHS.transfer(':id'), chat, async (request, reply: FastifyReply): Promise<ChatDoneAnswer> => {
    const body = parseInput(TransferBody, request.body ?? {}, request.lang)
    const room = await roomOf(request, 'id')
    if (room.endedAt !== null || room.archived) {
      reply.code(400)
      return { success: false, detail: message('chatTransferFailed', request.lang) }
    }
    const done = await engine.transferRoomTo(app.deps, actor(request), room.id, body)
    if (!done.ok) {
      reply.code(done.status)
      return { success: false, detail: message(done.key, request.lang) }
    }
    return { success: true, detail: message('chatTransferred', request.lang) }
  })

  // Closing needs the classification and the form (spec 001 §5) unless a supervisor forces it; then the NPS survey.
  app.post(CHAT_PATHS.close(':uid'), chat, async (request, reply: FastifyReply): Promise<ChatDoneAnswer> => {
    const body = parseInput(ChatCloseBody, request.body ?? {}, request.lang)
    const parsed = v.safeParse(UidParam, (request.params as { uid?: string }).uid)
    if (!parsed.success) throw notFound(request)
    const room = await findRoomByUid(db, viewer(request), parsed.output)
    if (!room) throw notFound(request)
    if (room.endedAt !== null) return { success: true }
    const refusal = body.force && viewer(request).supervisor ? null : await closeRefusal(db, room)
    if (refusal) {
      reply.code(400)
      return { success: false, detail: message(CLOSE_REFUSAL_MESSAGE[refusal], request.lang), code: refusal }
    }
    const ended = await engine.closeRoom(app.deps, actor(request), room.id, room.userId)
    await sendNpsSurvey(app.deps, ended, request.lang).catch((err: unknown) => request.log.warn({ err }, 'chat: sending the NPS survey failed'))
    return { success: true }
  })

  // ---- search (the Search and Conversations tabs)

  app.get(CHAT_PATHS.searchMessages(':chatId'), chat, async (request) => {
    const query = parseInput(ChatSearchQuery, request.query, request.lang)
    const room = await roomOf(request, 'chatId')
    const found = await searchMessages(db, room.id, { ...query, from: query.datetime__gte, to: query.datetime__lte })
    return { count: found.count, results: await serializeMessageRows(db, found.rows, new Map([[room.id, room]])) }
  })

  app.get(CHAT_PATHS.searchRooms(':chatId'), chat, async (request): Promise<ChatList<ChatSearchRoomRow>> => {
    const query = parseInput(ChatSearchQuery, request.query, request.lang)
    const room = await roomOf(request, 'chatId')
    const found = await searchRooms(db, viewer(request), room, { ...query, from: query.datetime__gte, to: query.datetime__lte })
    const [names, outcomes] = await Promise.all([userNames(found.rows.map((r) => r.userId)), classificationNames(db, found.rows)])
    return {
      count: found.count,
      results: found.rows.map((r) => ({
        id: r.id,
        uid: r.uid,
        datetime: r.startedAt.toISOString(),
        end: r.endedAt?.toISOString() ?? null,
        title: r.title,
        user: r.userId !== null ? { id: r.userId, description: names.get(r.userId) ?? '' } : null,
        ...searchClassification(r, outcomes.get(r.id)),
      })),
    }
  })

  // ---- the printable conversation (A4 portrait, margin 10 mm: spec 001 §9 "Export PDF"); the browser prints it to PDF

  app.get(CHAT_PATHS.exportPdf(':stepId'), { config: { permission: PERMISSIONS.downloadChatConversation } }, async (request, reply) => {
    const room = await roomOf(request, 'stepId')
    const [serialized] = await serializeRoomRows(db, [room])
    const messages = await serializeMessageRows(db, await allMessages(db, room.id), new Map([[room.id, room]]))
    reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:")
      .header('Content-Disposition', `inline; filename="chat-${room.id}.html"`)
    return renderConversation(serialized!, messages, request.lang)
  })

  async function userNames(ids: (number | null)[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))]
    if (!wanted.length) return new Map()
    const rows = await db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(users)
      .where(inArray(users.id, wanted))
    return new Map(rows.map((u) => [u.id, `${u.firstName} ${u.lastName}`.trim() || u.username]))
  }

  /** A search row's classification and sub-classification (spec 001 §3 "Chat search rows": id and description). */
  function searchClassification(room: RoomRow, names: { classification: string; sub: string } | undefined) {
    const value = room.classification as { classification_id?: number; sub_classification_id?: number | null } | null
    return {
      classification: value?.classification_id && names ? { id: value.classification_id, description: names.classification } : null,
      sub_classification: value?.sub_classification_id && names?.sub ? { id: value.sub_classification_id, description: names.sub } : null,
    }
  }

  async function historyRows(found: { count: number; rows: RoomRow[] }): Promise<ChatList<ChatHistoryRow>> {
    const outcomes = await classificationNames(db, found.rows)
    return {
      count: found.count,
      results: found.rows.map((r) => ({
        id: r.id,
        uid: r.uid,
        datetime: r.startedAt.toISOString(),
        title: r.title,
        last_message: [...r.lastClientMessageContent].slice(0, LAST_MESSAGE_CUT).join(''),
        phone: r.phone,
        archived: r.archived,
        status: r.state as ChatHistoryRow['status'],
        classification: outcomes.get(r.id)?.classification ?? '',
        sub_classification: outcomes.get(r.id)?.sub ?? '',
      })),
    }
  }

  async function roomDetail(room: RoomRow): Promise<ChatRoomDetail> {
    const [[channel], [queue], names, outcome] = await Promise.all([
      db
        .select({ description: chatChannels.description })
        .from(chatChannels)
        .where(and(eq(chatChannels.id, room.channelId), eq(chatChannels.siteId, room.siteId))),
      room.queueId !== null
        ? db
            .select({ description: chatQueues.description })
            .from(chatQueues)
            .where(and(eq(chatQueues.id, room.queueId), eq(chatQueues.siteId, room.siteId)))
        : Promise.resolve([]),
      userNames([room.userId]),
      roomOutcome(db, room),
    ])
    const end = room.endedAt ?? new Date()
    const seconds = (from: Date | null) => (from ? Math.max(0, Math.round((end.getTime() - from.getTime()) / 1000)) : 0)
    return {
      id: room.id,
      uid: room.uid,
      started: room.startedAt.toISOString(),
      name: room.title,
      document: '',
      phone: room.phone,
      email: room.email,
      total_duration: seconds(room.startedAt),
      total_answer_duration: seconds(room.answeredAt),
      queue: queue?.description ?? '',
      classification: outcome.classification,
      sub_classification: outcome.sub_classification,
      comment: outcome.comment,
      queue_started_datetime: room.queuedAt?.toISOString() ?? null,
      queue_answered_datetime: room.answeredAt?.toISOString() ?? null,
      channel: channel?.description ?? '',
      inbound_route_id: room.inboundId,
      user: room.userId !== null ? (names.get(room.userId) ?? '') : '',
      status: room.state as ChatRoomDetail['status'],
      form: outcome.form,
      schedule_date: outcome.schedule_date,
      activity: outcome.activity,
      nps: outcome.nps,
    }
  }
}
