import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { sendAgentMessage } from '../../../../server/chat/outbound.ts'
import { publishChatEvent } from '../../../../server/chat/events.ts'
import { closeRoom } from '../../../../server/chat/lifecycle.ts'
import { chatRoomMessages, chatRooms, users } from '../../../../server/db/schema/index.ts'
import type { ChatMessage } from '../../../../contract/api/chat.ts'
import { useTestApp } from '../../helper.ts'
import { listen } from '../../realtime/ws-helper.ts'
import { PNG, connectVisitor, demoChannel, multipart, newSession } from './visitor-helper.ts'

// The widget end to end with the chat core: a visitor's message is an inbound message of one room per visitor (the
// same uid re-sent leaves one message, QUALITY 10), an agent's message goes through the outbox and the webchat driver
// to the visitor's socket, and the statuses come back (received when the widget got it, consumed when read).
const t = useTestApp({
  config: {
    webchat: {
      secretKey: 'test-secret-test-secret-test-secret',
      maxUploadBytes: 1024 * 1024,
      limits: {
        sessionsPerAddress: { burst: 100, perSecond: 10 },
        messagesPerVisitor: { burst: 100, perSecond: 10 },
        messagesPerAddress: { burst: 100, perSecond: 10 },
      },
    },
  },
})
let base: string
let token: string
let channelId: number
let siteId: number
let agentId: number

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const start = Date.now()
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

beforeAll(async () => {
  base = await listen(t.app)
  const demo = await demoChannel(t.database.db)
  channelId = demo.id
  siteId = demo.siteId
  token = t.app.webchat.keys.publicToken(demo.id)
  const [agent] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'agent1'))
  agentId = agent!.id
})

describe('visitor ↔ chat core', () => {
  it('opens one room per visitor, keeps one message per uid, and carries an attachment', async () => {
    const session = await newSession(t.app, token, { name: 'Ana Souza', email: 'ana@example.com' })
    const { visitor } = await connectVisitor(base, token, session.token)
    visitor.send({ action: 'message', uid: '11111111-aaaa-4aaa-8aaa-111111111111', content: 'Olá' })
    const first = await visitor.next('message')
    expect(first.message).toMatchObject({ uid: '11111111-aaaa-4aaa-8aaa-111111111111', sent_by: 'client', content: 'Olá', status: 'sent' })
    visitor.send({ action: 'message', uid: '11111111-aaaa-4aaa-8aaa-111111111111', content: 'Olá' })
    expect((await visitor.next('message')).message.id).toBe(first.message.id)

    const upload = multipart('file', 'bolo.png', PNG)
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/widget/attachments/${token}`,
      headers: { host: 'localhost', 'content-type': upload.contentType, 'x-visitor-token': session.token },
      payload: upload.body,
    })
    const file = uploaded.json() as { id: string }
    visitor.send({ action: 'message', uid: '22222222-aaaa-4aaa-8aaa-222222222222', attachment: file.id })
    const photo = await visitor.next('message')
    expect(photo.message).toMatchObject({ type: 'photo', attachment_name: 'bolo.png' })
    expect(photo.message.attachment).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/widget/files/${channelId}/${session.visitor_id}/${file.id}$`))

    const rooms = await t.database.db
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.channelId, channelId), eq(chatRooms.contact, session.visitor_id)))
    expect(rooms).toHaveLength(1)
    expect(rooms[0]).toMatchObject({ title: 'Ana Souza', email: 'ana@example.com' })
    const stored = await t.database.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.roomId, rooms[0]!.id))
    expect(stored.map((m) => [m.sentBy, m.type, m.content])).toEqual([
      ['client', 'text', 'Olá'],
      ['client', 'photo', ''],
    ])
    visitor.close()
  })

  it("delivers an agent's message to the widget with their name, and reports received then consumed", async () => {
    const session = await newSession(t.app, token, { name: 'Bruno', email: 'bruno@example.com' })
    const { visitor } = await connectVisitor(base, token, session.token)
    visitor.send({ action: 'message', uid: '33333333-aaaa-4aaa-8aaa-333333333333', content: 'Preciso de ajuda' })
    const asked = await visitor.next('message')
    const [room] = await t.database.db
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.channelId, channelId), eq(chatRooms.contact, session.visitor_id)))
    // The ACD's answer, by hand: the room is agent1's.
    await t.database.db.update(chatRooms).set({ userId: agentId, state: 'active', answeredAt: new Date() }).where(eq(chatRooms.id, room!.id))

    const sent = await sendAgentMessage(t.app.deps, { siteId, userId: agentId, roomId: room!.id, body: { content: 'Claro, Bruno!' } })
    const got = await visitor.next('message', (m) => m.message.sent_by === 'agent')
    expect(got.message).toMatchObject({ id: sent.id, content: 'Claro, Bruno!', sent_by: 'agent' })
    expect(got.message.name).toBeTruthy()
    const status = async () =>
      (await t.database.db.select({ status: chatRoomMessages.status }).from(chatRoomMessages).where(eq(chatRoomMessages.id, sent.id)))[0]!.status
    await until(status, (s) => s === 'received')
    visitor.send({ action: 'read', up_to: sent.id })
    await until(status, (s) => s === 'consumed')

    // The agent read the visitor's message (what the chat socket publishes): the widget shows it read.
    const readMessage = { id: asked.message.id, sent_by: 'client', read: true } as unknown as ChatMessage
    await publishChatEvent(t.app.deps.bus, { type: 'status', site_id: siteId, users: [agentId], room_id: room!.id, message: readMessage })
    expect(await visitor.next('status')).toEqual({ action: 'status', ids: [asked.message.id], status: 'read' })
    await publishChatEvent(t.app.deps.bus, { type: 'typing', site_id: siteId, users: [], room_id: room!.id, from: 'agent' })
    expect((await visitor.next('typing')).typing).toBe(true)

    // The agent closes the room: the widget says so.
    await closeRoom(t.app.deps, { siteId, roomId: room!.id, byUserId: agentId })
    await visitor.next('ended')

    // A reload resumes: the whole conversation, the agent named.
    visitor.close()
    const again = await connectVisitor(base, token, session.token)
    expect(again.history.map((m) => m.sent_by)).toEqual(['client', 'agent'])
    again.visitor.close()
  })
})
