import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { AGENT_PATHS } from '../../../contract/api/agent.ts'
import { readServerFrame } from '../../../contract/realtime/service-socket.ts'
import type { WallboardAgent, WallboardDelta, WallboardSnapshot } from '../../../contract/realtime/wallboard.ts'
import { teams } from '../../../server/db/schema/index.ts'
import { auditLog } from '../../../server/db/schema/audit-log.ts'
import { SUPERVISOR_ACTION_ENTITY } from '../../../server/agent/supervisor-audit.ts'
import { createCallControl } from '../../../server/telephony/control/index.ts'
import type { CallControlService } from '../../../server/telephony/control/index.ts'
import { demo, finishAfterServices, fromTrunk, newCallId, setAgent } from '../call-control-helper.ts'
import { signedIn, useTestApp } from '../helper.ts'
import { AGENT, SUPERVISOR, pauseType, person } from '../agent/agent-helper.ts'
import { FAST_TIMINGS, listen, openSocket, sessionCookie } from './ws-helper.ts'
import type { SocketClient } from './ws-helper.ts'

// The supervisor wallboard feed on the service socket (contract/realtime/wallboard.ts): a snapshot on subscribe,
// then deltas as agents change status, pause, take and end calls and enter after-service; a reconnect names its
// revision and gets what it missed; only sites.view_dashboard_supervisor holders of the same site hear it.

const t = useTestApp({ config: { realtime: { ...FAST_TIMINGS, wallboardCoalesceMs: 50, wallboardRefreshMs: 150 } } })
let base: string
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService

beforeAll(async () => {
  base = await listen(t.app)
  d = await demo(t.database.db)
  control = createCallControl({ db: t.database.db })
})

/** Keeps a client's view of the feed, applying every snapshot and delta it hears, as the browser does. */
class Board {
  feed = ''
  revision = -1
  agents = new Map<number, WallboardAgent>()
  queues = new Map<string, WallboardSnapshot['queues'][number]>()
  frames: (WallboardSnapshot | WallboardDelta)[] = []
  private waiters: (() => void)[] = []
  readonly socket: SocketClient
  constructor(socket: SocketClient) {
    this.socket = socket
    socket.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { action: string }
      if (frame.action !== 'wallboardSnapshot' && frame.action !== 'wallboardDelta') return
      expect(readServerFrame(frame).kind).toBe('message')
      this.apply(frame as WallboardSnapshot | WallboardDelta)
      for (const waiter of this.waiters.splice(0)) waiter()
    })
  }
  apply(frame: WallboardSnapshot | WallboardDelta) {
    this.frames.push(frame)
    if (frame.action === 'wallboardSnapshot') {
      this.agents = new Map(frame.agents.map((agent) => [agent.id, agent]))
      this.queues = new Map(frame.queues.map((queue) => [queue.key, queue]))
    } else {
      expect(frame.base).toBe(this.revision)
      for (const agent of frame.agents) this.agents.set(agent.id, agent)
      for (const id of frame.removed_agents) this.agents.delete(id)
      for (const queue of frame.queues) this.queues.set(queue.key, queue)
    }
    this.feed = frame.feed
    this.revision = frame.revision
  }
  /** Resolves once `check` holds on the applied state (checked after every frame). */
  async until(check: (board: Board) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!check(this)) {
      if (Date.now() > deadline) throw new Error(`the wallboard never got there; last frames ${JSON.stringify(this.frames.slice(-2)).slice(0, 2000)}`)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve)
        setTimeout(resolve, 100)
      })
    }
  }
}

async function watch(cookie: string): Promise<Board> {
  const socket = await openSocket(base, { cookie })
  const board = new Board(socket)
  socket.send({ action: 'wallboard_subscribe' })
  await board.until((b) => b.revision >= 0)
  return board
}

describe('the supervisor wallboard feed', () => {
  it('refuses an agent without sites.view_dashboard_supervisor, and sends nothing', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT, name: 'wbagent' })
    const socket = await openSocket(base, { cookie: agent.cookie })
    socket.send({ action: 'wallboard_subscribe' })
    const error = await socket.next('error')
    expect(error.request).toBe('wallboard_subscribe')
    await socket.roundTrip()
    expect(socket.has('wallboardSnapshot')).toBe(false)
    socket.close()
  })

  it('answers a snapshot of the site: every agent with status and every queue', async () => {
    await setAgent(t.database.db, d.agent1, 'unavailable')
    const board = await watch(await sessionCookie(t.app, 'supervisor'))
    expect(board.frames[0]!.action).toBe('wallboardSnapshot')
    const agent1 = board.agents.get(d.agent1.id)!
    expect(agent1).toMatchObject({ username: 'agent1', status: 'unavailable', login_telephony: true, pause: null, call: null })
    expect(agent1.queues).toContain(`calls:${d.support.id}`)
    expect(board.queues.get(`calls:${d.support.id}`)).toMatchObject({ name: 'Suporte', kind: 'calls', waiting: 0 })
    board.socket.close()
  })

  it('sends a delta when an agent reports a status, a pause starts and ends', async () => {
    const board = await watch(await sessionCookie(t.app, 'supervisor'))
    const agentSocket = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    agentSocket.send({ action: 'change_state', channel: 'telephony', status: 'not_inuse' })
    await board.until((b) => b.agents.get(d.agent1.id)?.status === 'not_inuse')
    expect(board.frames.at(-1)!.action).toBe('wallboardDelta')
    // Only what changed travels: agent2 did not.
    expect((board.frames.at(-1) as WallboardDelta).agents.map((a) => a.id)).not.toContain(d.agent2.id)
    expect(board.queues.get(`calls:${d.support.id}`)!.agents_free).toBeGreaterThanOrEqual(1)

    const type = await pauseType(t.database.db, d.site.id, { description: 'Almoço' })
    const supervisor = await signedIn(t.app, 'supervisor')
    expect((await supervisor.post(`/api${AGENT_PATHS.supervisorPause}`, { user_id: d.agent1.id, pause_id: type.id })).statusCode).toBe(200)
    await board.until((b) => b.agents.get(d.agent1.id)?.pause?.description === 'Almoço')
    expect((await supervisor.post(`/api${AGENT_PATHS.supervisorUnpause}`, { user_id: d.agent1.id })).statusCode).toBe(200)
    await board.until((b) => b.agents.get(d.agent1.id)?.pause === null)
    agentSocket.close()
    board.socket.close()
  })

  it("writes the supervisor's pause, unpause and commands on an agent to the audit log", async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const type = await pauseType(t.database.db, d.site.id, { description: 'Treinamento' })
    await supervisor.post(`/api${AGENT_PATHS.supervisorPause}`, { user_id: d.agent2.id, pause_id: type.id })
    await supervisor.post(`/api${AGENT_PATHS.supervisorUnpause}`, { user_id: d.agent2.id })
    expect((await supervisor.post('/api/v1/agent/supervisor/dnd/', { user_id: d.agent2.id, dnd: true })).statusCode).toBe(200)
    expect((await supervisor.post('/api/v1/agent/supervisor/logout/', { user_id: d.agent2.id })).statusCode).toBe(200)
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, SUPERVISOR_ACTION_ENTITY), eq(auditLog.objectId, d.agent2.id)))
      .orderBy(auditLog.id)
    expect(rows.map((row) => (row.after as { command: string }).command)).toEqual(['pause', 'unpause', 'dnd', 'logout'])
    expect(rows.every((row) => row.userId === d.supervisor.id && row.siteId === d.site.id)).toBe(true)
    expect(rows[0]!.after).toMatchObject({ description: 'Treinamento' })
  })

  it('shows a queue call ringing, talking, then the agent in after-service with its end', async () => {
    await t.database.db
      .update(teams)
      .set({ enableAfterService: true, durationOfAfterService: 30, ignoreAfterServiceWithDurationShorterThan: 0, afterServiceMode: 'spec' })
      .where(eq(teams.siteId, d.site.id))
    await finishAfterServices(t.database.db, d.site.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'unavailable')
    const board = await watch(await sessionCookie(t.app, 'supervisor'))
    const answeredBefore = board.queues.get(`calls:${d.support.id}`)!.answered
    const callId = newCallId()
    const decision = await control.route(fromTrunk(d.trunk.id, '11987654321', '551130000001', callId))
    expect(decision.action).not.toBe('reject')
    await board.until((b) => b.agents.get(d.agent1.id)?.call?.state === 'ringing')
    expect(board.agents.get(d.agent1.id)!.call).toMatchObject({ number: '11987654321', direction: 'inbound', queue: d.support.id })
    expect(board.queues.get(`calls:${d.support.id}`)!.waiting).toBe(1)
    expect(board.queues.get(`calls:${d.support.id}`)!.longest_since).not.toBeNull()

    control.event({ event: 'call', call_id: callId, state: 'answered', code: 200, reason: 'OK', by: '', ts: Date.now() })
    await control.settled()
    await board.until((b) => b.agents.get(d.agent1.id)?.call?.state === 'talking')
    expect(board.queues.get(`calls:${d.support.id}`)).toMatchObject({ waiting: 0, answered: answeredBefore + 1 })

    control.event({ event: 'call', call_id: callId, state: 'ended', code: 200, reason: 'OK', by: 'caller', ts: Date.now() })
    await control.settled()
    await board.until((b) => b.agents.get(d.agent1.id)?.call === null && b.agents.get(d.agent1.id)?.after_service !== null)
    const after = board.agents.get(d.agent1.id)!.after_service!
    expect(new Date(after.ends_at!).getTime() - new Date(after.started_at).getTime()).toBe(30_000)
    expect(board.queues.get(`calls:${d.support.id}`)!.service_level).toBe(100)
    await finishAfterServices(t.database.db, d.site.id)
    await board.until((b) => b.agents.get(d.agent1.id)?.after_service === null)
    board.socket.close()
  })

  it("keeps sites apart: another site's supervisor never sees this site's agents", async () => {
    const other = await person(t.app, t.database.db, { permissions: SUPERVISOR, domain: 'wallboard-other.test', name: 'wbother' })
    const otherAgent = await person(t.app, t.database.db, { permissions: AGENT, domain: 'wallboard-other.test', name: 'wbothera' })
    await setAgent(t.database.db, otherAgent.user, 'unavailable')
    const socket = await openSocket(base, { cookie: other.cookie, host: 'wallboard-other.test' })
    const foreign = new Board(socket)
    socket.send({ action: 'wallboard_subscribe' })
    await foreign.until((b) => b.revision >= 0)
    expect([...foreign.agents.keys()]).toEqual([otherAgent.user.id])
    const home = await watch(await sessionCookie(t.app, 'supervisor'))
    const agentSocket = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    agentSocket.send({ action: 'change_state', channel: 'telephony', status: 'busy' })
    await home.until((b) => b.agents.get(d.agent1.id)?.status === 'busy')
    await socket.roundTrip()
    expect(foreign.agents.has(d.agent1.id)).toBe(false)
    expect(foreign.frames.every((frame) => frame.agents.every((agent) => agent.id === otherAgent.user.id))).toBe(true)
    for (const s of [socket, home.socket, agentSocket]) s.close()
  })

  it('after a reconnect sends only the deltas missed since the named revision, and a snapshot for an unknown feed', async () => {
    const cookie = await sessionCookie(t.app, 'supervisor')
    const first = await watch(cookie)
    // A second watcher keeps the site's feed alive while the first is away.
    const keeper = await watch(cookie)
    const { feed, revision } = first
    first.socket.close()
    const agentSocket = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    agentSocket.send({ action: 'change_state', channel: 'telephony', status: 'not_inuse' })
    await keeper.until((b) => b.agents.get(d.agent1.id)?.status === 'not_inuse' && b.revision > revision)

    const again = new Board(await openSocket(base, { cookie }))
    again.feed = feed
    again.revision = revision
    again.agents = new Map(first.agents)
    again.socket.send({ action: 'wallboard_subscribe', feed, revision })
    await again.until((b) => b.revision === keeper.revision)
    expect(again.frames.every((frame) => frame.action === 'wallboardDelta')).toBe(true)
    expect(again.agents.get(d.agent1.id)!.status).toBe('not_inuse')

    const stranger = new Board(await openSocket(base, { cookie }))
    stranger.socket.send({ action: 'wallboard_subscribe', feed: 'some-other-server', revision: 3 })
    await stranger.until((b) => b.revision >= 0)
    expect(stranger.frames[0]!.action).toBe('wallboardSnapshot')
    for (const s of [keeper.socket, again.socket, stranger.socket, agentSocket]) s.close()
  })
})
