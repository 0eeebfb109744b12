import { describe, expect, it, vi } from 'vitest'
import type { Activity } from '../../contract/api/activities.ts'
import { ACTIVITY_CALL_HEADER } from '../../contract/api/activities.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { FAILURE_WAIT_MS } from '../../machines/activityDialer.machine.ts'
import { createAgentSystem } from '../../src/app/agentSystem.ts'
import type { ActivityEffects, AgentSystemOptions } from '../../src/app/agentSystem.ts'
import { answer, FakeSocket, fakeEffects, pauseRecord, agentSystemsPerTest, FAKE_TEAM, FAKE_VOIP, fakeWebphone } from './presence-fakes.ts'

// The activity dialer inside the root system with a fake phone: the socket's `activity` list reaches it, it dials
// through the webphone (origin activity, X-Atende-Activity) only while the agent is not_inuse in the serving tab, and
// an answered call goes out as done_activity on the socket and the REST done.

const VOIP = FAKE_VOIP
const TEAM = FAKE_TEAM
const AGENT = [PERMISSIONS.viewSoftphone, PERMISSIONS.viewTakeBreak, PERMISSIONS.viewActivities]

function activity(overrides: Partial<Activity> = {}): Activity {
  return {
    id: 5,
    user: 7,
    destination: '5511999990001',
    client: null,
    mailing: null,
    mailing_client: null,
    campaign: null,
    dialer: null,
    count: 0,
    done: false,
    start: new Date(Date.now() - 60_000).toISOString(),
    end: null,
    subject: 'Retorno',
    type: 'call',
    target: '',
    active: true,
    automatic_execution: true,
    created_by: 2,
    created: new Date().toISOString(),
    updated: new Date().toISOString(),
    ...overrides,
  }
}

const running = agentSystemsPerTest()
function start(overrides: Partial<AgentSystemOptions> = {}, withActivities = true) {
  const fakes = fakeEffects()
  const phone = fakeWebphone()
  const activities = {
    attempt: vi.fn(async (id: number) => activity({ id, count: 1 })),
    done: vi.fn(async (id: number) => activity({ id, done: true })),
  } satisfies ActivityEffects
  const options: AgentSystemOptions = {
    userId: 7,
    roles: AGENT,
    endpoint: '1001',
    token: null,
    locale: 'pt-BR',
    page: '/',
    tabId: 'tab-a',
    socketUrl: 'ws://atende.test/ws/business/',
    webphone: true,
    voip: VOIP,
    team: TEAM,
    ...overrides,
  }
  const system = createAgentSystem(options, { ...fakes.effects, webphone: phone.webphone, ...(withActivities ? { activities } : {}) })
  running.push(system)
  const socket = FakeSocket.last()
  socket.open()
  return { system, socket, activities, fakes, ...phone }
}
const flush = () => vi.advanceTimersByTimeAsync(0)
const dialled = (calls: unknown[][]) => calls.filter((call) => call[0] === 'call')

async function registered(harness: ReturnType<typeof start>) {
  harness.socket.receive({ action: 'startService' })
  await flush()
  const phone = harness.phones[0]
  phone.emit({ type: 'PHONE_TRANSPORT', connected: true })
  phone.emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
  await flush()
  return phone
}

describe('activity dialer in the agent system', () => {
  it('dials a due activity through the webphone when available, and sends done_activity and the REST done when answered', async () => {
    const harness = start()
    const { system, socket, activities } = harness
    socket.receive({ action: 'activity', activities: [activity()] })
    await flush()
    // Not serving yet: nothing.
    expect(activities.attempt).not.toHaveBeenCalled()
    const phone = await registered(harness)
    expect(activities.attempt).toHaveBeenCalledExactlyOnceWith(5)
    const calls = dialled(phone.calls)
    expect(calls).toHaveLength(1)
    const [, callId, target, headers] = calls[0] as [string, string, string, Record<string, string>]
    expect(target).toBe('5511999990001')
    expect(headers[ACTIVITY_CALL_HEADER]).toBe('5')
    expect(headers['X-Atende-Call-Type']).toBe('10')
    expect(system.get('activityDialer').getSnapshot().value).toBe('calling')
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('busy')
    phone.emit({ type: 'PHONE_ACCEPTED', callId })
    await flush()
    expect(socket.sent).toContainEqual({ action: 'done_activity', id: 5 })
    expect(activities.done).toHaveBeenCalledExactlyOnceWith(5)
    phone.emit({ type: 'PHONE_ENDED', callId, code: null, reason: 'BYE' })
    await flush()
    // Available again with nothing left to dial.
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('not_inuse')
    expect(system.get('activityDialer').getSnapshot().value).toBe('ready')
    // The server's list still carries it for a moment: not dialled again.
    socket.receive({ action: 'activity', activities: [activity()] })
    await flush()
    expect(activities.attempt).toHaveBeenCalledTimes(1)
  })

  it('an unanswered call waits before the next try; a pause stops the dialer', async () => {
    const harness = start()
    const { socket, activities, fakes } = harness
    socket.receive({ action: 'activity', activities: [activity()] })
    const phone = await registered(harness)
    const [, callId] = dialled(phone.calls)[0] as [string, string]
    phone.emit({ type: 'PHONE_ENDED', callId, code: 480, reason: 'Temporarily Unavailable' })
    await flush()
    expect(socket.sent.filter((m) => m.action === 'done_activity')).toEqual([])
    await vi.advanceTimersByTimeAsync(FAILURE_WAIT_MS - 1000)
    expect(activities.attempt).toHaveBeenCalledTimes(1)
    // The agent takes a pause (it enables the webphone) before the wait is over: no more tries.
    fakes.effects.startPause.mockResolvedValueOnce(answer(true, pauseRecord({ enable_webphone: true })))
    harness.system.get('pause').send({ type: 'START', pauseId: 3 })
    await flush()
    expect(harness.system.get('agentStatus').getSnapshot().context.status).toBe('paused')
    await vi.advanceTimersByTimeAsync(5 * FAILURE_WAIT_MS)
    expect(activities.attempt).toHaveBeenCalledTimes(1)
    expect(dialled(phone.calls)).toHaveLength(1)
  })

  it('never dials without the activity requests or the softphone permission', async () => {
    const without = start({}, false)
    without.socket.receive({ action: 'activity', activities: [activity()] })
    const phone = await registered(without)
    expect(dialled(phone.calls)).toEqual([])
    expect(without.system.get('activityDialer').getSnapshot().value).toBe('idle')
  })
})
