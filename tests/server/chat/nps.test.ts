import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { CHAT_PATHS } from '../../../contract/api/chat.ts'
import type { ChatRoomDetail } from '../../../contract/api/chat-calls.ts'
import type { EntityKey } from '../../../contract/entities/index.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { parseScore } from '../../../server/chat/nps.ts'
import { chatNpsSurveys, chatOutbox, chatQueues, chatRooms, chatTemplates, serviceNpsChat } from '../../../server/db/schema/index.ts'
import { seedRecord } from '../../../server/seed/seed-record.ts'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import { signedIn, useTestApp } from '../helper.ts'
import type { TestClient } from '../helper.ts'
import { chatFixture, roomMessages, roomRow, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

// The chat NPS survey (issue 15 item 4): a room its agent closes, whose queue names an active chat survey, sends the
// question to the customer — as text inside WhatsApp's 24-hour window, as the survey's template (through the outbox)
// outside it, nothing when there is no template. The customer's next message is the answer, stored in the closed
// room and on the survey (tied to room and agent), never a new chat; a wrong answer is asked again, then the survey
// fails and the customer's messages route as usual.

const t = useTestApp()
let f: ChatFixture
let agent: TestClient
let queueId = 0
let npsId = 0
let templateId = 0
let contacts = 0

async function seed(key: EntityKey, body: Record<string, unknown>): Promise<number> {
  const site = (await resolveSite(t.database.db, 'localhost'))!
  return seedRecord({ db: t.database.db, site, userId: null, lang: 'pt-BR', mediaDir: '' }, key, body, {})
}

/** A customer writes, the queue's room is agent1's; `lastWrote` moves the customer's last message back in time. */
async function servedRoom(lastWrote = new Date()) {
  const waId = `55119${String(7000000 + ++contacts)}`.padEnd(13, '0')
  const first = await receiveInbound(f.deps, waText(f, waId, 'Olá, preciso de ajuda', { sentAt: lastWrote }))
  await f.deps.db
    .update(chatRooms)
    .set({ queueId, userId: f.agent1, state: 'active', answeredAt: new Date(), lastClientMessageAt: lastWrote })
    .where(eq(chatRooms.id, first.roomId))
  return { waId, room: await roomRow(f, first.roomId) }
}

const close = async (uid: string) => (await agent.post(`/api${CHAT_PATHS.close(uid)}`, {})).json()
const surveyOf = async (roomId: number) => (await f.deps.db.select().from(chatNpsSurveys).where(eq(chatNpsSurveys.roomId, roomId)))[0]
const systemTexts = async (roomId: number) => (await roomMessages(f, roomId)).filter((m) => m.sentBy === 'system').map((m) => m.content)

beforeAll(async () => {
  f = await chatFixture(t)
  templateId = (
    await f.deps.db
      .insert(chatTemplates)
      .values({ siteId: f.siteId, channelId: f.whatsapp, description: 'Pesquisa', content: 'Como foi o atendimento? Responda de 0 a 10.', isActive: true })
      .returning({ id: chatTemplates.id })
  )[0]!.id
  npsId = await seed('service.nps-chat', {
    description: 'Satisfação',
    scale: '0-10',
    question: 'De 0 a 10, quanto você recomendaria nosso atendimento?',
    invalid_message: 'Por favor, responda com um número de 0 a 10.',
    thanks_message: 'Obrigado!',
    timeout: 600,
    attempts: 2,
  })
  queueId = await seed('chat.queues', { description: 'Vendas chat', nps: npsId })
  agent = await signedIn(t.app, 'agent1')
})

describe('sending the survey after a close', () => {
  it('sends the question as text inside the 24-hour window, through the outbox', async () => {
    const { room } = await servedRoom()
    expect(await close(room.uid)).toEqual({ success: true })
    const survey = await surveyOf(room.id)
    expect(survey).toMatchObject({ state: 'pending', sentAs: 'text', npsId, userId: f.agent1, queueId, scale: '0-10', contact: room.contact })
    const question = (await roomMessages(f, room.id)).at(-1)!
    expect(question).toMatchObject({ sentBy: 'system', type: 'text', visible: true, content: 'De 0 a 10, quanto você recomendaria nosso atendimento?' })
    const outbox = await f.deps.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, question.id))
    const delivered = question.status !== 'sending'
    expect(outbox.length === 1 || delivered).toBe(true)
  })

  it('sends the survey’s template outside the window, and nothing without a template', async () => {
    const old = new Date(Date.now() - 2 * 24 * 3600_000)
    const without = await servedRoom(old)
    await close(without.room.uid)
    expect(await surveyOf(without.room.id)).toMatchObject({ state: 'unsent' })
    expect(await systemTexts(without.room.id)).toEqual([])

    await f.deps.db.update(serviceNpsChat).set({ templateId }).where(eq(serviceNpsChat.id, npsId))
    try {
      const late = await servedRoom(old)
      await close(late.room.uid)
      expect(await surveyOf(late.room.id)).toMatchObject({ state: 'pending', sentAs: 'template' })
      const sent = (await roomMessages(f, late.room.id)).at(-1)!
      expect(sent).toMatchObject({ type: 'template', templateId, content: 'Como foi o atendimento? Responda de 0 a 10.' })
    } finally {
      await f.deps.db.update(serviceNpsChat).set({ templateId: null }).where(eq(serviceNpsChat.id, npsId))
    }
  })

  it('sends none for a queue without a survey, or a survey turned off', async () => {
    const { room } = await servedRoom()
    await f.deps.db.update(serviceNpsChat).set({ isActive: false }).where(eq(serviceNpsChat.id, npsId))
    try {
      await close(room.uid)
      expect(await surveyOf(room.id)).toBeUndefined()
    } finally {
      await f.deps.db.update(serviceNpsChat).set({ isActive: true }).where(eq(serviceNpsChat.id, npsId))
    }
  })
})

describe("the customer's answer", () => {
  it('is stored in the closed room and on the survey, thanked, and opens no new chat', async () => {
    const { waId, room } = await servedRoom()
    await close(room.uid)
    const answer = await receiveInbound(f.deps, waText(f, waId, 'Nota 9'))
    expect(answer).toMatchObject({ roomId: room.id, newRoom: false, duplicate: false })
    expect(await surveyOf(room.id)).toMatchObject({ state: 'answered', score: 9, userId: f.agent1 })
    expect((await surveyOf(room.id))!.answeredAt).not.toBeNull()
    expect(await systemTexts(room.id)).toEqual(['De 0 a 10, quanto você recomendaria nosso atendimento?', 'Obrigado!'])
    const open = await f.deps.db
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.channelId, f.whatsapp), eq(chatRooms.contact, room.contact)))
    expect(open).toHaveLength(1)
    // The survey is over: the next message is a new chat.
    const later = await receiveInbound(f.deps, waText(f, waId, 'Outra dúvida'))
    expect(later.newRoom).toBe(true)
    expect(later.roomId).not.toBe(room.id)
    // The room detail shows it.
    const detail = (await agent.get(`/api${CHAT_PATHS.room(room.id)}`)).json() as ChatRoomDetail
    expect(detail.nps).toMatchObject({ state: 'answered', score: 9, scale: '0-10', sent_as: 'text' })
  })

  it('asks again after a wrong answer, then fails and lets the customer chat again', async () => {
    const { waId, room } = await servedRoom()
    await close(room.uid)
    const first = await receiveInbound(f.deps, waText(f, waId, 'ótimo'))
    expect(first.roomId).toBe(room.id)
    expect(await surveyOf(room.id)).toMatchObject({ state: 'pending', invalidAnswers: 1 })
    expect((await systemTexts(room.id)).at(-1)).toBe('Por favor, responda com um número de 0 a 10.')
    const second = await receiveInbound(f.deps, waText(f, waId, '11'))
    expect(second.roomId).toBe(room.id)
    expect(await surveyOf(room.id)).toMatchObject({ state: 'failed', invalidAnswers: 2, score: null })
    const next = await receiveInbound(f.deps, waText(f, waId, 'quero falar com alguém'))
    expect(next.newRoom).toBe(true)
  })

  it('asks for the comment when the survey wants one, and keeps it', async () => {
    await f.deps.db.update(serviceNpsChat).set({ askComment: true, commentQuestion: 'Quer deixar um comentário?' }).where(eq(serviceNpsChat.id, npsId))
    try {
      const { waId, room } = await servedRoom()
      await close(room.uid)
      await receiveInbound(f.deps, waText(f, waId, '10'))
      expect(await surveyOf(room.id)).toMatchObject({ state: 'comment', score: 10 })
      expect((await systemTexts(room.id)).at(-1)).toBe('Quer deixar um comentário?')
      await receiveInbound(f.deps, waText(f, waId, 'Muito rápido, obrigado'))
      expect(await surveyOf(room.id)).toMatchObject({ state: 'answered', score: 10, comment: 'Muito rápido, obrigado' })
    } finally {
      await f.deps.db.update(serviceNpsChat).set({ askComment: false }).where(eq(serviceNpsChat.id, npsId))
    }
  })

  it('leaves one message for a redelivered answer, and no survey past its time', async () => {
    const { waId, room } = await servedRoom()
    await close(room.uid)
    const answer = waText(f, waId, '7')
    await receiveInbound(f.deps, answer)
    expect((await receiveInbound(f.deps, answer)).duplicate).toBe(true)
    expect((await roomMessages(f, room.id)).filter((m) => m.sentBy === 'client' && m.content === '7')).toHaveLength(1)

    const expired = await servedRoom()
    await close(expired.room.uid)
    await f.deps.db
      .update(chatNpsSurveys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(chatNpsSurveys.roomId, expired.room.id))
    expect((await receiveInbound(f.deps, waText(f, expired.waId, '8'))).newRoom).toBe(true)
  })

  it('reads a score only from a short answer with one number on the scale', () => {
    expect(parseScore(' 10 ', '0-10')).toBe(10)
    expect(parseScore('nota 0', '0-10')).toBe(0)
    expect(parseScore('0', '1-5')).toBeNull()
    expect(parseScore('5', '1-5')).toBe(5)
    expect(parseScore('entre 7 e 8', '0-10')).toBeNull()
    expect(parseScore('a'.repeat(50) + ' 9', '0-10')).toBeNull()
  })
})

it('keeps the chat queue’s survey through the settings', async () => {
  const [q] = await f.deps.db.select().from(chatQueues).where(eq(chatQueues.id, queueId))
  expect(q!.npsId).toBe(npsId)
})
