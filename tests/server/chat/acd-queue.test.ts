import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { chatOutbox, chatRooms, serviceCalendars, serviceCalendarsHours } from '../../../server/db/schema/index.ts'
import { enqueueRoom, queuePositions, transferRoom } from '../../../server/chat/acd/queue.ts'
import { routeNewRoom } from '../../../server/chat/acd/route.ts'
import { sweepOnce } from '../../../server/chat/acd/sweep.ts'
import { chatMessages, chatBots } from '../../../server/db/schema/index.ts'
import { useTestApp } from '../helper.ts'
import { chatWorld } from './acd-fixture.ts'

// Waiting in a chat queue: position and estimated wait, announcements, the maximum wait's actions, transfers, and
// where the channel's inbound rule sends a new room.
const t = useTestApp({ seed: false })

async function waitingWorld(values: Parameters<Awaited<ReturnType<typeof chatWorld>>['queue']>[0] = {}) {
  const w = await chatWorld(t)
  const channel = await w.channel()
  const queue = await w.queue(values)
  await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
  const newRoom = async () => {
    const room = await w.room(channel.id)
    await routeNewRoom(w.deps, room.id)
    return w.roomRow(room.id)
  }
  return { w, channel, queue, newRoom }
}

describe('position and estimated wait', () => {
  it('positions count from the oldest waiting room; EWT = mean recent wait × position, null without history', async () => {
    const { w, queue, newRoom } = await waitingWorld()
    const a = await newRoom()
    const b = await newRoom()
    let places = await queuePositions(w.deps, w.siteId, queue.id)
    expect(places.get(a.id)).toEqual({ position: 1, estimated_wait: null })
    expect(places.get(b.id)).toEqual({ position: 2, estimated_wait: null })
    // Two rooms answered after waiting 10 s and 30 s: mean 20 s.
    const now = Date.now()
    for (const wait of [10, 30]) {
      const done = await w.room(a.channelId, {
        state: 'ended',
        queueId: queue.id,
        queuedAt: new Date(now - 60_000 - wait * 1000),
        answeredAt: new Date(now - 60_000),
        endedAt: new Date(now),
      })
      expect(done.id).toBeGreaterThan(0)
    }
    places = await queuePositions(w.deps, w.siteId, queue.id)
    expect(places.get(a.id)).toEqual({ position: 1, estimated_wait: 20 })
    expect(places.get(b.id)).toEqual({ position: 2, estimated_wait: 40 })
  })
})

describe('announcements', () => {
  it('on entry: the message with {position} filled, sent to the customer once', async () => {
    const { w, newRoom } = await waitingWorld({ announcement: 'entry', announcementType: 'position', announcementMessage: 'Você é o {position}º da fila' })
    await newRoom()
    const second = await newRoom()
    const messages = await w.messagesOf(second.id)
    expect(messages.map((m) => [m.content, m.sentBy, m.visible])).toEqual([['Você é o 2º da fila', 'system', true]])
    const [outbox] = await w.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, messages[0]!.id))
    expect(outbox?.recipient).toBe(second.address)
  })

  it('periodic: one message per elapsed period, never twice for one period', async () => {
    const { w, newRoom } = await waitingWorld({ announcement: 'periodic', announcementMessage: 'Aguarde, posição {position}', announcementFrequency: 10 })
    const room = await newRoom()
    expect(await w.messagesOf(room.id)).toHaveLength(0)
    await w.age(room.id, 25)
    await sweepOnce(w.deps)
    await sweepOnce(w.deps)
    expect((await w.messagesOf(room.id)).map((m) => m.content)).toEqual(['Aguarde, posição 1'])
    await w.age(room.id, 10)
    await Promise.all([sweepOnce(w.deps), sweepOnce(w.deps)])
    expect(await w.messagesOf(room.id)).toHaveLength(2)
  })
})

describe('maximum wait', () => {
  it('send_message: the time-out message once, the room keeps waiting', async () => {
    const { w, newRoom } = await waitingWorld({ maxWaitTime: 60, actionWhenTimeExpires: 'send_message', timeExpiresMessage: 'Estamos com alta demanda' })
    const room = await newRoom()
    await sweepOnce(w.deps)
    expect(await w.messagesOf(room.id)).toHaveLength(0)
    await w.age(room.id, 61)
    await sweepOnce(w.deps)
    await sweepOnce(w.deps)
    expect((await w.messagesOf(room.id)).map((m) => m.content)).toEqual(['Estamos com alta demanda'])
    expect((await w.roomRow(room.id)).state).toBe('queued')
  })

  it('overflow: the room moves to the destination queue and is offered there', async () => {
    const w = await chatWorld(t)
    const team = await w.team({ autoAnswer: true })
    const agent = await w.agent({ teamId: team.id })
    const channel = await w.channel()
    const backup = await w.queue({}, [agent.id])
    const queue = await w.queue({ maxWaitTime: 30, actionWhenTimeExpires: 'overflow', overflowApp: 'queue', overflowAppdata: String(backup.id) })
    await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
    const room = await w.room(channel.id)
    await routeNewRoom(w.deps, room.id)
    await w.age(room.id, 31)
    await Promise.all([sweepOnce(w.deps), sweepOnce(w.deps)])
    const moved = await w.roomRow(room.id)
    expect([moved.queueId, moved.state, moved.userId]).toEqual([backup.id, 'active', agent.id])
  })

  it('close: the room ends', async () => {
    const { w, newRoom } = await waitingWorld({ maxWaitTime: 5, actionWhenTimeExpires: 'close' })
    const room = await newRoom()
    await w.age(room.id, 6)
    await sweepOnce(w.deps)
    const ended = await w.roomRow(room.id)
    expect([ended.state, ended.endedBy]).toEqual(['ended', 'timeout'])
    expect(ended.endedAt).not.toBeNull()
  })

  it('nothing: the room keeps waiting', async () => {
    const { w, newRoom } = await waitingWorld({ maxWaitTime: 5, actionWhenTimeExpires: 'nothing' })
    const room = await newRoom()
    await w.age(room.id, 60)
    await sweepOnce(w.deps)
    expect((await w.roomRow(room.id)).state).toBe('queued')
  })
})

describe('transfer', () => {
  async function servedWorld() {
    const w = await chatWorld(t)
    const team = await w.team({ autoAnswer: true, limit: 3 })
    const first = await w.agent({ teamId: team.id, name: 'Ana' })
    const second = await w.agent({ teamId: team.id, name: 'Bia' })
    const channel = await w.channel()
    const queue = await w.queue({}, [first.id])
    const other = await w.queue({ description: 'Vendas' }, [first.id, second.id])
    await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
    const room = await w.room(channel.id)
    await routeNewRoom(w.deps, room.id)
    expect((await w.roomRow(room.id)).userId).toBe(first.id)
    return { w, first, second, queue, other, room }
  }

  it('to an agent: the room is theirs (active), the previous agent loses it, a hidden note records it', async () => {
    const { w, first, second, room } = await servedWorld()
    const result = await transferRoom(w.deps, { siteId: w.siteId, byUserId: first.id, supervisor: false, roomId: room.id, to: { user_id: second.id } })
    expect(result.ok).toBe(true)
    const moved = await w.roomRow(room.id)
    expect([moved.state, moved.userId]).toEqual(['active', second.id])
    await w.settled()
    expect(w.eventsOf('removed', first.id)).toMatchObject([{ room_id: room.id }])
    expect(w.eventsOf('room', second.id)).toHaveLength(1)
    const notes = await w.messagesOf(room.id)
    expect(notes.map((m) => [m.type, m.visible, m.content])).toEqual([['system', false, expect.stringContaining('Bia')]])
  })

  it('to a queue: waiting there again, offered to another agent than the previous one first', async () => {
    const { w, first, second, other, room } = await servedWorld()
    const result = await transferRoom(w.deps, { siteId: w.siteId, byUserId: first.id, supervisor: false, roomId: room.id, to: { queue_id: other.id } })
    expect(result.ok).toBe(true)
    const moved = await w.roomRow(room.id)
    expect([moved.queueId, moved.userId, moved.state]).toEqual([other.id, second.id, 'active'])
    await w.settled()
    expect(w.eventsOf('removed', first.id)).toHaveLength(1)
    expect((await w.messagesOf(room.id)).map((m) => m.content)).toEqual([expect.stringContaining('Vendas')])
  })

  it("refusals: another agent's room (403), unknown room (404), an agent signed out (400), an ended room (400); a supervisor may", async () => {
    const { w, first, second, room } = await servedWorld()
    const input = { siteId: w.siteId, roomId: room.id, to: { user_id: first.id } }
    expect(await transferRoom(w.deps, { ...input, byUserId: second.id, supervisor: false })).toEqual({ ok: false, status: 403, key: 'permissionDenied' })
    expect(await transferRoom(w.deps, { ...input, roomId: room.id + 10_000, byUserId: first.id, supervisor: true })).toMatchObject({ status: 404 })
    const away = await w.agent({ loggedIn: false })
    expect(await transferRoom(w.deps, { ...input, byUserId: first.id, supervisor: false, to: { user_id: away.id } })).toEqual({
      ok: false,
      status: 400,
      key: 'chatTransferUnavailable',
    })
    expect((await transferRoom(w.deps, { ...input, byUserId: second.id, supervisor: true, to: { user_id: second.id } })).ok).toBe(true)
    await w.close(room.id)
    expect(await transferRoom(w.deps, { ...input, byUserId: second.id, supervisor: true })).toEqual({ ok: false, status: 400, key: 'chatTransferFailed' })
  })
})

describe('routing a new room', () => {
  it('out of the calendar hours the closed destination applies; no inbound rule leaves the room unrouted', async () => {
    const w = await chatWorld(t)
    const channel = await w.channel()
    const open = await w.queue()
    const closed = await w.queue()
    const [calendar] = await w.db.insert(serviceCalendars).values({ siteId: w.siteId, description: 'never', timezone: 'UTC' }).returning()
    // Open one minute a week, on a day that is not today.
    const weekday = (new Date().getUTCDay() + 3) % 7
    await w.db.insert(serviceCalendarsHours).values({ siteId: w.siteId, calendarId: calendar!.id, weekday, start: '03:00', end: '03:01' })
    await w.inbound(
      channel.id,
      { app: 'queue', appdata: String(open.id) },
      { calendarId: calendar!.id, closedDestinationApp: 'queue', closedDestinationAppdata: String(closed.id) },
    )
    const room = await w.room(channel.id)
    expect(await routeNewRoom(w.deps, room.id)).toEqual({ kind: 'queued', queueId: closed.id })

    const bare = await w.channel()
    const lost = await w.room(bare.id)
    expect(await routeNewRoom(w.deps, lost.id)).toEqual({ kind: 'unrouted', reason: 'no-inbound' })
    expect((await w.roomRow(lost.id)).state).toBe('new')
    expect(await routeNewRoom(w.deps, room.id)).toEqual({ kind: 'skipped' })
  })

  it("a canned message destination sends it and ends the room; close ends it; a bot's room takes the bot's fallback", async () => {
    const w = await chatWorld(t)
    const [canned] = await w.db.insert(chatMessages).values({ siteId: w.siteId, description: 'fora', content: 'Atendemos das 8h às 18h' }).returning()
    const messageChannel = await w.channel()
    await w.inbound(messageChannel.id, { app: 'message', appdata: String(canned!.id) })
    const room = await w.room(messageChannel.id)
    expect(await routeNewRoom(w.deps, room.id)).toEqual({ kind: 'ended' })
    expect((await w.messagesOf(room.id)).map((m) => m.content)).toEqual(['Atendemos das 8h às 18h'])
    expect((await w.roomRow(room.id)).state).toBe('ended')

    const closeChannel = await w.channel()
    await w.inbound(closeChannel.id, { app: 'close', appdata: '' })
    const closing = await w.room(closeChannel.id)
    expect(await routeNewRoom(w.deps, closing.id)).toEqual({ kind: 'ended' })

    const queue = await w.queue()
    const [bot] = await w.db
      .insert(chatBots)
      .values({ siteId: w.siteId, description: 'bot', url: 'https://bot.test/', fallbackApp: 'queue', fallbackAppdata: String(queue.id) })
      .returning()
    const botChannel = await w.channel()
    await w.inbound(botChannel.id, { app: 'bot', appdata: String(bot!.id) })
    const botRoom = await w.room(botChannel.id)
    expect(await routeNewRoom(w.deps, botRoom.id)).toEqual({ kind: 'queued', queueId: queue.id })
  })

  it('enqueueRoom refuses a queue of another site or inactive', async () => {
    const w = await chatWorld(t)
    const channel = await w.channel()
    const inactive = await w.queue({ isActive: false })
    const room = await w.room(channel.id)
    expect(await enqueueRoom(w.deps, { siteId: w.siteId, roomId: room.id, queueId: inactive.id })).toBeNull()
    const [row] = await w.db
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.id, room.id)))
    expect(row?.state).toBe('new')
  })
})
