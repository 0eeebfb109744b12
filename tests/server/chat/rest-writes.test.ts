import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { CHAT_PATHS } from '../../../contract/api/chat.ts'
import type { ChatSendAnswer } from '../../../contract/api/chat-calls.ts'
import { message as text } from '../../../contract/messages.ts'
import { chatQueues, chatRoomMessages, chatRooms } from '../../../server/db/schema/index.ts'
import type { TestClient } from '../helper.ts'
import { signedIn, useTestApp } from '../helper.ts'
import { siteNamed } from '../agent/agent-helper.ts'
import { FAST_TIMINGS, listen, sessionCookie } from '../realtime/ws-helper.ts'
import { channel, message, openChat, reload, room, userId } from './chat-fixtures.ts'

// The chat calls that write, through the chat core and the ACD: send a message ("data.data is the message"), resend
// a failed one, close, unarchive, transfer — and the socket's answer of a ringing room. Another agent's room is 404.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
const api = (path: string) => `/api${path}`
let siteId: number
let agent1: number
let webchat: number
let agent: TestClient
let supervisor: TestClient

beforeAll(async () => {
  siteId = (await siteNamed(t.database.db, 'localhost')).id
  agent1 = await userId(t.database.db, siteId, 'agent1')
  webchat = await channel(t.database.db, siteId, 'webchat')
  agent = await signedIn(t.app, 'agent1')
  supervisor = await signedIn(t.app, 'supervisor')
})

describe('writes through the core', () => {
  it('sends a message (the answer’s data is the message), idempotent by uid, and resends a failed one', async () => {
    const db = t.database.db
    const target = await room(db, { siteId, channelId: webchat, userId: agent1 })
    await message(db, target, { content: 'oi, tudo bem?' })
    const uid = randomUUID()
    const sent = await agent.post(api(CHAT_PATHS.sendMessage(target.id)), { uid, content: 'Olá! Como posso ajudar?' })
    expect(sent.statusCode).toBe(200)
    const body = sent.json() as ChatSendAnswer
    expect(body).toMatchObject({ success: true, data: { uid, step: target.id, sent_by: 'agent', content: 'Olá! Como posso ajudar?' } })
    const again = (await agent.post(api(CHAT_PATHS.sendMessage(target.id)), { uid, content: 'Olá! Como posso ajudar?' })).json() as ChatSendAnswer
    expect(again.data.id).toBe(body.data.id)

    // Another agent may not write in agent1's room: not found, nothing written.
    const other = await signedIn(t.app, 'agent2')
    const refused = await other.post(api(CHAT_PATHS.sendMessage(target.id)), { content: 'intruso' })
    expect(refused.statusCode).toBe(404)
    const contents = (await db.select({ content: chatRoomMessages.content }).from(chatRoomMessages).where(eq(chatRoomMessages.roomId, target.id))).map(
      (r) => r.content,
    )
    expect(contents).not.toContain('intruso')

    // A failed message goes out again; a message of another room is not found here.
    await db.update(chatRoomMessages).set({ status: 'failed', errorReason: 'timeout' }).where(eq(chatRoomMessages.id, body.data.id))
    const resent = await agent.get(`${api(CHAT_PATHS.resend(target.id))}?message_id=${body.data.id}`)
    expect(resent.statusCode).toBe(200)
    expect((resent.json() as ChatSendAnswer).data.id).toBe(body.data.id)
    const elsewhere = await room(db, { siteId, channelId: webchat, userId: agent1 })
    expect((await agent.get(`${api(CHAT_PATHS.resend(elsewhere.id))}?message_id=${body.data.id}`)).statusCode).toBe(404)
  })

  it('closes the agent’s room, and unarchives an archived one', async () => {
    const db = t.database.db
    const open = await room(db, { siteId, channelId: webchat, userId: agent1 })
    expect((await agent.post(api(CHAT_PATHS.close(open.uid)))).json()).toEqual({ success: true })
    expect((await reload(db, open.id)).endedAt).not.toBeNull()

    const archived = await room(db, { siteId, channelId: webchat, userId: agent1, state: 'ended', archived: true })
    expect((await agent.get(api(CHAT_PATHS.unarchive(archived.id)))).json()).toEqual({ success: true })
    expect((await reload(db, archived.id)).archived).toBe(false)
  })

  it('transfers a room to a queue (success, detail); an ended one is refused with the spec’s text', async () => {
    const db = t.database.db
    const [queue] = await db.insert(chatQueues).values({ siteId, description: 'Suporte' }).returning()
    const target = await room(db, { siteId, channelId: webchat, userId: agent1 })
    await message(db, target, { content: 'quero falar com o suporte' })
    const moved = await supervisor.post(api(CHAT_PATHS.transfer(target.id)), { queue_id: queue!.id })
    expect(moved.statusCode).toBe(200)
    expect(moved.json()).toEqual({ success: true, detail: text('chatTransferred') })
    const [row] = await db.select({ queueId: chatRooms.queueId }).from(chatRooms).where(eq(chatRooms.id, target.id))
    expect(row!.queueId).toBe(queue!.id)
    const ended = await room(db, { siteId, channelId: webchat, userId: agent1, state: 'ended' })
    const refused = await agent.post(api(CHAT_PATHS.transfer(ended.id)), { queue_id: queue!.id })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ success: false, detail: text('chatTransferFailed') })
  })
})

describe('answering a ringing room over the socket', () => {
  it('makes it the agent’s; a second answer of a room no longer ringing is refused with the spec’s text', async () => {
    const db = t.database.db
    const base = await listen(t.app)
    const ringing = await room(db, { siteId, channelId: webchat, userId: agent1, state: 'offered' })
    const client = await openChat(base, { cookie: await sessionCookie(t.app, 'agent1') })
    client.send({ action: 'answer', step_id: ringing.id })
    const answered = await client.next('chat')
    expect(answered.room).toMatchObject({ id: ringing.id, status: 'active' })
    expect((await reload(db, ringing.id)).state).toBe('active')
    await db
      .update(chatRooms)
      .set({ state: 'offered', userId: await userId(db, siteId, 'agent2') })
      .where(eq(chatRooms.id, ringing.id))
    client.send({ action: 'answer', step_id: ringing.id })
    expect(await client.next('error')).toMatchObject({ request: 'answer', detail: text('chatAnswerFailed') })
    client.close()
  })
})
