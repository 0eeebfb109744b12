import { describe, expect, it, vi } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { PAUSED_BY_SUPERVISOR_NOTICE } from '../../machines/pause.machine.ts'
import { REMOTE_LOGOUT_NOTICE } from '../../machines/serviceSocket.machine.ts'
import { BROADCAST_CHANNEL_NAME, createAgentSystem, statusForPause } from '../../src/app/agentSystem.ts'
import type { AgentSystemOptions } from '../../src/app/agentSystem.ts'
import { answer, FakeSocket, fakeBrowserChannels, fakeEffects, pauseRecord, agentSystemsPerTest } from './presence-fakes.ts'

// The root actor system wired with fakes: what goes out on the service socket and the BroadcastChannel, and what the
// actors do with what comes in (spec 000 §4, §7; spec 001 §4, §7).

const AGENT = [PERMISSIONS.viewSoftphone, PERMISSIONS.viewChat, PERMISSIONS.viewTakeBreak]

function options(overrides: Partial<AgentSystemOptions> = {}): AgentSystemOptions {
  return {
    userId: 7,
    roles: AGENT,
    endpoint: '1001',
    token: null,
    locale: 'pt-BR',
    page: '/',
    tabId: 'tab-a',
    socketUrl: 'ws://atende.test/ws/business/',
    webphone: false,
    ...overrides,
  }
}

const running = agentSystemsPerTest()
function start(opts: Partial<AgentSystemOptions> = {}, fakes = fakeEffects()) {
  const system = createAgentSystem(options(opts), fakes.effects)
  running.push(system)
  return { system, ...fakes }
}

/** Lets queued microtasks (channel messages, settled requests) run. */
const flush = () => vi.advanceTimersByTimeAsync(0)

describe('service socket wiring', () => {
  it('logs in when the socket opens, reports the page and both statuses, then pings every 5 s', async () => {
    start({ page: '/profile' })
    const socket = FakeSocket.last()
    expect(socket.url).toBe('ws://atende.test/ws/business/')
    socket.open()
    expect(socket.sent).toEqual([
      { action: 'login' },
      { action: 'change_page', page: '/profile' },
      { action: 'change_state', channel: 'telephony', status: 'unavailable' },
      { action: 'change_state', channel: 'chat', status: 'unavailable' },
    ])
    socket.sent.length = 0
    await vi.advanceTimersByTimeAsync(5000)
    expect(socket.actions()).toEqual(['ping'])
  })

  it('asks for pauses and activities every 5 s once this tab serves', async () => {
    const { system } = start()
    const socket = FakeSocket.last()
    socket.open()
    socket.sent.length = 0
    socket.receive({ action: 'startService' })
    expect(system.get('tabOwnership').getSnapshot().value).toBe('serving')
    expect(socket.actions()).toEqual(['get_pauses', 'get_activities'])
    socket.sent.length = 0
    await vi.advanceTimersByTimeAsync(5000)
    expect(socket.actions()).toEqual(['ping', 'get_pauses', 'get_activities'])
  })

  it('answers serverPing with server_pong and reports page changes', () => {
    const { system } = start()
    const socket = FakeSocket.last()
    socket.open()
    socket.sent.length = 0
    socket.receive({ action: 'serverPing' })
    system.pageChanged('/machines')
    expect(socket.sent).toEqual([{ action: 'server_pong' }, { action: 'change_page', page: '/machines' }])
  })

  it('reconnects after a drop, logs in again and re-syncs the pause and the statuses', async () => {
    const { effects } = start()
    FakeSocket.last().open()
    await flush()
    expect(effects.checkPause).toHaveBeenCalledTimes(1)
    FakeSocket.last().close()
    await vi.advanceTimersByTimeAsync(1000)
    const again = FakeSocket.last()
    expect(FakeSocket.all).toHaveLength(2)
    again.open()
    await flush()
    expect(again.actions()).toEqual(['login', 'change_page', 'change_state', 'change_state'])
    expect(effects.checkPause).toHaveBeenCalledTimes(2)
  })

  it('acts on refresh, openUrl, updateUser and dnd', () => {
    const { system, effects } = start()
    const socket = FakeSocket.last()
    socket.open()
    socket.receive({ action: 'refresh' })
    socket.receive({ action: 'openUrl', url: 'https://example.com/ficha/1' })
    socket.receive({ action: 'updateUser' })
    socket.sent.length = 0
    socket.receive({ action: 'dnd', dnd: true })
    expect(effects.reload).toHaveBeenCalledTimes(1)
    expect(effects.openUrl).toHaveBeenCalledWith('https://example.com/ficha/1')
    expect(effects.refetchProfile).toHaveBeenCalledTimes(1)
    expect(system.get('agentStatus').getSnapshot().value).toBe('do_not_disturb')
    expect(socket.sent).toEqual([{ action: 'change_state', channel: 'telephony', status: 'do_not_disturb' }])
    expect(effects.postToParent).toHaveBeenLastCalledWith({ status: 'do_not_disturb', text: 'Não perturbe', token: null, endpoint: '1001' })
  })

  it("keeps the socket's activity list (the server's shape) and ignores a malformed one", () => {
    const { effects } = start()
    const socket = FakeSocket.last()
    socket.open()
    const activity = {
      id: 4,
      user: 7,
      destination: '1001',
      client: null,
      mailing: null,
      mailing_client: null,
      campaign: null,
      dialer: null,
      count: 2,
      done: false,
      start: '2030-01-01T10:00:00.000Z',
      end: null,
      subject: 'Retorno',
      type: 'call',
      target: '',
      active: true,
      automatic_execution: true,
      created_by: 1,
      created: '2030-01-01T09:00:00.000Z',
      updated: '2030-01-01T09:00:00.000Z',
    }
    socket.receive({ action: 'activity', activities: [activity] })
    expect(effects.rememberActivities).toHaveBeenLastCalledWith([activity])
    socket.receive({ action: 'activity', activities: [] })
    expect(effects.rememberActivities).toHaveBeenLastCalledWith([])
    socket.receive({ action: 'activity', activities: [{ id: 'x' }] })
    expect(effects.rememberActivities).toHaveBeenCalledTimes(2)
  })

  it('shows the remote-logout notice and signs out 15 s later, telling the socket', async () => {
    const { effects } = start()
    const socket = FakeSocket.last()
    socket.open()
    socket.receive({ action: 'logout', reason: 'password-change' })
    expect(effects.notify).toHaveBeenCalledWith({ message: REMOTE_LOGOUT_NOTICE, severity: 'warning' })
    await vi.advanceTimersByTimeAsync(14_999)
    expect(effects.logout).not.toHaveBeenCalled()
    socket.sent.length = 0
    await vi.advanceTimersByTimeAsync(1)
    expect(effects.logout).toHaveBeenCalledTimes(1)
    expect(socket.actions()).toContain('logout')
  })

  it('says logout on the socket when signing out, then closes the socket and the channel', () => {
    const { FakeChannel, open } = fakeBrowserChannels()
    const { system } = start(
      {},
      fakeEffects((name) => new FakeChannel(name)),
    )
    const socket = FakeSocket.last()
    socket.open()
    socket.sent.length = 0
    system.stop({ signingOut: true })
    expect(socket.actions()).toEqual(['logout'])
    expect(socket.readyState).toBe(3)
    expect(open.size).toBe(0)
  })
})

describe('one serving tab', () => {
  it("'Atender aqui' sends service_here and reloads after 100 ms; the serving tab stops the phone and reloads after 3 s", async () => {
    const { FakeChannel } = fakeBrowserChannels()
    const tabA = start(
      { tabId: 'tab-a' },
      fakeEffects((name) => new FakeChannel(name)),
    )
    const socketA = FakeSocket.last()
    socketA.open()
    socketA.receive({ action: 'startService' })
    expect(tabA.system.get('tabOwnership').getSnapshot().value).toBe('serving')

    const tabB = start(
      { tabId: 'tab-b' },
      fakeEffects((name) => new FakeChannel(name)),
    )
    const socketB = FakeSocket.last()
    await flush() // who_serves → tab A answers serving
    expect(tabB.system.get('tabOwnership').getSnapshot().value).toBe('otherTab')
    socketB.open()
    socketB.receive({ action: 'serviceElsewhere' })
    socketB.sent.length = 0

    tabB.system.get('tabOwnership').send({ type: 'SERVICE_HERE' })
    expect(socketB.actions()).toEqual(['service_here'])
    await flush()
    expect(tabA.system.get('tabOwnership').getSnapshot().value).toBe('takenOver')
    expect(tabA.log).toEqual(['stopPhone'])

    await vi.advanceTimersByTimeAsync(100)
    expect(tabB.log).toEqual(['reload'])
    expect(tabA.log).toEqual(['stopPhone'])
    await vi.advanceTimersByTimeAsync(2900)
    expect(tabA.log).toEqual(['stopPhone', 'reload'])
  })

  it('uses the channel name atende-service and never hears its own messages', async () => {
    const { FakeChannel, open } = fakeBrowserChannels()
    const { system } = start(
      { tabId: 'alone' },
      fakeEffects((name) => new FakeChannel(name)),
    )
    expect([...open].map((channel) => channel.name)).toEqual([BROADCAST_CHANNEL_NAME])
    await flush()
    expect(system.get('tabOwnership').getSnapshot().value).toBe('claiming')
  })

  it('a tab that lost the service elsewhere (another browser) reloads after 3 s', async () => {
    const { system, log } = start()
    const socket = FakeSocket.last()
    socket.open()
    socket.receive({ action: 'startService' })
    socket.receive({ action: 'serviceElsewhere' })
    expect(system.get('tabOwnership').getSnapshot().value).toBe('takenOver')
    await vi.advanceTimersByTimeAsync(3000)
    expect(log).toEqual(['stopPhone', 'reload'])
  })
})

describe('pause wiring', () => {
  it('a supervisor pause shows the notice, counts every second and reports paused', async () => {
    const { system, effects } = start()
    const socket = FakeSocket.last()
    socket.open()
    await flush() // the start-up pause check: none
    socket.sent.length = 0
    socket.receive({ action: 'startPause', pause: pauseRecord({ started_by: 99, seconds: 5 }) })
    const pause = system.get('pause').getSnapshot()
    expect(pause.value).toBe('paused')
    expect(pause.context.pausedBySupervisor).toBe(true)
    expect(effects.notify).toHaveBeenCalledWith({ message: PAUSED_BY_SUPERVISOR_NOTICE, severity: 'info' })
    expect(effects.rememberPause).toHaveBeenLastCalledWith(expect.objectContaining({ id: 41, description: 'Café' }))
    expect(socket.sent).toContainEqual({ action: 'change_state', channel: 'telephony', status: 'paused' })
    expect(socket.sent).toContainEqual({ action: 'change_state', channel: 'chat', status: 'paused' })
    await vi.advanceTimersByTimeAsync(2000)
    expect(system.get('pause').getSnapshot().context.seconds).toBe(7)

    socket.receive({ action: 'stopPause', pause: null, stopped_by: 99 })
    expect(system.get('pause').getSnapshot().value).toBe('notPaused')
    expect(system.get('agentStatus').getSnapshot().value).toBe('unavailable')
  })

  it('without a running webphone a chosen pause starts at once (unavailable is not busy)', async () => {
    expect(statusForPause('unavailable', false)).toBe('not_inuse')
    expect(statusForPause('unavailable', true)).toBe('unavailable')
    expect(statusForPause('busy', false)).toBe('busy')

    const free = start()
    free.system.get('pause').send({ type: 'START', pauseId: 3 })
    expect(free.system.get('pause').getSnapshot().value).toBe('starting')
    await flush()
    expect(free.effects.startPause).toHaveBeenCalledWith({ pause_id: 3 })
    expect(free.system.get('pause').getSnapshot().value).toBe('paused')

    // A webphone that is off (here: no voip) cannot keep the agent busy either; a running one makes the pause wait
    // (agent-system-webphone.test.ts).
    const phoneOff = start({ webphone: true, tabId: 'tab-b' })
    phoneOff.system.get('pause').send({ type: 'START', pauseId: 3 })
    expect(phoneOff.system.get('pause').getSnapshot().value).toBe('starting')
  })

  it('an exceeded stop opens the justification, and the reason goes to the stop', async () => {
    const fakes = fakeEffects()
    fakes.effects.checkPause.mockResolvedValue(pauseRecord({ maximum_duration: 1, seconds: 90, exceeded: true }))
    fakes.effects.stopPause.mockResolvedValueOnce(answer(false, pauseRecord(), 5, 'Pausa excedida: justifique')).mockResolvedValueOnce(answer(true, null))
    const { system } = start({}, fakes)
    await flush()
    const pause = system.get('pause')
    expect(pause.getSnapshot().value).toBe('paused')

    pause.send({ type: 'STOP' })
    await flush()
    expect(pause.getSnapshot().value).toEqual({ exceeded: 'justifying' })
    pause.send({ type: 'JUSTIFY', reason: '   ' })
    expect(pause.getSnapshot().value).toEqual({ exceeded: 'justifying' })
    pause.send({ type: 'JUSTIFY', reason: ' Reunião com a supervisão ' })
    await flush()
    expect(fakes.effects.stopPause).toHaveBeenLastCalledWith({ reason: 'Reunião com a supervisão' })
    expect(pause.getSnapshot().value).toBe('notPaused')
    expect(fakes.effects.rememberPause).toHaveBeenLastCalledWith(null)
  })

  it('a swap stops, starts the new type with report_pause_id and tells the socket', async () => {
    const fakes = fakeEffects()
    fakes.effects.startPause.mockResolvedValue(answer(true, pauseRecord({ id: 42, pause_id: 4 })))
    const { system } = start({}, fakes)
    const socket = FakeSocket.last()
    socket.open()
    socket.receive({ action: 'pause', pause: pauseRecord() })
    socket.sent.length = 0
    system.get('pause').send({ type: 'SWAP', pauseId: 4 })
    await flush()
    expect(fakes.effects.stopPause).toHaveBeenCalledWith({})
    expect(fakes.effects.startPause).toHaveBeenCalledWith({ pause_id: 4, report_pause_id: 41 })
    expect(system.get('pause').getSnapshot().context.current).toMatchObject({ id: 42, pauseId: 4 })
    expect(socket.sent).toContainEqual({ action: 'start_pause', id: 42 })
  })
})

describe('screen lock wiring', () => {
  it('a pause with lock_screen locks; a wrong password keeps it locked, the right one unlocks', async () => {
    const { system, effects } = start()
    const socket = FakeSocket.last()
    socket.open()
    socket.receive({ action: 'startPause', pause: pauseRecord({ lock_screen: true, started_timestamp: 1_700_000_000 }) })
    const lock = system.get('screenLock')
    expect(lock.getSnapshot().value).toBe('locked')
    expect(lock.getSnapshot().context).toMatchObject({ pauseActive: true, pauseStartedAt: 1_700_000_000 })

    lock.send({ type: 'SUBMIT', password: 'errada' })
    await flush()
    expect(effects.validatePassword).toHaveBeenCalledWith('errada')
    expect(lock.getSnapshot().value).toBe('locked')
    expect(effects.logFailure).toHaveBeenCalled()

    lock.send({ type: 'SUBMIT', password: 'certa' })
    await flush()
    expect(lock.getSnapshot().value).toBe('unlocked')
  })

  it('locks by hand and shows the locked title when no pause runs', () => {
    const { system } = start()
    system.get('screenLock').send({ type: 'LOCK', by: 'manual' })
    expect(system.get('screenLock').getSnapshot()).toMatchObject({ value: 'locked', context: { pauseActive: false } })
  })
})
