import { beforeAll, describe, expect, it } from 'vitest'
import { pabxQueuesMembers } from '../../../server/db/schema/index.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { createCallControl } from '../../../server/telephony/control/index.ts'
import type { CallControlService } from '../../../server/telephony/control/index.ts'
import { demo, fromTrunk, newCallId, setAgent, stepsOf } from '../call-control-helper.ts'
import { chatFixture, roomRow, waText } from '../chat/chat-helper.ts'
import { useTestApp } from '../helper.ts'

// Calls and chats keep the CRM client their number matched when they ring or arrive (the agent's card and the
// client's timeline read it), whatever way the number is written.

const t = useTestApp()
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService
let clientId: number
let queueDid = ''

beforeAll(async () => {
  d = await demo(t.database.db)
  control = createCallControl({ db: t.database.db, now: () => new Date(), random: () => 0 })
  await setAgent(t.database.db, d.agent1, 'not_inuse')
  await t.database.db.update(pabxQueuesMembers).set({ penalty: 0 })
  const inbound = await d.seed('pabx.inbound-routes', { description: 'CRM', destination: { app: 'queue', appdata: d.support.id } })
  queueDid = '551160001111'
  await d.seed('pabx.numbers', { number: queueDid, description: 'CRM', inbound_route: inbound })
  clientId = await d.seed('crm.clients', { name: 'Cliente Conhecido', phones: '+55 (11) 98765-4321' })
})

describe('a ringing call', () => {
  it('stores the client its caller id belongs to, on every step', async () => {
    const callId = newCallId()
    await control.route(fromTrunk(d.trunk.id, '011987654321', queueDid, callId))
    await control.settled()
    const steps = await stepsOf(t.database.db, callId)
    expect(steps.length).toBeGreaterThan(0)
    expect(steps.map((s) => s.clientId)).toEqual(steps.map(() => clientId))
  })

  it('stores no client for an unknown number', async () => {
    const callId = newCallId()
    await control.route(fromTrunk(d.trunk.id, '11900001111', queueDid, callId))
    await control.settled()
    expect((await stepsOf(t.database.db, callId))[0]?.clientId).toBeNull()
  })
})

describe('an arriving chat', () => {
  it('stores the client of the WhatsApp number, with or without the ninth digit', async () => {
    const f = await chatFixture(t)
    const known = await receiveInbound(f.deps, waText(f, '551187654321', 'Oi, sou eu'))
    expect((await roomRow(f, known.roomId)).clientId).toBe(clientId)
    const unknown = await receiveInbound(f.deps, waText(f, '5511955550000', 'Quem sou?'))
    expect((await roomRow(f, unknown.roomId)).clientId).toBeNull()
  })

  it("moves an open chat of an unknown number to the client created for it (the workspace's create client), not a finished one", async () => {
    const f = await chatFixture(t)
    const open = await receiveInbound(f.deps, waText(f, '5511944441111', 'Ainda não sou cliente'))
    const finished = await receiveInbound(f.deps, waText(f, '5511944442222', 'Conversa antiga'))
    const { chatRooms } = await import('../../../server/db/schema/index.ts')
    const { eq } = await import('drizzle-orm')
    await t.database.db.update(chatRooms).set({ finishedAt: new Date() }).where(eq(chatRooms.id, finished.roomId))
    expect((await roomRow(f, open.roomId)).clientId).toBeNull()
    // The new client holds both numbers, typed as an agent types them.
    const created = await d.seed('crm.clients', { name: 'Cliente Novo', phones: '(11) 94444-1111; +5511944442222' })
    expect((await roomRow(f, open.roomId)).clientId).toBe(created)
    expect((await roomRow(f, finished.roomId)).clientId).toBeNull()
  })
})
