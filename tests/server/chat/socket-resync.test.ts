import { beforeAll, describe, expect, it } from 'vitest'
import { eq, inArray } from 'drizzle-orm'
import { chatRoomMessages, chatRooms } from '../../../server/db/schema/index.ts'
import type { ChatServerMessage } from '../../../contract/realtime/chat-socket.ts'
import { consoleRooms } from '../../../server/routes/chat/queries.ts'
import { useTestApp } from '../helper.ts'
import { siteNamed } from '../agent/agent-helper.ts'
import { FAST_TIMINGS, listen, sessionCookie } from '../realtime/ws-helper.ts'
import type { ChatClient } from './chat-fixtures.ts'
import { announceMessage, announceRoom, channel, message, openChat, room, userId } from './chat-fixtures.ts'

// QUALITY.md test 12: a socket dropped in the middle of a burst of messages; after the reconnect the client asks for
// everything past its cursor and ends with exactly the server's set of rooms and messages.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
let base: string
let siteId: number
let agent1: number
let agent2: number

beforeAll(async () => {
  base = await listen(t.app)
  siteId = (await siteNamed(t.database.db, 'localhost')).id
  agent1 = await userId(t.database.db, siteId, 'agent1')
  agent2 = await userId(t.database.db, siteId, 'agent2')
})

/** What the console keeps: rooms and messages by id, and the highest revision it saw. */
class ConsoleState {
  rooms = new Set<number>()
  messages = new Map<number, number>()
  cursor = 0

  apply(frame: ChatServerMessage): void {
    switch (frame.action) {
      case 'chats':
        this.rooms = new Set(frame.rooms.map((r) => r.id))
        this.cursor = Math.max(this.cursor, frame.cursor)
        return
      case 'message':
        if (!this.rooms.has(frame.step_id)) return
        this.messages.set(frame.message.id, frame.step_id)
        this.cursor = Math.max(this.cursor, frame.message.revision)
        return
      case 'syncMessages':
        for (const r of frame.rooms) this.rooms.add(r.id)
        for (const m of frame.messages) this.messages.set(m.id, m.step)
        this.rooms = new Set(frame.room_ids)
        for (const [id, roomId] of this.messages) if (!this.rooms.has(roomId)) this.messages.delete(id)
        this.cursor = frame.cursor
        return
      default:
    }
  }

  follow(client: ChatClient): void {
    for (const frame of client.received) this.apply(frame)
    client.ws.on('message', (data) => this.apply(JSON.parse(data.toString()) as ChatServerMessage))
  }
}

describe('re-sync after a dropped socket', () => {
  it('leaves the client with exactly the server’s rooms and messages', async () => {
    const db = t.database.db
    const channelId = await channel(db, siteId)
    const rooms = [await room(db, { siteId, channelId, userId: agent1 }), await room(db, { siteId, channelId, userId: agent1 })]
    const leaving = await room(db, { siteId, channelId, userId: agent1 })
    await message(db, leaving, { content: 'antes' })
    const cookie = await sessionCookie(t.app, 'agent1')

    const state = new ConsoleState()
    const first = await openChat(base, { cookie })
    state.follow(first)
    // The console's first load: everything of its rooms (cursor 0).
    first.send({ action: 'sync', cursor: 0 })
    await first.next('syncMessages')
    expect(state.rooms.size).toBe(3)
    expect(state.messages.size).toBe(1)

    // The burst: 90 messages over two rooms, each announced as the core does; the socket drops once 15 went out,
    // with frames still in flight, and the burst goes on while it is down.
    let drop!: () => void
    const dropped = new Promise<void>((resolve) => (drop = resolve))
    const burst = (async () => {
      for (let i = 0; i < 90; i++) {
        if (i === 15) await dropped
        const target = rooms[i % 2]!
        const row = await message(db, target, { sentBy: i % 3 === 0 ? 'agent' : 'client', content: `m${i}` })
        await announceMessage(db, t.bus, row, [agent1])
        if (i === 45) {
          // While the socket is down, a room is transferred to another agent.
          await db.update(chatRooms).set({ userId: agent2 }).where(eq(chatRooms.id, leaving.id))
          await announceRoom(db, t.bus, leaving, [agent1, agent2])
        }
      }
    })()
    await expect.poll(() => state.messages.size, { timeout: 10_000 }).toBeGreaterThanOrEqual(5)
    first.ws.terminate()
    await first.closed
    drop()
    await burst
    const before = state.messages.size
    expect(before).toBeLessThan(17)

    // Reconnect and sync past the cursor until nothing is left.
    const second = await openChat(base, { cookie })
    state.follow(second)
    for (let rounds = 0; rounds < 10; rounds++) {
      second.send({ action: 'sync', cursor: state.cursor })
      const answer = await second.next('syncMessages')
      if (!answer.has_more) break
    }

    const serverRooms = await consoleRooms(db, siteId, agent1)
    const serverMessages = await db
      .select({ id: chatRoomMessages.id })
      .from(chatRoomMessages)
      .where(
        inArray(
          chatRoomMessages.roomId,
          serverRooms.map((r) => r.id),
        ),
      )
    expect([...state.rooms].sort((a, b) => a - b)).toEqual(serverRooms.map((r) => r.id).sort((a, b) => a - b))
    expect([...state.messages.keys()].sort((a, b) => a - b)).toEqual(serverMessages.map((m) => m.id).sort((a, b) => a - b))
    expect(state.messages.size).toBe(90)
    expect(state.rooms.has(leaving.id)).toBe(false)
    second.close()
  })
})
