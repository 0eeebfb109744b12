import { describe, expect, it } from 'vitest'
import { eq, inArray } from 'drizzle-orm'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { agentStates } from '../../../server/db/schema/agent.ts'
import { chatRooms, teams, userExtras } from '../../../server/db/schema/index.ts'
import { offerWaiting } from '../../../server/chat/acd/queue.ts'
import { routeNewRoom } from '../../../server/chat/acd/route.ts'
import { startAcdSweep, sweepOnce } from '../../../server/chat/acd/sweep.ts'
import { useTestApp } from '../helper.ts'
import { person, pauseType } from '../agent/agent-helper.ts'
import { chatWorld, waitFor } from './acd-fixture.ts'

// Several sweeps and wake-ups at once (two server instances on one database) never offer a room to two agents nor
// give an agent more rooms than the team's limit; the agent service's changes (pause, chat login) wake the ACD.
const t = useTestApp({ seed: false })

describe('concurrent sweeps', () => {
  it('ten rooms, four agents of limit 1, six sweeps and wake-ups at once: each agent one room, each room one agent, one offer each', async () => {
    const w = await chatWorld(t)
    const team = await w.team({ limit: 1 })
    const agents = []
    for (let i = 0; i < 4; i++) agents.push(await w.agent({ teamId: team.id }))
    const channel = await w.channel()
    const queue = await w.queue(
      { strategy: 'random' },
      agents.map((a) => a.id),
    )
    // Rooms queued without offers (nobody signed in yet), then everyone signs in and the sweeps race.
    const ids = agents.map((a) => a.id)
    await w.db.update(userExtras).set({ loginChannelChat: false }).where(inArray(userExtras.userId, ids))
    await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
    const rooms = []
    for (let i = 0; i < 10; i++) {
      const room = await w.room(channel.id)
      await routeNewRoom(w.deps, room.id)
      rooms.push(room.id)
    }
    await w.db.update(userExtras).set({ loginChannelChat: true }).where(inArray(userExtras.userId, ids))
    await Promise.all([
      sweepOnce(w.deps),
      sweepOnce(w.deps),
      offerWaiting(w.deps, w.siteId),
      sweepOnce(w.deps),
      offerWaiting(w.deps, w.siteId),
      sweepOnce(w.deps),
    ])
    const rows = await w.db.select().from(chatRooms).where(inArray(chatRooms.id, rooms))
    const offered = rows.filter((r) => r.state === 'offered')
    expect(offered).toHaveLength(4)
    expect(new Set(offered.map((r) => r.userId)).size).toBe(4)
    await w.settled()
    const offers = w.eventsOf('offer')
    expect(offers).toHaveLength(4)
    expect(new Set(offers.map((e) => (e.type === 'offer' ? e.room.id : 0))).size).toBe(4)
    // The oldest four rooms went first.
    expect(offered.map((r) => r.id).sort((a, b) => a - b)).toEqual(rooms.slice(0, 4))
  })

  it('the sweep started by the service rings out an unanswered offer to the next agent by itself', async () => {
    const w = await chatWorld(t)
    const team = await w.team()
    const first = await w.agent({ teamId: team.id })
    const second = await w.agent({ teamId: team.id })
    const channel = await w.channel()
    const queue = await w.queue({ ringTime: 1 }, [first.id, second.id])
    await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
    const room = await w.room(channel.id)
    await routeNewRoom(w.deps, room.id)
    const stop = startAcdSweep(w.deps, { intervalMs: 100 })
    try {
      const moved = await waitFor(async () => {
        const row = await w.roomRow(room.id)
        return row.userId === second.id ? row : null
      })
      expect(moved.state).toBe('offered')
    } finally {
      await stop()
    }
  })
})

describe('the agent service wakes the ACD', () => {
  it("ending a pause over REST offers the waiting room and the agent's webchat status follows (paused → busy)", async () => {
    const w = await chatWorld(t)
    const [team] = await w.db
      .insert(teams)
      .values({ siteId: w.siteId, name: `t${Date.now()}`, chatLimitPerUser: 1 })
      .returning()
    const agent = await person(t.app, w.db, {
      permissions: [PERMISSIONS.viewTakeBreak, PERMISSIONS.viewChat],
      domain: w.site.domain,
      teamId: team!.id,
      name: 'chat',
    })
    const signIn = await agent.client.request('POST', '/api/v1/agent/channel/login/?channel=chat')
    expect(signIn.statusCode).toBe(200)
    const type = await pauseType(w.db, w.siteId, { enableWebchat: true, allowIncomingChat: false })
    const started = await agent.client.request('POST', '/api/v1/agent/pause/start/', { payload: { pause_id: type.id } })
    expect(started.json()).toMatchObject({ success: true })
    const status = async () => (await w.db.select().from(agentStates).where(eq(agentStates.userId, agent.user.id)))[0]?.chatStatus
    expect(await status()).toBe('paused')

    const channel = await w.channel()
    const queue = await w.queue({}, [agent.user.id])
    await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
    const room = await w.room(channel.id)
    await routeNewRoom(w.deps, room.id)
    expect((await w.roomRow(room.id)).state).toBe('queued')

    const stopped = await agent.client.request('POST', '/api/v1/agent/pause/stop/', { payload: {} })
    expect(stopped.json()).toMatchObject({ success: true })
    const offered = await w.roomRow(room.id)
    expect([offered.state, offered.userId]).toEqual(['offered', agent.user.id])
    expect(await status()).toBe('busy')

    const signOut = await agent.client.request('POST', '/api/v1/agent/channel/logout/?channel=chat')
    expect(signOut.statusCode).toBe(200)
    expect(await status()).toBe('unavailable')
    // Signing out of chat takes back the offer ringing for the agent.
    const back = await w.roomRow(room.id)
    expect([back.state, back.userId]).toEqual(['queued', null])
    await w.settled()
    expect(w.eventsOf('withdrawn', agent.user.id)).toMatchObject([{ room_id: room.id }])
  })
})
