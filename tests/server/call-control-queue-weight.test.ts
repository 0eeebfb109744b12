import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { appTarget } from '../../contract/codes/transfer.ts'
import { callRecords, pabxQueues, pabxQueuesMembers } from '../../server/db/schema/index.ts'
import { fromDevice, newCallId, setAgent, useCallControl } from './call-control-helper.ts'
import { useTestApp } from './helper.ts'

// Queue weight: an agent in several queues is kept for the heavier one while callers wait there — a lighter queue's
// call goes to the other members first, and to that agent only when nobody else can take it.

const t = useTestApp()
const clock = new Date('2025-03-03T13:00:00Z')
const { state, event } = useCallControl(() => t.database.db, clock)

describe('queue weight', () => {
  it("offers a lighter queue's call to the members a heavier queue with a waiting caller does not count on", async () => {
    const db = t.database.db
    const { d } = state
    // Support rings one member at a time, agent2 first (signed in first); agent2 also serves the heavier sales queue.
    await db.update(pabxQueues).set({ strategy: 'linear', weight: 0 }).where(eq(pabxQueues.id, d.support.id))
    await db.update(pabxQueues).set({ weight: 10 }).where(eq(pabxQueues.id, d.sales.id))
    await db.update(pabxQueuesMembers).set({ penalty: 0 }).where(eq(pabxQueuesMembers.queueId, d.support.id))
    await db.delete(pabxQueuesMembers).where(eq(pabxQueuesMembers.queueId, d.sales.id))
    await db.insert(pabxQueuesMembers).values({ siteId: d.site.id, queueId: d.sales.id, userId: d.agent2.id })
    await db.execute(`update users set last_login = '2025-03-03T08:00:00Z' where id = ${d.agent2.id}`)
    await db.execute(`update users set last_login = '2025-03-03T09:00:00Z' where id = ${d.agent1.id}`)
    await setAgent(db, d.agent1, 'not_inuse')
    await setAgent(db, d.agent2, 'not_inuse')
    await d.seed('pabx.devices', { username: '10095', secret: 'Ramal10095!', description: 'Mesa', codecs: ['PCMU'], transport: 'wss', dtmf_mode: 'rfc4733' })
    const callSupport = () => state.control.route(fromDevice('10095', appTarget('queue', d.support.id), newCallId()))

    // Nobody waits in sales: agent2 comes first.
    const first = newCallId()
    expect(await state.control.route(fromDevice('10095', appTarget('queue', d.support.id), first))).toMatchObject({
      action: 'relay',
      ruri: 'sip:10002@localhost',
    })
    await event(first, 'ended')

    // A caller waits in sales: support's call goes to agent1.
    const waiting = newCallId()
    await db.insert(callRecords).values({
      siteId: d.site.id,
      callId: waiting,
      step: 1,
      uid: randomUUID(),
      direction: 'inbound',
      callType: 20,
      kind: 'queue',
      queueId: d.sales.id,
      startedAt: clock,
      decision: { action: 'reject', code: 480, reason: 'test' },
    })
    const second = await callSupport()
    expect(second).toMatchObject({ action: 'relay', ruri: 'sip:10001@localhost' })

    // agent1 now busy with that call: agent2 is the only one left, so support still gets agent2.
    expect(await callSupport()).toMatchObject({ action: 'relay', ruri: 'sip:10002@localhost' })
  })
})
