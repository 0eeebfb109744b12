import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { applyDelivery, applyPendingDeliveries } from '../../../server/chat/delivery.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { chatPendingDeliveries, chatRoomMessages } from '../../../server/db/schema/index.ts'
import type { DeliveryReport } from '../../../server/chat/types.ts'
import { useTestApp } from '../helper.ts'
import { chatFixture, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))
let n = 0

/** An agent's message already sent, with its provider id. */
async function sentMessage(f: ChatFixture, status = 'accepted') {
  n++
  const inbound = await receiveInbound(f.deps, waText(f, `55119${String(70000000 + n)}`, 'oi'))
  const externalId = `wamid.out.${n}.${Date.now()}`
  const [row] = await f.deps.db
    .insert(chatRoomMessages)
    .values({
      uid: crypto.randomUUID(),
      siteId: f.siteId,
      roomId: inbound.roomId,
      channelId: f.whatsapp,
      sentBy: 'agent',
      userId: f.agent1,
      content: 'olá',
      status,
      externalId,
    })
    .returning()
  return { id: row!.id, externalId }
}

const report = (f: ChatFixture, externalId: string, status: DeliveryReport['status'], extra: Partial<DeliveryReport> = {}): DeliveryReport => ({
  siteId: f.siteId,
  channelId: f.whatsapp,
  externalId,
  status,
  at: new Date(),
  ...extra,
})

async function statusOf(f: ChatFixture, id: number) {
  return (await f.deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, id)))[0]!
}

describe('applyDelivery', () => {
  it('moves only forward: read before delivered stays read, a duplicate changes nothing', async () => {
    const f = await fixture()
    const m = await sentMessage(f)
    await applyDelivery(f.deps, report(f, m.externalId, 'received'))
    expect((await statusOf(f, m.id)).status).toBe('received')
    const revision = (await statusOf(f, m.id)).revision
    await applyDelivery(f.deps, report(f, m.externalId, 'received'))
    expect((await statusOf(f, m.id)).revision).toBe(revision)
    await applyDelivery(f.deps, report(f, m.externalId, 'consumed'))
    await applyDelivery(f.deps, report(f, m.externalId, 'dispatched'))
    await applyDelivery(f.deps, report(f, m.externalId, 'received'))
    expect((await statusOf(f, m.id)).status).toBe('consumed')
    await until(() => f.events.filter((e) => e.type === 'status' && e.message.id === m.id).length >= 2, 'the status events')
    const published = f.events.filter((e) => e.type === 'status' && e.message.id === m.id).map((e) => (e.type === 'status' ? e.message.status : null))
    expect(published).toEqual(['received', 'consumed'])
  })

  it('failed is terminal, with its code and reason; a failed after consumed is ignored', async () => {
    const f = await fixture()
    const m = await sentMessage(f)
    await applyDelivery(f.deps, report(f, m.externalId, 'failed', { error: { code: 131047, reason: 'Re-engagement message', external_error: true } }))
    await applyDelivery(f.deps, report(f, m.externalId, 'consumed'))
    expect(await statusOf(f, m.id)).toMatchObject({ status: 'failed', errorCode: 131047, errorReason: 'Re-engagement message', externalError: true })
    const read = await sentMessage(f)
    await applyDelivery(f.deps, report(f, read.externalId, 'consumed'))
    await applyDelivery(f.deps, report(f, read.externalId, 'failed', { error: { code: 1, reason: 'late', external_error: true } }))
    expect((await statusOf(f, read.id)).status).toBe('consumed')
  })

  it('a report days late for an old message is applied once, forward only', async () => {
    const f = await fixture()
    const m = await sentMessage(f, 'dispatched')
    await applyDelivery(f.deps, report(f, m.externalId, 'accepted', { at: new Date(Date.now() - 3 * 86_400_000) }))
    expect((await statusOf(f, m.id)).status).toBe('dispatched')
  })

  it('a status before the send response is stored waits, then is applied when the id arrives', async () => {
    const f = await fixture()
    const inbound = await receiveInbound(f.deps, waText(f, '5511955550000', 'oi'))
    const [row] = await f.deps.db
      .insert(chatRoomMessages)
      .values({ uid: crypto.randomUUID(), siteId: f.siteId, roomId: inbound.roomId, channelId: f.whatsapp, sentBy: 'agent', content: 'x', status: 'sending' })
      .returning()
    const externalId = 'wamid.early.1'
    await applyDelivery(f.deps, report(f, externalId, 'received'))
    await applyDelivery(f.deps, report(f, externalId, 'dispatched'))
    expect(await f.deps.db.select().from(chatPendingDeliveries).where(eq(chatPendingDeliveries.externalId, externalId))).toHaveLength(2)
    // The dispatcher stores the send call's answer, then applies what waited.
    await f.deps.db.update(chatRoomMessages).set({ externalId, status: 'accepted' }).where(eq(chatRoomMessages.id, row!.id))
    await applyPendingDeliveries(f.deps, f.whatsapp, externalId)
    expect((await statusOf(f, row!.id)).status).toBe('received')
    expect(await f.deps.db.select().from(chatPendingDeliveries).where(eq(chatPendingDeliveries.externalId, externalId))).toHaveLength(0)
  })
})
