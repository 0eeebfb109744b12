import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { chatRooms } from '../../../server/db/schema/index.ts'
import { routeNewRoom } from '../../../server/chat/acd/route.ts'
import { useTestApp } from '../helper.ts'
import { chatWorld } from './acd-fixture.ts'

// The queue strategies applied to chats (server/acd/strategies.ts, shared with telephony): a room rings one agent.
const t = useTestApp({ seed: false })

async function strategyWorld(strategy: string, agentCount = 3, penalties: number[] = [], limit = 100) {
  const w = await chatWorld(t)
  const team = await w.team({ limit, autoAnswer: true })
  const agents = []
  for (let i = 0; i < agentCount; i++) agents.push(await w.agent({ teamId: team.id, lastLogin: new Date(Date.UTC(2026, 0, 1, 8, 0, 60 - i)) }))
  const channel = await w.channel()
  const queue = await w.queue(
    { strategy },
    agents.map((a, i) => ({ userId: a.id, penalty: penalties[i] ?? 0 })),
  )
  await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
  const route = async (random?: () => number) => {
    const room = await w.room(channel.id)
    await routeNewRoom(w.deps, room.id, random ? { random } : {})
    return (await w.roomRow(room.id)).userId
  }
  return { w, agents, queue, route }
}

describe('chat queue strategies', () => {
  it('ring all offers the room to the first free member of the lowest penalty, in member order', async () => {
    const { agents, route } = await strategyWorld('ringall', 3, [1, 0, 0], 1)
    expect(await route()).toBe(agents[1]!.id)
    // Agent 1 at capacity (limit 1): the next free one of the lowest tier, then the higher penalty.
    expect(await route()).toBe(agents[2]!.id)
    expect(await route()).toBe(agents[0]!.id)
    expect(await route()).toBeNull()
  })

  it('round robin with memory goes around the members, starting after the last one offered', async () => {
    const { agents, route } = await strategyWorld('rrmemory')
    const order = []
    for (let i = 0; i < 6; i++) order.push(await route())
    const ids = agents.map((a) => a.id)
    expect(order).toEqual([...ids, ...ids])
  })

  it('longest idle offers the agent given a room longest ago (never = first)', async () => {
    const { agents, route, w } = await strategyWorld('leastrecent')
    const first = await route()
    expect(first).toBe(agents[0]!.id)
    const second = await route()
    expect(second).toBe(agents[1]!.id)
    // Agent 0's room long ago, agent 1's recent, agent 2 never: agent 2 first, then agent 0.
    await w.db
      .update(chatRooms)
      .set({ answeredAt: new Date(Date.now() - 3_600_000) })
      .where(eq(chatRooms.userId, agents[0]!.id))
    expect(await route()).toBe(agents[2]!.id)
    expect(await route()).toBe(agents[0]!.id)
  })

  it('fewest calls offers the agent who answered fewest rooms of the queue today', async () => {
    const { agents, route } = await strategyWorld('fewestcalls', 2)
    const order = []
    for (let i = 0; i < 4; i++) order.push(await route())
    expect(order).toEqual([agents[0]!.id, agents[1]!.id, agents[0]!.id, agents[1]!.id])
  })

  it('random picks by the random source within the lowest tier (deterministic with a fixed source)', async () => {
    const { agents, route } = await strategyWorld('random', 3, [0, 0, 5])
    expect(await route(() => 0)).toBe(agents[0]!.id)
    expect(await route(() => 0.99)).toBe(agents[1]!.id)
    const seen = new Set<number | null>()
    let seed = 7
    const lcg = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 20; i++) seen.add(await route(lcg))
    expect(seen).toEqual(new Set([agents[0]!.id, agents[1]!.id]))
  })

  it('linear by login offers the earliest signed-in agent while free', async () => {
    const { agents, route } = await strategyWorld('linear')
    // lastLogin: agent 2 earliest.
    expect(await route()).toBe(agents[2]!.id)
    expect(await route()).toBe(agents[2]!.id)
  })
})
