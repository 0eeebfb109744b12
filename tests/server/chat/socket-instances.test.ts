import { beforeAll, describe, expect, it } from 'vitest'
import { siteNamed } from '../agent/agent-helper.ts'
import { useTwoInstances } from '../realtime/instances.ts'
import { sessionCookie } from '../realtime/ws-helper.ts'
import { announceMessage, channel, message, openChat, room, userId } from './chat-fixtures.ts'

// Two server instances on one database and one bus (Redis with TEST_REDIS_URL): the chat core's event published by
// one instance reaches the agent's socket held by the other, and a read mark on one updates the agent's tab on the
// other. An agent's socket never hears another agent's room on either instance.
const i = useTwoInstances()
let siteId: number
let agent1: number
let agent2: number

beforeAll(async () => {
  siteId = (await siteNamed(i.database.db, 'localhost')).id
  agent1 = await userId(i.database.db, siteId, 'agent1')
  agent2 = await userId(i.database.db, siteId, 'agent2')
})

describe('the chat socket across instances', () => {
  it('delivers an event published on one instance to the sockets held by the other, to their users only', async () => {
    const db = i.database.db
    const channelId = await channel(db, siteId)
    const mine = await room(db, { siteId, channelId, userId: agent1 })
    const theirs = await room(db, { siteId, channelId, userId: agent2 })
    const onB = await openChat(i.baseB, { cookie: await sessionCookie(i.a, 'agent1') })
    const otherOnB = await openChat(i.baseB, { cookie: await sessionCookie(i.a, 'agent2') })
    const tabOnA = await openChat(i.baseA, { cookie: await sessionCookie(i.a, 'agent1') })
    const supervisorOnA = await openChat(i.baseA, { cookie: await sessionCookie(i.b, 'supervisor') })
    supervisorOnA.send({ action: 'watch', step_id: theirs.id })
    await supervisorOnA.next('messages')

    // Instance A's core publishes; B's socket of agent1 hears it, B's socket of agent2 does not.
    const row = await message(db, mine, { content: 'via A' })
    await announceMessage(db, i.a.deps.bus, row, [agent1])
    expect((await onB.next('message')).message.id).toBe(row.id)
    expect((await tabOnA.next('message')).message.id).toBe(row.id)
    const secret = await message(db, theirs, { content: 'de agent2' })
    await announceMessage(db, i.b.deps.bus, secret, [agent2])
    expect((await otherOnB.next('message')).message.id).toBe(secret.id)
    // The supervisor watching on A hears agent2's room, published on B.
    expect((await supervisorOnA.next('message')).message.id).toBe(secret.id)
    await onB.roundTrip()
    expect(onB.received.some((f) => f.action === 'message')).toBe(false)

    // A read on A: the unread badge of the agent's tab on B follows.
    tabOnA.send({ action: 'read_message', step_id: mine.id })
    expect((await tabOnA.next('chat')).room.unread_messages).toEqual([])
    expect((await onB.next('chat')).room).toMatchObject({ id: mine.id, unread_messages: [] })
    await otherOnB.roundTrip()
    expect(otherOnB.received.some((f) => f.action === 'chat')).toBe(false)

    for (const socket of [onB, otherOnB, tabOnA, supervisorOnA]) socket.close()
  })
})
