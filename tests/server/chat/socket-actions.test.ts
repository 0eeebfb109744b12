import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { CHAT_SERVER_ACTIONS, readChatServerFrame } from '../../../contract/realtime/chat-socket.ts'
import type { ChatServerMessage } from '../../../contract/realtime/chat-socket.ts'
import { message as text } from '../../../contract/messages.ts'
import { chatRoomMessages, chatRooms } from '../../../server/db/schema/index.ts'
import { CHAT_CHANNEL, publishChatEvent } from '../../../server/chat/events.ts'
import { useTestApp } from '../helper.ts'
import { siteNamed } from '../agent/agent-helper.ts'
import { FAST_TIMINGS, apiToken, listen, refusal, sessionCookie } from '../realtime/ws-helper.ts'
import type { ChatClient } from './chat-fixtures.ts'
import { announceMessage, announceRoom, channel, message, openChat, room, userId } from './chat-fixtures.ts'

// The chat socket /ws/chat/ (spec 001 §7; QUALITY.md test 11): who may open it, what an agent hears (their rooms
// only), every client action answered with a frame of the contract, a supervisor watching a room.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
let base: string
let siteId: number
let agent1: number
let agent2: number
let whatsapp: number

beforeAll(async () => {
  base = await listen(t.app)
  siteId = (await siteNamed(t.database.db, 'localhost')).id
  agent1 = await userId(t.database.db, siteId, 'agent1')
  agent2 = await userId(t.database.db, siteId, 'agent2')
  whatsapp = await channel(t.database.db, siteId)
})

/** Every frame heard from the moment the socket opened, for the contract check. */
function recorded(client: ChatClient): ChatServerMessage[] {
  const all: ChatServerMessage[] = [...client.received]
  client.ws.on('message', (data) => all.push(JSON.parse(data.toString()) as ChatServerMessage))
  return all
}

describe('chat socket upgrade', () => {
  it('refuses a foreign Origin, a missing and an invalid credential; takes the token subprotocol', async () => {
    const cookie = await sessionCookie(t.app, 'agent1')
    const path = '/ws/chat/'
    expect(await refusal(base, { path, cookie, origin: 'https://evil.example' })).toBe(403)
    expect(await refusal(base, { path })).toBe(401)
    expect(await refusal(base, { path, protocols: ['token', 'f'.repeat(40)] })).toBe(401)
    expect(await refusal(base, { path, cookie: 'sessionid=forged' })).toBe(401)
    const token = await apiToken(t.app, 'agent1')
    const client = await openChat(base, { protocols: ['token', token] })
    expect(client.ws.protocol).toBe('token')
    await client.roundTrip()
    client.close()
  })
})

describe('an agent hears only their rooms', () => {
  it('lists, reads and hears its own rooms; another agent’s are not found and never heard', async () => {
    const db = t.database.db
    const mine = await room(db, { siteId, channelId: whatsapp, userId: agent1 })
    const theirs = await room(db, { siteId, channelId: whatsapp, userId: agent2 })
    const own = await message(db, mine, { content: 'meu' })
    const other = await message(db, theirs, { content: 'segredo' })
    const one = await openChat(base, { cookie: await sessionCookie(t.app, 'agent1') })
    const two = await openChat(base, { cookie: await sessionCookie(t.app, 'agent2') })

    one.send({ action: 'check_rooms' })
    const chats = await one.next('chats')
    const ids = chats.rooms.map((r) => r.id)
    expect(ids).toContain(mine.id)
    expect(ids).not.toContain(theirs.id)

    // The core's events name their users: agent2's message never reaches agent1's socket.
    await announceMessage(db, t.bus, other, [agent2])
    await announceMessage(db, t.bus, own, [agent1])
    expect((await two.next('message')).message.id).toBe(other.id)
    expect((await one.next('message')).message.id).toBe(own.id)
    await one.roundTrip()
    expect(one.received.filter((f) => f.action === 'message')).toEqual([])

    // Another agent's room, by id, is "not found" whatever the action; its messages' status is not told.
    for (const frame of [
      { action: 'get_messages', step_id: theirs.id },
      { action: 'read_message', step_id: theirs.id },
      { action: 'hangup', step_id: theirs.id },
    ]) {
      one.send(frame)
      const error = await one.next('error')
      expect(error).toMatchObject({ request: frame.action, detail: text('notFound'), step_id: theirs.id })
    }
    one.send({ action: 'get_message_status', ids: [other.id, own.id] })
    expect((await one.next('messageStatus')).messages.map((m) => m.id)).toEqual([own.id])
    one.send({ action: 'watch', step_id: theirs.id })
    expect(await one.next('error')).toMatchObject({ request: 'watch', detail: text('permissionDenied') })
    const [unread] = await db.select({ read: chatRoomMessages.readByAgent }).from(chatRoomMessages).where(eq(chatRoomMessages.id, other.id))
    expect(unread!.read).toBe(false)
    one.close()
    two.close()
  })

  it('lets a supervisor watch a room and hear its events until unwatched', async () => {
    const db = t.database.db
    const target = await room(db, { siteId, channelId: whatsapp, userId: agent2 })
    const first = await message(db, target, { content: 'primeira' })
    const sup = await openChat(base, { cookie: await sessionCookie(t.app, 'supervisor') })
    sup.send({ action: 'watch', step_id: target.id })
    expect((await sup.next('chat')).room.id).toBe(target.id)
    expect((await sup.next('messages')).messages.map((m) => m.id)).toEqual([first.id])
    const second = await message(db, target, { content: 'segunda' })
    await announceMessage(db, t.bus, second, [agent2])
    expect((await sup.next('message')).message.content).toBe('segunda')
    sup.send({ action: 'unwatch', step_id: target.id })
    expect(await sup.next('removeChat')).toMatchObject({ step_id: target.id, reason: 'unwatched' })
    const third = await message(db, target, { content: 'terceira' })
    await announceMessage(db, t.bus, third, [agent2])
    await sup.roundTrip()
    expect(sup.received.some((f) => f.action === 'message')).toBe(false)
    sup.close()
  })
})

describe('every client action', () => {
  it('is answered with frames the contract reads; unknown actions are ignored, invalid ones refused', async () => {
    const db = t.database.db
    const active = await room(db, { siteId, channelId: whatsapp, userId: agent1, title: 'Ativa' })
    const offered = await room(db, { siteId, channelId: whatsapp, userId: agent1, state: 'offered', title: 'Tocando' })
    const m1 = await message(db, active, { content: 'um' })
    const m2 = await message(db, active, { content: 'dois' })
    const reply = await message(db, active, { sentBy: 'agent', content: 'resposta' })
    const client = await openChat(base, { cookie: await sessionCookie(t.app, 'agent1') })
    const seen = recorded(client)

    client.send({ action: 'ping' })
    await client.next('pong')
    client.send({ action: 'check_rooms' })
    const { rooms, cursor } = await client.next('chats')
    const listed = rooms.find((r) => r.id === active.id)!
    expect(listed.unread_messages).toEqual([m1.id, m2.id])
    expect(cursor).toBeGreaterThanOrEqual(reply.revision)

    client.send({ action: 'count_unread_all_messages' })
    const before = (await client.next('unreadAllMessages')).count
    expect(before).toBeGreaterThanOrEqual(2)

    client.send({ action: 'get_messages', step_id: active.id, limit: 2 })
    const page = await client.next('messages')
    expect(page).toMatchObject({ step_id: active.id, has_more: true })
    expect(page.messages.map((m) => m.id)).toEqual([m2.id, reply.id])
    client.send({ action: 'get_messages', step_id: active.id, before: m2.id })
    expect((await client.next('messages')).messages.map((m) => m.id)).toEqual([m1.id])

    client.send({ action: 'get_message_status', ids: [reply.id] })
    expect((await client.next('messageStatus')).messages[0]).toMatchObject({ id: reply.id, status: 'accepted' })

    // Read up to the first message: the room comes back (through the bus, to every tab) with one unread left.
    client.send({ action: 'read_message', step_id: active.id, up_to: m1.id })
    expect((await client.next('chat')).room.unread_messages).toEqual([m2.id])
    client.send({ action: 'read_message', step_id: active.id })
    expect((await client.next('chat')).room.unread_messages).toEqual([])
    client.send({ action: 'count_unread_all_messages' })
    expect((await client.next('unreadAllMessages')).count).toBe(before - 2)
    // Each message read is a status change on the bus too (the website visitor sees it read).
    const statuses = client.received.filter((f) => f.action === 'messageStatus').flatMap((f) => (f.action === 'messageStatus' ? f.messages : []))
    expect(statuses.filter((m) => m.read).map((m) => m.id)).toEqual(expect.arrayContaining([m1.id, m2.id]))

    // Typing in a room of theirs reaches the bus for the visitor's widget (no answer to the agent).
    const typed = new Promise<unknown>((resolve) => {
      void t.bus.subscribe(CHAT_CHANNEL, (event) => {
        if ((event as { type?: string }).type === 'typing') resolve(event)
      })
    })
    client.send({ action: 'typing', step_id: active.id })
    expect(await typed).toMatchObject({ type: 'typing', room_id: active.id, from: 'agent' })

    // Answering a room that is not ringing for the agent: the spec's text. Hanging up an answered one: refused.
    client.send({ action: 'answer', step_id: 999_999_999 })
    expect(await client.next('error')).toMatchObject({ request: 'answer', detail: text('chatAnswerFailed'), step_id: 999_999_999 })
    client.send({ action: 'answer', step_id: active.id })
    expect((await client.next('chat')).room.id).toBe(active.id)
    client.send({ action: 'hangup', step_id: active.id })
    expect(await client.next('error')).toMatchObject({ request: 'hangup', detail: text('chatHangupAnswered') })
    client.send({ action: 'hangup', step_id: offered.id })
    expect(await client.next('removeChat')).toMatchObject({ step_id: offered.id, reason: 'declined' })

    client.send({ action: 'sync', cursor })
    const sync = await client.next('syncMessages')
    expect(sync.room_ids).toContain(active.id)
    expect(sync.messages.map((m) => m.id)).toEqual(expect.arrayContaining([m1.id, m2.id]))
    expect(sync.cursor).toBeGreaterThan(cursor)

    // The core's room events: an ended room is `end`; a withdrawn offer `noAnswer`; a removed one `removeChat`.
    await announceRoom(db, t.bus, active, [agent1])
    expect((await client.next('chat')).room.status).toBe('active')
    await db.update(chatRooms).set({ state: 'ended', endedAt: new Date() }).where(eq(chatRooms.id, active.id))
    await announceRoom(db, t.bus, active, [agent1])
    expect((await client.next('end')).step_id).toBe(active.id)
    await publishChatEvent(t.bus, { type: 'withdrawn', site_id: siteId, users: [agent1], room_id: offered.id, reason: 'no_answer' })
    expect(await client.next('noAnswer')).toEqual({ action: 'noAnswer', step_id: offered.id })
    await publishChatEvent(t.bus, { type: 'removed', site_id: siteId, users: [agent1], room_id: active.id })
    expect(await client.next('removeChat')).toMatchObject({ step_id: active.id, reason: 'removed' })
    await publishChatEvent(t.bus, { type: 'typing', site_id: siteId, users: [agent1], room_id: active.id, from: 'client' })
    await client.next('typing')
    await announceMessage(db, t.bus, await message(db, active, { content: 'mais uma' }), [agent1])
    expect((await client.next('message')).message.content).toBe('mais uma')
    await publishChatEvent(t.bus, { type: 'status', site_id: siteId, users: [agent1], room_id: active.id, message: page.messages[1]! })
    await client.next('messageStatus')

    // Unknown actions are ignored (spec 001 §7); a known one with bad fields, or not JSON, is refused.
    client.send({ action: 'mystery', step_id: 1 })
    await client.roundTrip()
    client.send({ action: 'get_messages', step_id: 'x' })
    expect(await client.next('error')).toMatchObject({ request: 'get_messages', errors: { step_id: expect.any(Array) } })
    client.send({ action: 'read_message', step_id: active.id, ids: [] })
    expect(await client.next('error')).toMatchObject({ request: 'read_message' })
    client.send('{not json')
    await client.next('error')
    client.send({ action: 'server_pong' })
    await client.roundTrip()

    for (const frame of seen) expect(readChatServerFrame(frame), JSON.stringify(frame)).toMatchObject({ kind: 'message' })
    const actions = new Set(seen.map((f) => f.action))
    // Every action of the contract is heard here, but the host's own (serverPing, logout: tests/server/realtime).
    expect(CHAT_SERVER_ACTIONS.filter((a) => !actions.has(a)).sort()).toEqual(['logout', 'serverPing'])
    client.close()
  })
})
