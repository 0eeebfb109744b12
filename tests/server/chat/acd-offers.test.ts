import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { agentStates } from '../../../server/db/schema/agent.ts'
import { userExtras } from '../../../server/db/schema/index.ts'
import { answerOffer, declineOffer, mayStartOutgoingChat, offerWaiting, roomReleased } from '../../../server/chat/acd/queue.ts'
import { routeNewRoom } from '../../../server/chat/acd/route.ts'
import { webchatStatus } from '../../../server/chat/acd/status.ts'
import { sweepOnce } from '../../../server/chat/acd/sweep.ts'
import { useTestApp } from '../helper.ts'
import { chatWorld, waitFor } from './acd-fixture.ts'

// The chat ACD's offers (issue 13 item 4; spec 001 §4 "Chat lifecycle", "Webchat status"): capacity per team, auto
// answer, pause rules, answer / decline / no answer, the oldest room first, and the outgoing-chat pause rule.
const t = useTestApp({ seed: false })

async function queueWorld(options: { limit?: number; autoAnswer?: boolean; agents?: number; ringTime?: number } = {}) {
  const w = await chatWorld(t)
  const team = await w.team({ limit: options.limit ?? 1, autoAnswer: options.autoAnswer ?? false })
  const agents = []
  for (let i = 0; i < (options.agents ?? 1); i++) agents.push(await w.agent({ teamId: team.id }))
  const channel = await w.channel()
  const queue = await w.queue(
    { ringTime: options.ringTime ?? 30 },
    agents.map((a) => a.id),
  )
  await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
  const newRoom = async () => {
    const room = await w.room(channel.id)
    expect(await routeNewRoom(w.deps, room.id)).toEqual({ kind: 'queued', queueId: queue.id })
    return w.roomRow(room.id)
  }
  return { w, team, agents, channel, queue, newRoom }
}

describe('capacity (team chat_limit_per_user)', () => {
  it('with a limit of 2 the third room waits, and is offered once one of the two closes', async () => {
    const { w, agents, newRoom } = await queueWorld({ limit: 2, autoAnswer: true })
    const [agent] = agents
    const first = await newRoom()
    const second = await newRoom()
    const third = await newRoom()
    expect([first.state, first.userId]).toEqual(['active', agent!.id])
    expect([second.state, second.userId]).toEqual(['active', agent!.id])
    expect([third.state, third.userId]).toEqual(['queued', null])
    expect(await webchatStatus(w.deps, w.siteId, agent!.id)).toBe('busy')
    const [state] = await w.db.select().from(agentStates).where(eq(agentStates.userId, agent!.id))
    expect(state?.chatStatus).toBe('busy')

    await w.close(first.id)
    await roomReleased(w.deps, w.siteId, agent!.id)
    const taken = await w.roomRow(third.id)
    expect([taken.state, taken.userId]).toEqual(['active', agent!.id])
    await w.settled()
    expect(w.eventsOf('room', agent!.id).map((e) => (e.type === 'room' ? e.room.id : 0))).toEqual([first.id, second.id, third.id])
  })

  it('a limit of 0 means no limit (as the console counts it)', async () => {
    const { w, agents, newRoom } = await queueWorld({ limit: 0, autoAnswer: true })
    for (let i = 0; i < 3; i++) expect((await newRoom()).userId).toBe(agents[0]!.id)
    expect(await webchatStatus(w.deps, w.siteId, agents[0]!.id)).toBe('not_inuse')
  })

  it('an offered (ringing) room counts towards the limit too', async () => {
    const { agents, newRoom } = await queueWorld({ limit: 1 })
    const first = await newRoom()
    const second = await newRoom()
    expect([first.state, first.userId]).toEqual(['offered', agents[0]!.id])
    expect(second.state).toBe('queued')
  })
})

describe('auto answer per team', () => {
  it('a team with enable_webchat_auto_answer gets the room active at once (event room); another team gets an offer that rings', async () => {
    const auto = await queueWorld({ autoAnswer: true })
    const room = await auto.newRoom()
    expect(room.state).toBe('active')
    expect(room.answeredAt).not.toBeNull()
    await auto.w.settled()
    expect(auto.w.eventsOf('offer')).toHaveLength(0)
    expect(auto.w.eventsOf('room', auto.agents[0]!.id)).toHaveLength(1)

    const ringing = await queueWorld({ autoAnswer: false, ringTime: 45 })
    const offered = await ringing.newRoom()
    expect(offered.state).toBe('offered')
    expect(offered.answeredAt).toBeNull()
    await ringing.w.settled()
    const [offer] = ringing.w.eventsOf('offer', ringing.agents[0]!.id)
    expect(offer).toMatchObject({ type: 'offer', ring_seconds: 45, room: { id: offered.id, status: 'offered' } })
  })
})

describe('answer, decline and no answer', () => {
  it('only the offered agent answers; anyone else is refused with the spec message', async () => {
    const { w, agents, newRoom } = await queueWorld({ agents: 2 })
    const room = await newRoom()
    const offered = room.userId!
    const other = agents.find((a) => a.id !== offered)!
    expect(await answerOffer(w.deps, { siteId: w.siteId, userId: other.id, roomId: room.id })).toEqual({ ok: false, status: 409, key: 'chatAnswerFailed' })
    const answered = await answerOffer(w.deps, { siteId: w.siteId, userId: offered, roomId: room.id })
    expect(answered.ok && answered.room.state).toBe('active')
    expect(await answerOffer(w.deps, { siteId: w.siteId + 1000, userId: offered, roomId: room.id })).toMatchObject({ ok: false, status: 409 })
  })

  it('a decline offers the room to the next agent; the decliner is remembered', async () => {
    const { w, agents, newRoom } = await queueWorld({ agents: 2 })
    const room = await newRoom()
    expect(room.userId).toBe(agents[0]!.id)
    const declined = await declineOffer(w.deps, { siteId: w.siteId, userId: agents[0]!.id, roomId: room.id })
    expect(declined.ok).toBe(true)
    const after = await w.roomRow(room.id)
    expect([after.state, after.userId, after.declinedUserIds]).toEqual(['offered', agents[1]!.id, [agents[0]!.id]])
    await w.settled()
    expect(w.eventsOf('withdrawn', agents[0]!.id)).toMatchObject([{ room_id: room.id, reason: 'no_answer' }])
    expect(w.eventsOf('offer', agents[1]!.id)).toHaveLength(1)
  })

  it('an offer not answered within ring_time goes to the next agent (the sweep, with a short ring time)', async () => {
    const { w, agents, newRoom } = await queueWorld({ agents: 2, ringTime: 1 })
    const room = await newRoom()
    expect(room.userId).toBe(agents[0]!.id)
    const moved = await waitFor(async () => {
      await sweepOnce(w.deps)
      const row = await w.roomRow(room.id)
      return row.userId === agents[1]!.id ? row : null
    })
    expect(moved.state).toBe('offered')
    expect(moved.declinedUserIds).toEqual([agents[0]!.id])
    await w.settled()
    expect(w.eventsOf('withdrawn', agents[0]!.id)).toMatchObject([{ room_id: room.id, reason: 'no_answer' }])
  })

  it('a lone agent who let it ring is offered it again once ring_time has passed since', async () => {
    const { w, agents, newRoom } = await queueWorld({ agents: 1, ringTime: 1 })
    const room = await newRoom()
    await declineOffer(w.deps, { siteId: w.siteId, userId: agents[0]!.id, roomId: room.id })
    expect((await w.roomRow(room.id)).state).toBe('queued')
    const again = await waitFor(async () => {
      await sweepOnce(w.deps)
      const row = await w.roomRow(room.id)
      return row.state === 'offered' ? row : null
    })
    expect(again.userId).toBe(agents[0]!.id)
    expect(again.declinedUserIds).toEqual([])
  })
})

describe('oldest first', () => {
  it('the freed agent takes the oldest waiting room of the queue, whatever order they were inserted in', async () => {
    const { w, agents, channel } = await queueWorld({ autoAnswer: true })
    await w.db.update(userExtras).set({ loginChannelChat: false }).where(eq(userExtras.userId, agents[0]!.id))
    const rooms = []
    for (let i = 0; i < 3; i++) rooms.push(await w.room(channel.id))
    for (const room of rooms) await routeNewRoom(w.deps, room.id)
    // Queued in order 0, 1, 2, then room 2 made the oldest.
    await w.age(rooms[2]!.id, 120)
    await w.age(rooms[0]!.id, 60)
    await w.db.update(userExtras).set({ loginChannelChat: true }).where(eq(userExtras.userId, agents[0]!.id))
    await offerWaiting(w.deps, w.siteId)
    expect((await w.roomRow(rooms[2]!.id)).userId).toBe(agents[0]!.id)
    expect((await w.roomRow(rooms[0]!.id)).state).toBe('queued')
    await w.close(rooms[2]!.id)
    // The chat core's closeRoom hands the ended room itself.
    await roomReleased(w.deps, await w.roomRow(rooms[2]!.id))
    expect((await w.roomRow(rooms[0]!.id)).userId).toBe(agents[0]!.id)
    expect((await w.roomRow(rooms[1]!.id)).state).toBe('queued')
  })
})

describe('pause rules', () => {
  it('a paused agent is not offered a room unless the pause allows incoming chats; a pause without webchat does not apply', async () => {
    const { w, agents, newRoom } = await queueWorld({ agents: 1 })
    const agent = agents[0]!
    const strict = await w.pause(agent.id, { allowIncomingChat: false })
    const room = await newRoom()
    expect(room.state).toBe('queued')
    expect(await webchatStatus(w.deps, w.siteId, agent.id)).toBe('paused')
    await w.endPause(strict.id)

    await w.pause(agent.id, { allowIncomingChat: true })
    await offerWaiting(w.deps, w.siteId)
    expect((await w.roomRow(room.id)).userId).toBe(agent.id)

    const other = await queueWorld({ agents: 1 })
    await other.w.pause(other.agents[0]!.id, { enableWebchat: false, allowIncomingChat: false })
    expect((await other.newRoom()).userId).toBe(other.agents[0]!.id)
    expect(await webchatStatus(other.w.deps, other.w.siteId, other.agents[0]!.id)).toBe('busy')
  })

  it('an agent signed out of the chat channel, or without the room channel among theirs, is not offered it', async () => {
    const w = await chatWorld(t)
    const team = await w.team({ limit: 5 })
    const channel = await w.channel()
    const otherChannel = await w.channel('webchat')
    const out = await w.agent({ teamId: team.id, loggedIn: false })
    const elsewhere = await w.agent({ teamId: team.id, channels: [otherChannel.id] })
    const here = await w.agent({ teamId: team.id, channels: [channel.id, otherChannel.id] })
    const queue = await w.queue({}, [out.id, elsewhere.id, here.id])
    await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
    const room = await w.room(channel.id)
    await routeNewRoom(w.deps, room.id)
    expect((await w.roomRow(room.id)).userId).toBe(here.id)
    expect(await webchatStatus(w.deps, w.siteId, out.id)).toBe('unavailable')
    expect(await webchatStatus(w.deps, w.siteId, here.id, 'disconnected')).toBe('unavailable')
    expect(await webchatStatus(w.deps, w.siteId, elsewhere.id)).toBe('not_inuse')
  })

  it("outgoing chats: refused with 'Usuário esta pausado' while a webchat pause disallows them, allowed otherwise", async () => {
    const w = await chatWorld(t)
    const agent = await w.agent()
    expect(await mayStartOutgoingChat(w.deps, w.siteId, agent.id)).toEqual({ ok: true })
    const pause = await w.pause(agent.id, { allowOutgoingChat: false })
    expect(await mayStartOutgoingChat(w.deps, w.siteId, agent.id)).toEqual({ ok: false, status: 400, key: 'userPaused' })
    await w.endPause(pause.id)
    await w.pause(agent.id, { allowOutgoingChat: true })
    expect(await mayStartOutgoingChat(w.deps, w.siteId, agent.id)).toEqual({ ok: true })
  })

  it('an outgoing room (type 10) is assigned to its agent directly, never queued', async () => {
    const w = await chatWorld(t)
    const agent = await w.agent()
    const channel = await w.channel()
    const room = await w.room(channel.id, { chatType: 10, userId: agent.id })
    expect(await routeNewRoom(w.deps, room.id)).toEqual({ kind: 'assigned', userId: agent.id })
    const row = await w.roomRow(room.id)
    expect([row.state, row.queueId]).toEqual(['active', null])
  })
})
