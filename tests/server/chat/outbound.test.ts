import { describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { resendMessage, sendAgentMessage, sendTemplateMessage, systemMessage } from '../../../server/chat/outbound.ts'
import { registerChannelDriver } from '../../../server/chat/outbox.ts'
import type { DeliverResult, OutboxJob } from '../../../server/chat/types.ts'
import { chatOutbox, chatRoomMessages, chatRooms, chatTemplates } from '../../../server/db/schema/index.ts'
import { HttpError } from '../../../server/errors/http-error.ts'
import { useTestApp } from '../helper.ts'
import { assign, chatFixture, roomMessages, roomRow, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))

// The driver answers what the test sets; by default it holds every message (retry much later) so rows stay visible.
let answer: (job: OutboxJob) => DeliverResult = () => ({ outcome: 'retry', afterMs: 3_600_000, reason: 'held' })
registerChannelDriver({ type: 'whatsapp', deliver: async (_deps, job) => answer(job) })

let n = 0
async function agentRoom(f: ChatFixture, sentAt = new Date()) {
  n++
  const inbound = await receiveInbound(f.deps, waText(f, `55219${String(80000000 + n)}`, 'oi', { sentAt }))
  await assign(f, inbound.roomId, f.agent1)
  return inbound.roomId
}

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof HttpError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('sendAgentMessage', () => {
  it('writes the message and its outbox row together and answers the message as sending', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f)
    const message = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: 'Bom dia' } })
    expect(message).toMatchObject({ step: roomId, sent_by: 'agent', content: 'Bom dia', status: 'sending', user: f.agent1 })
    const rows = await f.deps.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, message.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.recipient).toBe((await roomRow(f, roomId)).address)
    expect((await roomRow(f, roomId)).lastMessageId).toBe(message.id)
  })

  it('the same uid twice is one message and one outbox row (resend after a time-out)', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f)
    const uid = randomUUID()
    const [a, b] = await Promise.all([
      sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { uid, content: 'uma vez' } }),
      sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { uid, content: 'uma vez' } }),
    ])
    const c = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { uid, content: 'uma vez' } })
    expect(new Set([a.id, b.id, c.id]).size).toBe(1)
    expect((await roomMessages(f, roomId)).filter((m) => m.sentBy === 'agent')).toHaveLength(1)
    expect(await f.deps.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, a.id))).toHaveLength(1)
  })

  it('refuses free text outside the 24-hour window with the spec text and has_expired', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f, new Date(Date.now() - 25 * 3600_000))
    const error = await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: 'tarde demais' } }))
    expect(error.statusCode).toBe(400)
    expect(error.body).toMatchObject({ detail: 'Chat expirado envie um template para retornar o contato', has_expired: true })
    const english = await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: 'x' }, lang: 'en-US' }))
    expect((english.body as { detail: string }).detail).toBe('Chat expired: send a template to get back in touch')
    expect((await roomMessages(f, roomId)).filter((m) => m.sentBy === 'agent')).toHaveLength(0)
  })

  it('never sends a blank message, nor into a room that is not the agent’s or has ended', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f)
    expect((await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: '  \n ' } }))).statusCode).toBe(400)
    expect((await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent2, roomId, body: { content: 'oi' } }))).statusCode).toBe(403)
    expect((await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId: 999_999, body: { content: 'oi' } }))).statusCode).toBe(404)
    await f.deps.db.update(chatRooms).set({ state: 'offered' }).where(eq(chatRooms.id, roomId))
    expect((await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: 'antes de atender' } }))).statusCode).toBe(
      403,
    )
    await f.deps.db.update(chatRooms).set({ state: 'ended', endedAt: new Date() }).where(eq(chatRooms.id, roomId))
    const ended = await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: 'oi' } }))
    expect(ended.body).toMatchObject({ detail: 'Este chat foi encerrado' })
    expect(
      await f.deps.db
        .select()
        .from(chatOutbox)
        .innerJoin(chatRoomMessages, eq(chatRoomMessages.id, chatOutbox.messageId))
        .where(eq(chatRoomMessages.roomId, roomId)),
    ).toHaveLength(0)
  })

  it('a message whose outbox row cannot be written is not kept either (one transaction)', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f)
    // A check the outbox row breaks makes the second insert fail inside the transaction.
    await f.deps.db
      .update(chatRooms)
      .set({ address: 'x'.repeat(64) })
      .where(eq(chatRooms.id, roomId))
    await f.deps.db.execute((await import('drizzle-orm')).sql`alter table chat_outbox add constraint chatcore_test_no_x check (recipient not like 'xxxx%')`)
    try {
      await expect(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: 'perdida?' } })).rejects.toThrow()
    } finally {
      await f.deps.db.execute((await import('drizzle-orm')).sql`alter table chat_outbox drop constraint chatcore_test_no_x`)
    }
    expect((await roomMessages(f, roomId)).filter((m) => m.sentBy === 'agent')).toHaveLength(0)
  })
})

describe('resend, system messages and templates', () => {
  it('a failed message goes out again as a new attempt', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f)
    answer = () => ({ outcome: 'failed', error: { code: 131026, reason: 'Message undeliverable', external_error: true } })
    const message = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content: 'vai falhar' } })
    await until(async () => (await roomMessages(f, roomId)).find((m) => m.id === message.id)!.status === 'failed', 'the failure')
    answer = (job) => ({ outcome: 'sent', externalId: `wamid.resent.${job.message.id}` })
    const resent = await resendMessage(f.deps, { siteId: f.siteId, userId: f.agent1, messageId: message.id })
    expect(resent.status).toBe('sending')
    await until(async () => (await roomMessages(f, roomId)).find((m) => m.id === message.id)!.status === 'accepted', 'the resend')
    expect((await roomMessages(f, roomId)).find((m) => m.id === message.id)!.externalId).toBe(`wamid.resent.${message.id}`)
    answer = () => ({ outcome: 'retry', afterMs: 3_600_000, reason: 'held' })
  })

  it('a system notice hidden from the customer is not delivered; a visible one is', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f)
    const hidden = await systemMessage(f.deps, { siteId: f.siteId, roomId, content: 'Transferido', visible: false })
    expect(hidden).toMatchObject({ sent_by: 'system', visible: false, status: null })
    expect(await f.deps.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, hidden.id))).toHaveLength(0)
    const shown = await systemMessage(f.deps, { siteId: f.siteId, roomId, content: 'Aguarde', visible: true })
    expect(await f.deps.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, shown.id))).toHaveLength(1)
  })

  it('a template to a new number opens an outgoing room assigned to the agent, waiting for the reply; the reply frees the agent', async () => {
    const f = await fixture()
    const [template] = await f.deps.db
      .insert(chatTemplates)
      .values({ siteId: f.siteId, description: 'Retorno', channelId: f.whatsapp, content: 'Olá {{nome}}, retornando seu contato.' })
      .returning()
    const { room, message } = await sendTemplateMessage(f.deps, {
      siteId: f.siteId,
      userId: f.agent1,
      channelId: f.whatsapp,
      templateId: template!.id,
      params: [{ name: 'nome', value: 'Ana' }],
      phone: '+55 11 94321-0000',
    })
    expect(room).toMatchObject({ chat_type: 10, status: 'active', user: { id: f.agent1 }, can_agent_send_message: false, has_expired: false })
    expect(message).toMatchObject({ type: 'template', content: 'Olá Ana, retornando seu contato.', status: 'sending' })
    const waiting = await refusal(sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId: room.id, body: { content: 'oi?' } }))
    expect(waiting.body).toMatchObject({ detail: 'Aguardando resposta do template pelo cliente' })
    // Another agent cannot take over that customer with their own template.
    const busy = await refusal(
      sendTemplateMessage(f.deps, { siteId: f.siteId, userId: f.agent2, channelId: f.whatsapp, templateId: template!.id, params: [], phone: '5511943210000' }),
    )
    expect(busy.statusCode).toBe(409)
    const reply = await receiveInbound(f.deps, waText(f, '5511943210000', 'Oi, pode falar'))
    expect(reply.roomId).toBe(room.id)
    const sent = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId: room.id, body: { content: 'Que bom!' } })
    expect(sent.status).toBe('sending')
  })
})
