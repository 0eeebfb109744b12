import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Locale } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'
import type { AppDeps } from '../deps.ts'
import type { Db } from '../db/client.ts'
import { chatChannels, chatNpsSurveys, chatQueues, chatRooms, chatTemplates, serviceNpsChat } from '../db/schema/index.ts'
import { fillTemplate, systemMessage } from './outbound.ts'
import type { RoomRow } from './serialize.ts'
import { roomHasExpired } from './serialize.ts'

// The chat NPS survey (issue 15 item 4; Settings → service → NPS, chat kind): when a room its agent served is closed
// and its queue names an active survey, the customer is asked — as text inside WhatsApp's 24-hour window (and always
// on the website widget), as the survey's template outside it (through the outbox, like any message). While the
// survey waits (`pending`, then `comment` when it asks one) and its time to answer has not run out, the customer's
// next message on the channel is its answer: stored in the closed room (tied to the room and its agent), never routed
// as a new chat. A score outside the scale is asked again up to `attempts` times, then the survey has `failed`.

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
type Survey = typeof chatNpsSurveys.$inferSelect

const WAITING = ['pending', 'comment']
const COMMENT_MAX = 2000

export function scaleOf(scale: string): { min: number; max: number } {
  return scale === '1-5' ? { min: 1, max: 5 } : { min: 0, max: 10 }
}

/** A score in a short answer ('9', 'nota 9', '9!'): the one number in it, if it is on the scale. */
export function parseScore(content: string, scale: string): number | null {
  const text = content.trim()
  if (text.length > 40) return null
  const numbers = text.match(/\d+/g)
  if (!numbers || numbers.length !== 1) return null
  const score = Number(numbers[0])
  const { min, max } = scaleOf(scale)
  return score >= min && score <= max ? score : null
}

/**
 * After a close: the survey of the room's queue, if any, to the customer. Answers the survey row (null when none is
 * due). A room nobody answered, or closed by its customer, gets none.
 */
export async function sendNpsSurvey(deps: AppDeps, room: RoomRow, lang: Locale = 'pt-BR'): Promise<Survey | null> {
  if (room.answeredAt === null || room.queueId === null || room.endedBy === 'client') return null
  const { db } = deps
  const [found] = await db
    .select({ nps: serviceNpsChat })
    .from(chatQueues)
    .innerJoin(serviceNpsChat, eq(serviceNpsChat.id, chatQueues.npsId))
    .where(and(eq(chatQueues.id, room.queueId), eq(chatQueues.siteId, room.siteId), eq(serviceNpsChat.isActive, true)))
  if (!found) return null
  const nps = found.nps
  const [channel] = await db.select().from(chatChannels).where(eq(chatChannels.id, room.channelId))
  if (!channel) return null
  const expired = roomHasExpired(room, channel)
  const [template] =
    expired && nps.templateId !== null
      ? await db
          .select()
          .from(chatTemplates)
          .where(and(eq(chatTemplates.id, nps.templateId), eq(chatTemplates.siteId, room.siteId), eq(chatTemplates.channelId, room.channelId)))
      : []
  const unsent = expired && !template
  const now = new Date()
  const [survey] = await db
    .insert(chatNpsSurveys)
    .values({
      siteId: room.siteId,
      roomId: room.id,
      npsId: nps.id,
      channelId: room.channelId,
      contact: room.contact,
      userId: room.userId,
      queueId: room.queueId,
      scale: nps.scale,
      // Outside the window without a template of this channel nothing can reach the customer.
      state: unsent ? 'unsent' : 'pending',
      sentAs: template ? 'template' : 'text',
      sentAt: now,
      expiresAt: new Date(now.getTime() + nps.timeout * 1000),
    })
    .onConflictDoNothing()
    .returning()
  if (!survey || unsent) return survey ?? null
  if (template) {
    await systemMessage(deps, {
      siteId: room.siteId,
      roomId: room.id,
      content: fillTemplate(template.content, []),
      visible: true,
      template: { id: template.id, params: [] },
    })
  } else {
    await systemMessage(deps, { siteId: room.siteId, roomId: room.id, content: nps.question, visible: true })
  }
  return survey
}

/**
 * The room of the customer's waiting survey on the channel, if any (inside receiveInbound's transaction, when the
 * customer has no open room): the inbound message then goes there instead of opening a new chat.
 */
export async function waitingSurveyRoom(tx: Tx, channelId: number, contact: string): Promise<RoomRow | null> {
  const [row] = await tx
    .select({ room: chatRooms })
    .from(chatNpsSurveys)
    .innerJoin(chatRooms, eq(chatRooms.id, chatNpsSurveys.roomId))
    .where(
      and(
        eq(chatNpsSurveys.channelId, channelId),
        eq(chatNpsSurveys.contact, contact),
        inArray(chatNpsSurveys.state, WAITING),
        gt(chatNpsSurveys.expiresAt, sql`now()`),
      ),
    )
    .orderBy(sql`${chatNpsSurveys.id} desc`)
    .limit(1)
  return row?.room ?? null
}

/** The customer's message stored in a survey's room: its score, or its comment; the survey answers back. */
export async function answerNpsSurvey(deps: AppDeps, room: RoomRow, content: string, lang: Locale = 'pt-BR'): Promise<Survey | null> {
  const { db } = deps
  const outcome = await db.transaction(async (tx) => {
    const [survey] = await tx
      .select()
      .from(chatNpsSurveys)
      .where(and(eq(chatNpsSurveys.roomId, room.id), inArray(chatNpsSurveys.state, WAITING)))
      .for('update')
    if (!survey) return null
    const [nps] = survey.npsId !== null ? await tx.select().from(serviceNpsChat).where(eq(serviceNpsChat.id, survey.npsId)) : []
    const now = new Date()
    if (survey.state === 'comment') {
      const [done] = await tx
        .update(chatNpsSurveys)
        .set({ state: 'answered', comment: content.trim().slice(0, COMMENT_MAX), answeredAt: now })
        .where(eq(chatNpsSurveys.id, survey.id))
        .returning()
      return { survey: done!, reply: nps?.thanksMessage || message('npsThanks', lang) }
    }
    const score = parseScore(content, survey.scale)
    if (score === null) {
      const invalid = survey.invalidAnswers + 1
      const failed = invalid >= (nps?.attempts ?? 1)
      const [changed] = await tx
        .update(chatNpsSurveys)
        .set({ invalidAnswers: invalid, ...(failed ? { state: 'failed', answeredAt: now } : {}) })
        .where(eq(chatNpsSurveys.id, survey.id))
        .returning()
      const { min, max } = scaleOf(survey.scale)
      return { survey: changed!, reply: failed ? null : nps?.invalidMessage || message('npsInvalidAnswer', lang, { min, max }) }
    }
    const asksComment = nps?.askComment === true && !!nps.commentQuestion
    const [scored] = await tx
      .update(chatNpsSurveys)
      .set({ score, ...(asksComment ? { state: 'comment' } : { state: 'answered', answeredAt: now }) })
      .where(eq(chatNpsSurveys.id, survey.id))
      .returning()
    return { survey: scored!, reply: asksComment ? nps!.commentQuestion : nps?.thanksMessage || message('npsThanks', lang) }
  })
  if (!outcome) return null
  if (outcome.reply) await systemMessage(deps, { siteId: room.siteId, roomId: room.id, content: outcome.reply, visible: true })
  return outcome.survey
}
