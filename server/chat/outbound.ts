import { and, eq, isNull, sql } from 'drizzle-orm'
import { clientByPhone } from '../crm/keys.ts'
import { randomUUID } from 'node:crypto'
import * as v from 'valibot'
import type { ChatMessage, ChatRoom, MessageType } from '../../contract/api/chat.ts'
import { CHAT_TYPES, SendMessageBody } from '../../contract/api/chat.ts'
import { issuesToFieldErrors } from '../../contract/api/errors.ts'
import type { Locale } from '../../contract/locales.ts'
import { message as text } from '../../contract/messages.ts'
import type { AppDeps } from '../deps.ts'
import { chatChannels, chatOutbox, chatRoomMessages, chatRooms, chatTemplates } from '../db/schema/index.ts'
import { HttpError, detailError, fieldErrors } from '../errors/http-error.ts'
import { messageTypeOf, readUpload } from './attachment-store.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import { canonicalPhone } from '../../contract/phone.ts'
import { wakeOutbox } from './outbox.ts'
import type { MessageRow, RoomRow } from './serialize.ts'
import { agentMaySend, roomHasExpired, serializeMessage, serializeRoom } from './serialize.ts'
import { mayStartOutgoingChat } from './acd/outgoing.ts'
import { refreshWebchatStatus } from './acd/status.ts'

// What agents (and the system) write into a room (README.md): the message and its outbox row in one transaction, so
// a crash never leaves a message that is never sent nor a send without its message; then the dispatcher is woken.
// A uid makes a resend after a time-out the same message (QUALITY.md test 10).

const nextRevision = sql`nextval('chat_revision_seq')`
const MEDIA_TYPES = ['photo', 'video', 'audio', 'voice', 'document'] as const

export type SendAgentMessage = { siteId: number; userId: number; roomId?: number; roomUid?: string; body: v.InferInput<typeof SendMessageBody>; lang?: Locale }

async function findRoom(deps: AppDeps, siteId: number, ref: { roomId?: number; roomUid?: string }): Promise<RoomRow | undefined> {
  const where = ref.roomId !== undefined ? eq(chatRooms.id, ref.roomId) : eq(chatRooms.uid, ref.roomUid ?? '')
  const [room] = await deps.db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), where))
  return room
}

async function channelOf(deps: AppDeps, channelId: number) {
  const [channel] = await deps.db.select().from(chatChannels).where(eq(chatChannels.id, channelId))
  return channel!
}

async function publishMessage(deps: AppDeps, room: RoomRow, row: MessageRow, newRoom = false): Promise<ChatMessage> {
  const users = await roomAudience(deps, room)
  const serialized = await serializeMessage(deps, row)
  if (newRoom) await publishChatEvent(deps.bus, { type: 'room', site_id: room.siteId, users, room: await serializeRoom(deps, room) })
  await publishChatEvent(deps.bus, { type: 'message', site_id: room.siteId, users, room_id: room.id, message: serialized })
  return serialized
}

type NewMessage = typeof chatRoomMessages.$inferInsert

/**
 * Inserts a message (ON CONFLICT on its uid: the existing one is answered, nothing else written), its outbox row
 * when it goes to the customer, and the room's last_* fields — one transaction. `existing` true when the uid was known.
 */
async function writeMessage(
  deps: AppDeps,
  room: RoomRow,
  values: NewMessage,
  options: { deliver: boolean; roomChanges?: Partial<typeof chatRooms.$inferInsert> },
): Promise<{ row: MessageRow; room: RoomRow; existing: boolean }> {
  const result = await deps.db.transaction(async (tx) => {
    const [row] = await tx.insert(chatRoomMessages).values(values).onConflictDoNothing().returning()
    if (!row) {
      const [existing] = await tx
        .select()
        .from(chatRoomMessages)
        .where(and(eq(chatRoomMessages.siteId, values.siteId), eq(chatRoomMessages.uid, values.uid)))
      return { row: existing, room, existing: true }
    }
    if (options.deliver) await tx.insert(chatOutbox).values({ siteId: row.siteId, channelId: row.channelId, messageId: row.id, recipient: room.address })
    const [updated] = await tx
      .update(chatRooms)
      .set({ lastMessageAt: row.createdAt, lastMessageId: row.id, ...options.roomChanges, revision: nextRevision })
      .where(eq(chatRooms.id, room.id))
      .returning()
    return { row, room: updated!, existing: false }
  })
  // A uid of another site's or room's message is not this one's resend: refuse rather than leak it.
  if (!result.row || (result.existing && result.row.roomId !== room.id)) throw fieldErrors({ uid: [text('invalidValue')] })
  if (!result.existing && options.deliver) wakeOutbox(deps)
  return result as { row: MessageRow; room: RoomRow; existing: boolean }
}

/** POST /v1/chat/send-message/{stepId}/: an agent's message to the customer of their room. */
export async function sendAgentMessage(deps: AppDeps, input: SendAgentMessage): Promise<ChatMessage> {
  const lang = input.lang
  const parsed = v.safeParse(SendMessageBody, input.body)
  if (!parsed.success) throw fieldErrors(issuesToFieldErrors(parsed.issues))
  const body = parsed.output
  const room = await findRoom(deps, input.siteId, input)
  if (!room) throw detailError(404, 'notFound', lang ?? 'pt-BR')
  if (room.userId !== input.userId) throw detailError(403, 'chatNotYours', lang ?? 'pt-BR')
  // The same uid again (a resend after a time-out): the message as it is, nothing written twice.
  if (body.uid) {
    const [known] = await deps.db
      .select()
      .from(chatRoomMessages)
      .where(and(eq(chatRoomMessages.siteId, input.siteId), eq(chatRoomMessages.uid, body.uid)))
    if (known) {
      if (known.roomId !== room.id) throw fieldErrors({ uid: [text('invalidValue', lang)] })
      return serializeMessage(deps, known)
    }
  }
  if (room.state === 'ended') throw detailError(400, 'chatEnded', lang ?? 'pt-BR')
  // Offered, not answered yet: not the agent's to write in.
  if (room.state !== 'active') throw detailError(403, 'chatNotYours', lang ?? 'pt-BR')
  const channel = await channelOf(deps, room.channelId)
  if (roomHasExpired(room, channel)) {
    throw new HttpError(400, { detail: text('chatExpired', lang), code: 'chat_expired', has_expired: true } as never)
  }
  if (!agentMaySend(room)) throw new HttpError(400, { detail: text('chatAwaitingTemplate', lang), code: 'awaiting_template_reply' })

  const content = body.content ?? ''
  const upload = body.attachment ? await readUpload(deps.config.mediaDir, input.siteId, input.userId, body.attachment) : null
  if (body.attachment && !upload) throw fieldErrors({ attachment: [text('invalidValue', lang)] })
  if (!content.trim() && !upload && !body.location) throw fieldErrors({ content: [text('required', lang)] })
  let replyToId: number | null = null
  if (body.reply) {
    const [replied] = await deps.db
      .select({ id: chatRoomMessages.id })
      .from(chatRoomMessages)
      .where(and(eq(chatRoomMessages.id, body.reply), eq(chatRoomMessages.roomId, room.id)))
    if (!replied) throw fieldErrors({ reply: [text('invalidValue', lang)] })
    replyToId = replied.id
  }
  // An attachment goes as the kind the agent chose among the media kinds (a voice note recorded as audio), else by its bytes.
  const mediaType = body.type && (MEDIA_TYPES as readonly string[]).includes(body.type) ? body.type : null
  const type: MessageType = body.location ? 'location' : upload ? (mediaType ?? messageTypeOf(upload.mime)) : 'text'
  const { row, room: updated } = await writeMessage(
    deps,
    room,
    {
      uid: body.uid ?? randomUUID(),
      siteId: room.siteId,
      roomId: room.id,
      channelId: room.channelId,
      sentBy: 'agent',
      userId: input.userId,
      type,
      content,
      attachmentFile: body.attachment && upload ? body.attachment : null,
      attachmentName: upload?.name ?? '',
      attachmentMime: upload?.mime ?? '',
      attachmentSize: upload?.size ?? null,
      attachmentState: upload ? 'ready' : 'none',
      latitude: body.location?.latitude ?? null,
      longitude: body.location?.longitude ?? null,
      locationName: body.location?.name ?? '',
      locationAddress: body.location?.address ?? '',
      replyToId,
      status: 'sending',
      statusAt: new Date(),
    },
    { deliver: true },
  )
  return publishMessage(deps, updated, row)
}

/** A failed message of the agent's room goes out again (a new attempt of the same message). */
export async function resendMessage(deps: AppDeps, input: { siteId: number; userId: number; messageId: number; lang?: Locale }): Promise<ChatMessage> {
  const lang = input.lang ?? 'pt-BR'
  const [row] = await deps.db
    .select()
    .from(chatRoomMessages)
    .where(and(eq(chatRoomMessages.siteId, input.siteId), eq(chatRoomMessages.id, input.messageId)))
  if (!row) throw detailError(404, 'notFound', lang)
  const room = await findRoom(deps, input.siteId, { roomId: row.roomId })
  if (!room) throw detailError(404, 'notFound', lang)
  if (room.userId !== input.userId) throw detailError(403, 'chatNotYours', lang)
  if (room.state === 'ended') throw detailError(400, 'chatEnded', lang)
  if (row.status !== 'failed') {
    if (row.status === 'sending') return serializeMessage(deps, row)
    throw detailError(400, 'chatNotFailed', lang)
  }
  const updated = await deps.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(chatRoomMessages)
      .set({ status: 'sending', statusAt: new Date(), errorCode: null, errorReason: '', externalError: false, externalId: null, revision: nextRevision })
      .where(and(eq(chatRoomMessages.id, row.id), eq(chatRoomMessages.status, 'failed')))
      .returning()
    if (changed)
      await tx.insert(chatOutbox).values({ siteId: row.siteId, channelId: row.channelId, messageId: row.id, recipient: room.address }).onConflictDoNothing()
    return changed
  })
  if (!updated) {
    const [now] = await deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, row.id))
    return serializeMessage(deps, now!)
  }
  wakeOutbox(deps)
  const serialized = await serializeMessage(deps, updated)
  await publishChatEvent(deps.bus, { type: 'status', site_id: room.siteId, users: await roomAudience(deps, room), room_id: room.id, message: serialized })
  return serialized
}

/**
 * A notice in a room (a transfer, a number change, the queue's messages): `visible` ones reach the customer too
 * (through the outbox), the others only show in the console ('Não visível para o cliente').
 */
export async function systemMessage(
  deps: AppDeps,
  input: {
    siteId: number
    roomId: number
    content: string
    visible: boolean
    visibleAgent?: boolean
    uid?: string
    /** Sent as this template (outside WhatsApp's 24-hour window: the chat NPS survey, server/chat/nps.ts). */
    template?: { id: number; params: { name: string; value: string }[] }
  },
): Promise<ChatMessage> {
  const room = await findRoom(deps, input.siteId, { roomId: input.roomId })
  if (!room) throw new Error(`systemMessage: no room ${input.roomId} on site ${input.siteId}`)
  const { row, room: updated } = await writeMessage(
    deps,
    room,
    {
      uid: input.uid ?? randomUUID(),
      siteId: room.siteId,
      roomId: room.id,
      channelId: room.channelId,
      sentBy: 'system',
      type: input.template ? 'template' : input.visible ? 'text' : 'system',
      content: input.content,
      ...(input.template ? { templateId: input.template.id, templateParams: input.template.params } : {}),
      visible: input.visible,
      visibleAgent: input.visibleAgent ?? true,
      status: input.visible ? 'sending' : null,
      statusAt: input.visible ? new Date() : null,
    },
    { deliver: input.visible },
  )
  return publishMessage(deps, updated, row)
}

export type SendTemplateInput = {
  siteId: number
  userId: number
  channelId: number
  templateId: number
  params: { name: string; value: string }[]
  phone?: string
  roomId?: number
  uid?: string
  /** A new room's chat type: 10 (a template to a contact, default) or 11 (to a mailing's client). */
  chatType?: 10 | 11
  lang?: Locale
}

/** The template's text with the agent's values in its {{name}} (or {{1}}) placeholders. */
export function fillTemplate(content: string, params: { name: string; value: string }[]): string {
  const values = new Map(params.map((p) => [p.name, p.value] as const).concat(params.map((p, i) => [String(i + 1), p.value] as const)))
  return content.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => values.get(name) ?? whole)
}

/**
 * A template to a customer (POST /v1/chat/send-template-whatsapp/ — the WhatsApp helper's route calls this): into
 * the named room, the customer's open room, or a new outgoing room (chat_type 10) assigned to the agent, active and
 * waiting for the customer's reply.
 */
export async function sendTemplateMessage(deps: AppDeps, input: SendTemplateInput): Promise<{ room: ChatRoom; message: ChatMessage }> {
  const lang = input.lang ?? 'pt-BR'
  const [template] = await deps.db
    .select()
    .from(chatTemplates)
    .where(and(eq(chatTemplates.siteId, input.siteId), eq(chatTemplates.id, input.templateId), eq(chatTemplates.isActive, true)))
  if (!template || template.channelId !== input.channelId) throw fieldErrors({ template_id: [text('invalidValue', lang)] })
  const [channel] = await deps.db
    .select()
    .from(chatChannels)
    .where(and(eq(chatChannels.siteId, input.siteId), eq(chatChannels.id, input.channelId)))
  if (!channel) throw fieldErrors({ channel_id: [text('invalidValue', lang)] })

  let room: RoomRow | undefined
  let created = false
  if (input.roomId !== undefined) {
    room = await findRoom(deps, input.siteId, { roomId: input.roomId })
    if (!room || room.channelId !== channel.id) throw detailError(404, 'notFound', lang)
    if (room.state === 'ended') throw detailError(400, 'chatEnded', lang)
    if (room.userId !== input.userId) throw detailError(403, 'chatNotYours', lang)
  } else {
    const phone = canonicalPhone(input.phone ?? '')
    if (phone.length < 8) throw fieldErrors({ phone: [text('invalidValue', lang)] })
    const allowed = await mayStartOutgoingChat(deps, input.siteId, input.userId)
    if (!allowed.ok) throw detailError(allowed.status, allowed.key, lang)
    for (let attempt = 0; attempt < 5 && !room; attempt++) {
      const [open] = await deps.db
        .select()
        .from(chatRooms)
        .where(and(eq(chatRooms.channelId, channel.id), eq(chatRooms.contact, phone), isNull(chatRooms.endedAt)))
      const now = new Date()
      // A WhatsApp campaign's room still waiting for the customer's reply (server/chat/campaigns.ts): the agent takes it.
      if (open && open.state === 'new' && open.userId === null && open.chatType === CHAT_TYPES.outgoingMailing) {
        const [taken] = await deps.db
          .update(chatRooms)
          .set({ state: 'active', userId: input.userId, offeredAt: now, answeredAt: now, revision: nextRevision })
          .where(and(eq(chatRooms.id, open.id), eq(chatRooms.state, 'new'), isNull(chatRooms.userId)))
          .returning()
        if (taken) {
          room = taken
          created = true
          break
        }
        continue
      }
      if (open) {
        if (open.userId !== input.userId) throw detailError(409, 'chatRoomBusy', lang)
        room = open
        break
      }
      const [inserted] = await deps.db
        .insert(chatRooms)
        .values({
          uid: randomUUID(),
          siteId: input.siteId,
          channelId: channel.id,
          contact: phone,
          address: phone,
          phone,
          chatType: input.chatType ?? CHAT_TYPES.outgoing,
          state: 'active',
          userId: input.userId,
          answeredAt: now,
          awaitingTemplateReply: true,
          clientId: await clientByPhone(deps.db, input.siteId, `+${phone}`),
        })
        .onConflictDoNothing()
        .returning()
      if (inserted) {
        room = inserted
        created = true
      }
    }
    if (!room) throw detailError(409, 'chatRoomBusy', lang)
  }

  const { row, room: updated } = await writeMessage(
    deps,
    room,
    {
      uid: input.uid ?? randomUUID(),
      siteId: room.siteId,
      roomId: room.id,
      channelId: room.channelId,
      sentBy: 'agent',
      userId: input.userId,
      type: 'template',
      content: fillTemplate(template.content, input.params),
      templateId: template.id,
      templateParams: input.params,
      status: 'sending',
      statusAt: new Date(),
    },
    // A template reopens the conversation: free text waits for the customer's answer.
    { deliver: true, roomChanges: { awaitingTemplateReply: true } },
  )
  const message = await publishMessage(deps, updated, row, created)
  if (created) await refreshWebchatStatus(deps, updated.siteId, input.userId)
  return { room: await serializeRoom(deps, updated), message }
}

export type CampaignTemplateInput = {
  siteId: number
  channelId: number
  templateId: number
  params: { name: string; value: string }[]
  phone: string
  /** The lead's message uid (one per campaign and lead): a second call after a crash is the same message. */
  uid: string
  /** The campaign's chat queue: where the customer's reply takes the room (acd/route.ts routeCampaignReply). */
  queueId: number
}

export type CampaignTemplateResult = { ok: true; roomId: number; messageId: number } | { ok: false; reason: 'phone' | 'open_room' | 'template' }

/**
 * A WhatsApp campaign's template to one lead (server/chat/campaigns.ts): a new outgoing room of a mailing's client
 * (chat type 11) with no agent, waiting in `new` with the campaign's queue for the customer's answer, and the template
 * through the outbox. A customer already in an open chat of the channel is not interrupted (`open_room`).
 */
export async function sendCampaignTemplate(deps: AppDeps, input: CampaignTemplateInput): Promise<CampaignTemplateResult> {
  const [known] = await deps.db
    .select({ id: chatRoomMessages.id, roomId: chatRoomMessages.roomId })
    .from(chatRoomMessages)
    .where(and(eq(chatRoomMessages.siteId, input.siteId), eq(chatRoomMessages.uid, input.uid)))
  if (known) return { ok: true, roomId: known.roomId, messageId: known.id }
  const [template] = await deps.db
    .select()
    .from(chatTemplates)
    .where(and(eq(chatTemplates.siteId, input.siteId), eq(chatTemplates.id, input.templateId), eq(chatTemplates.isActive, true)))
  if (!template || template.channelId !== input.channelId) return { ok: false, reason: 'template' }
  const phone = canonicalPhone(input.phone)
  if (phone.length < 8) return { ok: false, reason: 'phone' }
  let room: RoomRow | undefined
  const [open] = await deps.db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.channelId, input.channelId), eq(chatRooms.contact, phone), isNull(chatRooms.endedAt)))
  if (open) {
    // A room this send opened before a crash, its message never written: use it.
    if (open.state === 'new' && open.userId === null && open.chatType === CHAT_TYPES.outgoingMailing && open.lastMessageId === null) room = open
    else return { ok: false, reason: 'open_room' }
  } else {
    const [inserted] = await deps.db
      .insert(chatRooms)
      .values({
        uid: randomUUID(),
        siteId: input.siteId,
        channelId: input.channelId,
        contact: phone,
        address: phone,
        phone,
        chatType: CHAT_TYPES.outgoingMailing,
        state: 'new',
        queueId: input.queueId,
        awaitingTemplateReply: true,
        clientId: await clientByPhone(deps.db, input.siteId, `+${phone}`),
      })
      .onConflictDoNothing()
      .returning()
    if (!inserted) return { ok: false, reason: 'open_room' }
    room = inserted
  }
  const { row, room: updated } = await writeMessage(
    deps,
    room,
    {
      uid: input.uid,
      siteId: room.siteId,
      roomId: room.id,
      channelId: room.channelId,
      sentBy: 'system',
      type: 'template',
      content: fillTemplate(template.content, input.params),
      templateId: template.id,
      templateParams: input.params,
      status: 'sending',
      statusAt: new Date(),
    },
    { deliver: true, roomChanges: { awaitingTemplateReply: true } },
  )
  await publishMessage(deps, updated, row, room !== open)
  return { ok: true, roomId: updated.id, messageId: row.id }
}
