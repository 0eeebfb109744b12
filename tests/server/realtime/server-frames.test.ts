import { beforeAll, describe, expect, it } from 'vitest'
import { AGENT_PATHS } from '../../../contract/api/agent.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { LATER_SERVER_ACTIONS, MEDIA_APP_SERVER_ACTIONS, SERVER_ACTIONS, readServerFrame } from '../../../contract/realtime/service-socket.ts'
import type { ServerMessage } from '../../../contract/realtime/service-socket.ts'
import { useTestApp } from '../helper.ts'
import { announceStepChange } from '../../../server/telephony/control/step-change.ts'
import { publishQueueCallers } from '../../../server/media/app/waiting-feed.ts'
import { pushToSupervisors } from '../../../server/bus/channels.ts'
import { AGENT, SUPERVISOR, pauseType, person, siteNamed } from '../agent/agent-helper.ts'
import { FAST_TIMINGS, listen, openSocket } from './ws-helper.ts'
import { channel, message, room } from '../chat/chat-fixtures.ts'

// The service socket's contract held against the server (contract/realtime/service-socket.ts): a tour through every
// way the server pushes a frame — answers, service ownership, REST pauses, a supervisor's pause and commands, an
// activity, a channel login, a status for supervisors, refused frames, the server's ping, an ended session — and
// every frame heard must parse with its action's schema. Every action of the contract but the later issues' must be
// heard: an action the server no longer sends is a stale line of the contract.
const t = useTestApp({ config: { realtime: { ...FAST_TIMINGS, serverPingMs: 150 } } })
const api = (path: string) => `/api${path}`
let base: string

beforeAll(async () => {
  base = await listen(t.app)
})

describe('server frames against the contract', () => {
  it('sends only frames its schemas accept, and every action of the contract but the later ones', async () => {
    const siteId = (await siteNamed(t.database.db, 'localhost')).id
    const agent = await person(t.app, t.database.db, { permissions: [...AGENT, PERMISSIONS.viewActivities], name: 'frames' })
    const supervisor = await person(t.app, t.database.db, {
      permissions: [...SUPERVISOR, PERMISSIONS.commandAgent, PERMISSIONS.addActivity],
      name: 'framesup',
    })
    const type = await pauseType(t.database.db, siteId, { description: 'Café' })
    const seen: ServerMessage[] = []
    // Frames are consumed by next(): keep a copy of everything each socket hears, from the moment it opens (a busy
    // machine can take longer to open the next socket than the server takes to ping the first).
    const heard = (socket: Awaited<ReturnType<typeof openSocket>>) => {
      seen.push(...socket.received)
      socket.ws.on('message', (data) => seen.push(JSON.parse(data.toString()) as ServerMessage))
      return socket
    }
    const tab = heard(await openSocket(base, { cookie: agent.cookie }))
    const second = heard(await openSocket(base, { cookie: agent.cookie }))
    const watcher = heard(await openSocket(base, { cookie: supervisor.cookie }))
    // The supervisor watches the wallboard: a snapshot now, deltas as the agent changes below.
    watcher.send({ action: 'wallboard_subscribe' })
    await watcher.next('wallboardSnapshot')

    // Answers and service ownership.
    tab.send({ action: 'login' })
    await tab.next('startService')
    second.send({ action: 'login' })
    await second.next('serviceElsewhere')
    await tab.roundTrip()
    tab.send({ action: 'get_pauses' })
    await tab.next('pause')
    tab.send({ action: 'get_activities' })
    await tab.next('activity')

    // The agent's own pause over REST, and a start_pause naming another one.
    expect((await agent.client.post(api(AGENT_PATHS.pauseStart), { pause_id: type.id })).statusCode).toBe(200)
    await tab.next('pause')
    tab.send({ action: 'start_pause', id: 999_999 })
    await tab.next('pause')
    expect((await agent.client.post(api(AGENT_PATHS.pauseStop))).statusCode).toBe(200)
    await tab.next('pause')

    // A supervisor's pause and unpause, and remote commands.
    expect((await supervisor.client.post(api(AGENT_PATHS.supervisorPause), { user_id: agent.user.id, pause_id: type.id })).statusCode).toBe(200)
    await tab.next('startPause')
    expect((await supervisor.client.post(api(AGENT_PATHS.supervisorUnpause), { user_id: agent.user.id })).statusCode).toBe(200)
    await tab.next('stopPause')
    const command = (name: string, body: Record<string, unknown> = {}) =>
      supervisor.client.post(`/api/v1/agent/supervisor/${name}/`, { user_id: agent.user.id, ...body })
    expect((await command('dnd', { dnd: true })).statusCode).toBe(200)
    await tab.next('dnd')
    expect((await command('refresh')).statusCode).toBe(200)
    await tab.next('refresh')
    expect((await command('open-url', { url: 'https://intranet.example/aviso' })).statusCode).toBe(200)
    await tab.next('openUrl')
    // A supervisor ends the agent's after-service (none known to the server: whichever the webphone runs).
    expect((await command('end-after-service')).statusCode).toBe(200)
    expect(await tab.next('afterServiceTimeout')).toEqual({ action: 'afterServiceTimeout', uid: null, session_id: null })
    // The agent's live call became another step (call control's notifier, as server/telephony/index.ts wires it;
    // the attended transfer that triggers it: tests/server/call-control-trunk-transfer.test.ts).
    await announceStepChange(t.app.deps.bus)({ siteId, userId: agent.user.id, uid: 'uid-consult', stepUid: 'uid-joined', callId: 'joined-call' })
    expect(await tab.next('changeCallStep')).toEqual({ action: 'changeCallStep', uid: 'uid-consult', step_uid: 'uid-joined', call_id: 'joined-call' })
    expect((await command('logout')).statusCode).toBe(200)
    await tab.next('logout')

    // An activity scheduled for the agent, a channel login, a status the supervisors hear.
    const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString()
    const scheduled = await supervisor.client.post('/api/v1/agent/activities/', {
      user: agent.user.id,
      destination: '5511999990000',
      start: minutes(-5),
      end: minutes(25),
      subject: 'Retorno',
      target: 'cliente',
    })
    expect(scheduled.statusCode).toBe(201)
    const pushed = await tab.next('activity', 5000)
    expect(pushed.activities).toHaveLength(1)
    expect((await agent.client.post(`${api(AGENT_PATHS.channelLogin)}?channel=chat`)).statusCode).toBe(200)
    await tab.next('updateUser')
    tab.send({ action: 'change_state', channel: 'telephony', status: 'not_inuse' })
    await watcher.next('agentStatus')
    await watcher.next('wallboardDelta')
    // A caller waiting in a telephony queue (the media app's brain publishes the site's list on every change).
    await publishQueueCallers(t.app.deps.bus, siteId, [{ callId: 'frames-call', siteId, queueId: 1, since: new Date().toISOString(), phone: '5511999990000' }])
    expect((await watcher.next('queueCallers')).callers).toMatchObject([{ call_id: 'frames-call', queue: 1, position: 1 }])
    // A running dialer campaign's progress (server/dialer/service.ts sends exactly this to the site's supervisors).
    await pushToSupervisors(t.app.deps.bus, siteId, {
      action: 'dialerProgress',
      campaign: 1,
      status: 'running',
      leads_total: 20,
      leads_dialled: 5,
      leads_answered: 2,
      leads_remaining: 15,
      lines_in_use: 1,
      abandoned: 0,
    })
    expect((await watcher.next('dialerProgress')).leads_dialled).toBe(5)

    // The chat counters of a room of the agent's.
    const chat = await room(t.database.db, { siteId, channelId: await channel(t.database.db, siteId), userId: agent.user.id })
    await message(t.database.db, chat, { content: 'oi' })
    tab.send({ action: 'compare_number_of_messages', step_id: chat.id, count: 0 })
    expect(await tab.next('numberOfMessages')).toEqual({ action: 'numberOfMessages', step_id: chat.id, count: 1, equal: false })
    tab.send({ action: 'count_unread_messages', step_id: chat.id })
    expect(await tab.next('unreadMessages')).toEqual({ action: 'unreadMessages', step_id: chat.id, count: 1 })
    tab.send({ action: 'count_unread_all_messages' })
    expect(await tab.next('unreadAllMessages')).toEqual({ action: 'unreadAllMessages', count: 1 })
    tab.send({ action: 'sync_step', step_id: chat.id })
    expect((await tab.next('syncStep')).room.id).toBe(chat.id)
    tab.send({ action: 'sync_step', step_id: 999_999 })
    await tab.next('error')

    // Refused frames, the server's own ping, and a session that ends.
    tab.send('not json')
    await tab.next('error')
    tab.send({ action: 'change_state', channel: 'fax', status: 'busy' })
    await tab.next('error')
    await tab.next('serverPing')
    expect((await agent.client.post('/api/session/logout/')).statusCode).toBeLessThan(300)
    await tab.next('logout')
    await tab.closed

    for (const frame of seen) {
      const read = readServerFrame(frame)
      expect(read, JSON.stringify(frame)).toMatchObject({ kind: 'message' })
    }
    const actions = new Set(seen.map((frame) => frame.action))
    const notHere: readonly string[] = [...LATER_SERVER_ACTIONS, ...MEDIA_APP_SERVER_ACTIONS]
    const expected = SERVER_ACTIONS.filter((action) => !notHere.includes(action))
    expect([...actions].sort()).toEqual([...expected].sort())
    for (const socket of [second, watcher]) socket.close()
  })
})
