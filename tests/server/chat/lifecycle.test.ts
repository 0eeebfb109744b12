import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { archiveRoom, closeRoom, sweepInactiveRooms, unarchiveRoom } from '../../../server/chat/lifecycle.ts'
import { loadRoom } from '../../../server/chat/serialize.ts'
import { chatRooms, teams, users } from '../../../server/db/schema/index.ts'
import { registerAudienceHook } from '../../../server/chat/events.ts'
import { HttpError } from '../../../server/errors/http-error.ts'
import { useTestApp } from '../helper.ts'
import { assign, chatFixture, roomRow, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))
let n = 0

async function agentRoom(f: ChatFixture, userId: number) {
  n++
  const inbound = await receiveInbound(f.deps, waText(f, `55419${String(50000000 + n)}`, 'oi'))
  await assign(f, inbound.roomId, userId)
  return inbound.roomId
}

describe('room lifecycle', () => {
  it('the agent closes their room: ended, by agent, published; another agent may not; closing twice changes nothing', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f, f.agent1)
    const { uid } = await roomRow(f, roomId)
    await expect(closeRoom(f.deps, { siteId: f.siteId, uid, byUserId: f.agent2 })).rejects.toBeInstanceOf(HttpError)
    const ended = await closeRoom(f.deps, { siteId: f.siteId, uid, byUserId: f.agent1 })
    expect(ended).toMatchObject({ state: 'ended', endedBy: 'agent' })
    expect(ended.endedAt).not.toBeNull()
    const again = await closeRoom(f.deps, { siteId: f.siteId, uid, byUserId: f.agent1 })
    expect(again.revision).toBe(ended.revision)
    await until(
      () => f.events.some((e) => e.type === 'room' && e.room.id === roomId && e.room.status === 'ended' && e.users.includes(f.agent1)),
      'the room event',
    )
    expect((await loadRoom(f.deps, f.siteId, roomId))!.end).not.toBeNull()
  })

  it("an ended room leaves the agent's console after the team's timeout (a durable sweep), with a 'removed' event", async () => {
    const f = await fixture()
    // agent2's team removes after 1 s; the service's own sweep (every second) does the work.
    const [team] = await f.deps.db.insert(teams).values({ siteId: f.siteId, name: 'Chat rápido', chatTimeoutToRemoveInactive: 1 }).returning()
    await f.deps.db.update(users).set({ teamId: team!.id }).where(eq(users.id, f.agent2))
    const roomId = await agentRoom(f, f.agent2)
    await closeRoom(f.deps, { siteId: f.siteId, roomId, by: 'client' })
    expect((await roomRow(f, roomId)).finishedAt).toBeNull()
    await until(() => f.events.some((e) => e.type === 'removed' && e.room_id === roomId && e.users.includes(f.agent2)), 'the removal', 10_000)
    const room = await roomRow(f, roomId)
    expect(room.finishedAt!.getTime() - room.endedAt!.getTime()).toBeGreaterThanOrEqual(1000)
    expect(room.endedBy).toBe('client')
  })

  it('a room whose team keeps it 15 s is not removed before', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f, f.agent1)
    await closeRoom(f.deps, { siteId: f.siteId, roomId, byUserId: f.agent1 })
    await sweepInactiveRooms(f.deps)
    expect((await roomRow(f, roomId)).finishedAt).toBeNull()
  })

  it('archives and unarchives ended rooms only', async () => {
    const f = await fixture()
    const roomId = await agentRoom(f, f.agent1)
    const open = await archiveRoom(f.deps, { siteId: f.siteId, roomId }).catch((e: unknown) => e)
    expect(open).toBeInstanceOf(HttpError)
    expect((open as HttpError).body).toMatchObject({ detail: 'Somente chats encerrados podem ser arquivados.' })
    await closeRoom(f.deps, { siteId: f.siteId, roomId, byUserId: f.agent1 })
    expect((await archiveRoom(f.deps, { siteId: f.siteId, roomId })).archived).toBe(true)
    expect((await loadRoom(f.deps, f.siteId, roomId))!.archived).toBe(true)
    expect((await unarchiveRoom(f.deps, { siteId: f.siteId, roomId })).archived).toBe(false)
  })

  it("closing a room still offered withdraws the offer; supervisors a hook adds hear the room's events", async () => {
    const f = await fixture()
    const roomId = await agentRoom(f, f.agent2)
    await f.deps.db.update(chatRooms).set({ state: 'offered' }).where(eq(chatRooms.id, roomId))
    const remove = registerAudienceHook((_deps, room) => (room.id === roomId ? [f.supervisor] : []))
    try {
      await closeRoom(f.deps, { siteId: f.siteId, roomId, by: 'client' })
    } finally {
      remove()
    }
    await until(
      () => f.events.some((e) => e.type === 'withdrawn' && e.room_id === roomId && e.reason === 'ended' && e.users.includes(f.agent2)),
      'the withdrawal',
    )
    const ended = f.events.find((e) => e.type === 'room' && e.room.id === roomId && e.room.status === 'ended')
    expect(ended?.users).toEqual([f.agent2, f.supervisor])
  })

  it('a new message of a customer whose room ended opens a new room', async () => {
    const f = await fixture()
    const first = await receiveInbound(f.deps, waText(f, '5541911110000', 'oi'))
    await closeRoom(f.deps, { siteId: f.siteId, roomId: first.roomId, by: 'system' })
    const second = await receiveInbound(f.deps, waText(f, '5541911110000', 'voltei'))
    expect(second.newRoom).toBe(true)
    expect(second.roomId).not.toBe(first.roomId)
  })
})
