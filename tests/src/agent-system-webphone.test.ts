import { describe, expect, it, vi } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { createAgentSystem } from '../../src/app/agentSystem.ts'
import type { AgentSystemOptions } from '../../src/app/agentSystem.ts'
import { FakeSocket, fakeEffects, pauseRecord, answer, agentSystemsPerTest, FAKE_TEAM, FAKE_VOIP, fakeWebphone } from './presence-fakes.ts'

// The webphone actor inside the root system, with a fake phone: tab ownership and pauses reach it, its snapshot
// reaches agentStatus (change_state on the socket), socket commands (dnd, startWebphone, clickToCall) reach it.

const VOIP = FAKE_VOIP
const TEAM = FAKE_TEAM
const AGENT = [PERMISSIONS.viewSoftphone, PERMISSIONS.viewTakeBreak]

const running = agentSystemsPerTest()
function start(overrides: Partial<AgentSystemOptions> = {}) {
  const fakes = fakeEffects()
  const phone = fakeWebphone({ form: 1 })
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
  const system = createAgentSystem(options, { ...fakes.effects, webphone: phone.webphone })
  running.push(system)
  const socket = FakeSocket.last()
  socket.open()
  return { system, socket, ...phone, fakes }
}
const flush = () => vi.advanceTimersByTimeAsync(0)
const telephonyStatuses = (socket: FakeSocket) => socket.sent.filter((m) => m.action === 'change_state' && m.channel === 'telephony').map((m) => m.status)

describe('webphone in the agent system', () => {
  it('starts the phone only in the serving tab and reports registration, calls and ringing as the telephony status', async () => {
    const { system, socket, phones } = start()
    expect(phones).toHaveLength(0)
    socket.receive({ action: 'startService' })
    await flush()
    expect(phones).toHaveLength(1)
    expect(phones[0].config).toEqual({
      websocket: VOIP.websocket,
      endpoint: '1001',
      realm: 'atende.test',
      password: 'pw',
      audio: { input: null, output: null },
    })
    const phone = phones[0]
    phone.emit({ type: 'PHONE_TRANSPORT', connected: true })
    phone.emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('not_inuse')
    phone.emit({ type: 'PHONE_INCOMING', callId: 'in-1', uid: 'u1', phone: '5511999990000', name: 'Ana', headers: {} })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('ringing')
    system.get('webphone').send({ type: 'ANSWER', callId: 'in-1' })
    await flush()
    expect(phone.calls).toContainEqual(['answer', 'in-1'])
    phone.emit({ type: 'PHONE_ACCEPTED', callId: 'in-1' })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('busy')
    expect(system.get('serviceSocket').getSnapshot().context.hasCalls).toBe(true)
    phone.emit({ type: 'PHONE_ENDED', callId: 'in-1', code: null, reason: 'BYE' })
    await flush()
    expect(telephonyStatuses(socket)).toEqual(['unavailable', 'not_inuse', 'ringing', 'busy', 'not_inuse'])
    expect(system.get('serviceSocket').getSnapshot().context.hasCalls).toBe(false)
  })

  it('after-service when the customer hangs up: the status goes busy → after_service (never not_inuse between), after-service/start, the socket timer, a ring rejected, the server timeout ends it', async () => {
    const { system, socket, phones, webphone } = start({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
    socket.receive({ action: 'startService' })
    await flush()
    const phone = phones[0]
    phone.emit({ type: 'PHONE_TRANSPORT', connected: true })
    phone.emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    phone.emit({ type: 'PHONE_INCOMING', callId: 'in-1', uid: 'u1', phone: '5511999990000', name: 'Ana', headers: {} })
    await flush()
    system.get('webphone').send({ type: 'ANSWER', callId: 'in-1' })
    phone.emit({ type: 'PHONE_ACCEPTED', callId: 'in-1' })
    await flush()
    // The customer hangs up (a BYE from the far end: no HANGUP from the agent).
    phone.emit({ type: 'PHONE_ENDED', callId: 'in-1', code: null, reason: 'BYE' })
    await flush()
    expect(telephonyStatuses(socket)).toEqual(['unavailable', 'not_inuse', 'ringing', 'busy', 'after_service'])
    expect(webphone.startAfterService).toHaveBeenCalledWith('u1')
    expect(socket.sent).toContainEqual({ action: 'after_service_timer', timeout: 30, step_uid: 'u1', session_id: 77 })
    // 28 s left: a new call is refused at once (486), it never rings.
    await vi.advanceTimersByTimeAsync(2000)
    phone.emit({ type: 'PHONE_INCOMING', callId: 'in-2', uid: 'u2', phone: '5511988887777', name: 'Bia', headers: {} })
    await flush()
    expect(phone.calls).toContainEqual(['hangup', 'in-2', 486, 'endpointBusy'])
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('after_service')
    // The server ended it (afterServiceTimeout): the after-service is over, the server hears the end.
    socket.receive({ action: 'afterServiceTimeout', uid: 'u1', session_id: 77 })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('not_inuse')
    expect(socket.sent).toContainEqual({ action: 'after_service_finished', session_id: 77 })
    expect(webphone.endAfterService).toHaveBeenCalledWith({ callId: 'in-1', uid: 'u1', sessionId: 77, duration: 2 })
  })

  it('a pause the server started while the webphone still counted down an after-service the server had ended: stopping it leaves the agent available, not in after-service', async () => {
    const { system, socket, phones, webphone } = start({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
    socket.receive({ action: 'startService' })
    await flush()
    const phone = phones[0]
    phone.emit({ type: 'PHONE_TRANSPORT', connected: true })
    phone.emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    phone.emit({ type: 'PHONE_INCOMING', callId: 'in-1', uid: 'u1', phone: '5511999990000', name: 'Ana', headers: {} })
    await flush()
    system.get('webphone').send({ type: 'ANSWER', callId: 'in-1' })
    phone.emit({ type: 'PHONE_ACCEPTED', callId: 'in-1' })
    await flush()
    phone.emit({ type: 'PHONE_ENDED', callId: 'in-1', code: null, reason: 'BYE' })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('after_service')
    await vi.advanceTimersByTimeAsync(5000)
    // The server no longer holds an after-service (it ended it; its afterServiceTimeout never reached this tab) and
    // starts a break (another session asked for it): the sync frame names the running pause.
    socket.receive({ action: 'pause', pause: pauseRecord() })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('paused')
    // The after-service is over in the browser too, and the server hears its end.
    expect(socket.sent).toContainEqual({ action: 'after_service_finished', session_id: 77 })
    expect(webphone.endAfterService).toHaveBeenCalledWith({ callId: 'in-1', uid: 'u1', sessionId: 77, duration: 5 })
    // The break stops (the other session stopped it): available, never after_service again.
    socket.receive({ action: 'pause', pause: null })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('not_inuse')
    expect(telephonyStatuses(socket)).toEqual(['unavailable', 'not_inuse', 'ringing', 'busy', 'after_service', 'paused', 'not_inuse'])
  })

  it('a re-sync of the break already running (a reconnect) leaves the after-service of a call taken during it', async () => {
    const { system, socket, phones } = start({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
    socket.receive({ action: 'startService' })
    await flush()
    const phone = phones[0]
    phone.emit({ type: 'PHONE_TRANSPORT', connected: true })
    phone.emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    // A break that leaves the webphone on: calls still come in.
    socket.receive({ action: 'pause', pause: pauseRecord({ enable_webphone: false }) })
    await flush()
    phone.emit({ type: 'PHONE_INCOMING', callId: 'in-1', uid: 'u1', phone: '5511999990000', name: 'Ana', headers: {} })
    await flush()
    system.get('webphone').send({ type: 'ANSWER', callId: 'in-1' })
    phone.emit({ type: 'PHONE_ACCEPTED', callId: 'in-1' })
    await flush()
    phone.emit({ type: 'PHONE_ENDED', callId: 'in-1', code: null, reason: 'BYE' })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('after_service')
    socket.receive({ action: 'pause', pause: pauseRecord({ enable_webphone: false }) })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('after_service')
    expect(socket.sent).not.toContainEqual({ action: 'after_service_finished', session_id: 77 })
  })

  it('a pending pause (a supervisor asked during the after-service) leaves the after-service running', async () => {
    const { system, socket, phones } = start({ team: { ...TEAM, enable_after_service: true, duration_of_after_service: 30 } })
    socket.receive({ action: 'startService' })
    await flush()
    const phone = phones[0]
    phone.emit({ type: 'PHONE_TRANSPORT', connected: true })
    phone.emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    phone.emit({ type: 'PHONE_INCOMING', callId: 'in-1', uid: 'u1', phone: '5511999990000', name: 'Ana', headers: {} })
    await flush()
    system.get('webphone').send({ type: 'ANSWER', callId: 'in-1' })
    phone.emit({ type: 'PHONE_ACCEPTED', callId: 'in-1' })
    await flush()
    phone.emit({ type: 'PHONE_ENDED', callId: 'in-1', code: null, reason: 'BYE' })
    await flush()
    socket.receive({ action: 'pause', pause: pauseRecord({ pending: true, started_by: 2, started_timestamp: null }) })
    await flush()
    expect(system.get('agentStatus').getSnapshot().context.status).toBe('after_service')
    expect(socket.sent).not.toContainEqual({ action: 'after_service_finished', session_id: 77 })
  })

  it('signs in to the telephony channel when the phone runs (system for auto login, user otherwise) and out on stop', async () => {
    const auto = start()
    expect(auto.webphone.telephonyChannel).not.toHaveBeenCalled()
    auto.socket.receive({ action: 'startService' })
    await flush()
    expect(auto.webphone.telephonyChannel).toHaveBeenCalledExactlyOnceWith(true, 'system')
    auto.phones[0].emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    await flush()
    expect(auto.webphone.telephonyChannel).toHaveBeenCalledTimes(1)
    auto.system.get('webphone').send({ type: 'STOP' })
    await flush()
    expect(auto.webphone.telephonyChannel).toHaveBeenLastCalledWith(false, 'user')
    expect(auto.webphone.telephonyChannel).toHaveBeenCalledTimes(2)
    auto.system.stop()

    FakeSocket.all = []
    const manual = start({ tabId: 'tab-b', team: { ...TEAM, enable_auto_login_webphone: false } })
    manual.socket.receive({ action: 'startService' })
    await flush()
    expect(manual.webphone.telephonyChannel).not.toHaveBeenCalled()
    manual.system.get('webphone').send({ type: 'START' })
    await flush()
    expect(manual.webphone.telephonyChannel).toHaveBeenCalledExactlyOnceWith(true, 'user')
    // Another tab takes the service: the phone stops, the agent stays signed in to the channel.
    manual.socket.receive({ action: 'serviceElsewhere' })
    await flush()
    expect(manual.system.get('webphone').getSnapshot().value).toBe('otherTab')
    expect(manual.webphone.telephonyChannel).toHaveBeenCalledTimes(1)
  })

  it('the socket dnd, startWebphone and clickToCall commands reach the webphone', async () => {
    const { system, socket, phones } = start({ team: { ...TEAM, enable_auto_login_webphone: false } })
    socket.receive({ action: 'startService' })
    await flush()
    expect(system.get('webphone').getSnapshot().value).toBe('off')
    socket.receive({ action: 'startWebphone' })
    await flush()
    phones[0].emit({ type: 'PHONE_TRANSPORT', connected: true })
    phones[0].emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    socket.receive({ action: 'clickToCall', number: '1140001000' })
    await flush()
    expect(phones[0].calls[0]).toEqual(['call', 'call-1', '1140001000', { 'X-Atende-Phone': '1140001000', 'X-Atende-Call-Type': '11' }])
    socket.receive({ action: 'dnd', dnd: true })
    await flush()
    expect(system.get('webphone').getSnapshot().context.dnd).toBe(true)
    expect(telephonyStatuses(socket).at(-1)).toBe('do_not_disturb')
  })

  it('a pause that enables the webphone rejects incoming calls; losing the tab stops the phone', async () => {
    const { system, socket, phones, fakes } = start()
    socket.receive({ action: 'startService' })
    await flush()
    const phone = phones[0]
    phone.emit({ type: 'PHONE_TRANSPORT', connected: true })
    phone.emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    fakes.effects.startPause.mockResolvedValueOnce(answer(true, pauseRecord({ enable_webphone: true })))
    system.get('pause').send({ type: 'START', pauseId: 1 })
    await flush()
    expect(system.get('pause').getSnapshot().value).toBe('paused')
    phone.emit({ type: 'PHONE_INCOMING', callId: 'in-1', uid: 'u1', phone: '5511999990000', name: 'Ana', headers: {} })
    await flush()
    expect(phone.calls).toContainEqual(['hangup', 'in-1', 486, 'pause'])
    socket.receive({ action: 'serviceElsewhere' })
    await flush()
    expect(system.get('webphone').getSnapshot().value).toBe('otherTab')
    expect(phone.stopped).toBe(true)
  })

  it('a chosen pause waits while the running phone is not registered, and starts once it is', async () => {
    const { system, socket, phones, fakes } = start()
    socket.receive({ action: 'startService' })
    await flush()
    system.get('pause').send({ type: 'START', pauseId: 3 })
    expect(system.get('pause').getSnapshot().value).toBe('pending')
    phones[0].emit({ type: 'PHONE_TRANSPORT', connected: true })
    phones[0].emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    await flush()
    expect(fakes.effects.startPause).toHaveBeenCalledWith({ pause_id: 3 })
  })

  it('keeps the webphone off for a user without the softphone permission', async () => {
    const { system, socket, phones } = start({ roles: [PERMISSIONS.viewTakeBreak], webphone: false })
    socket.receive({ action: 'startService' })
    await flush()
    expect(system.get('webphone').getSnapshot().value).toBe('off')
    expect(phones).toHaveLength(0)
  })
})
