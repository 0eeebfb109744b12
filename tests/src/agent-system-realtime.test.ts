import { describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { FORWARDED_ACTIONS } from '../../machines/serviceSocket.machine.ts'
import { serverActionTable } from '../../src/agent/realtime.ts'
import type { SocketHandlers } from '../../src/agent/slice.ts'
import { AGENT_ACTOR_NAMES, createAgentSystem } from '../../src/app/agentSystem.ts'
import type { AgentSystemOptions } from '../../src/app/agentSystem.ts'
import { FAKE_TEAM, FAKE_VOIP, FakeSocket, agentSystemsPerTest, fakeEffects, fakeWebphone, pauseRecord } from './presence-fakes.ts'

// The one realtime table of the service socket (src/agent/realtime.ts): each forwarded server action has one
// handler, every frame is read against its schema first, and a malformed frame is logged and dropped.

const running = agentSystemsPerTest()

function start(overrides: Partial<AgentSystemOptions> = {}) {
  const fakes = fakeEffects()
  const { webphone, phones } = fakeWebphone()
  const effects = { ...fakes.effects, webphone }
  const system = createAgentSystem(
    {
      userId: 7,
      roles: [PERMISSIONS.viewSoftphone, PERMISSIONS.viewTakeBreak],
      endpoint: '1001',
      token: null,
      locale: 'pt-BR',
      page: '/',
      tabId: 'tab-a',
      socketUrl: 'ws://atende.test/ws/business/',
      webphone: true,
      voip: FAKE_VOIP,
      team: FAKE_TEAM,
      ...overrides,
    },
    effects,
  )
  running.push(system)
  const socket = FakeSocket.last()
  socket.open()
  return { system, effects, socket, phones }
}

describe('the realtime table', () => {
  it('drops a malformed frame of a known action and logs it; an unknown action is ignored without a word', () => {
    const { system, effects, socket } = start()
    socket.receive({ action: 'startPause', pause: { id: 7 } })
    socket.receive({ action: 'dnd', dnd: 'yes' })
    expect(system.get('pause').getSnapshot().value).toBe('notPaused')
    expect(system.get('webphone').getSnapshot().context.dnd).toBe(false)
    expect(effects.rememberPause).not.toHaveBeenCalled()
    expect(effects.logFailure.mock.calls.map(([reason]) => reason)).toEqual([
      expect.stringMatching(/^dropped a malformed startPause frame \(pause\.user: /),
      expect.stringMatching(/^dropped a malformed dnd frame \(dnd: /),
    ])
    socket.receive({ action: 'noSuchAction' })
    socket.receive({ action: 'dial' })
    expect(effects.logFailure).toHaveBeenCalledTimes(2)
    // The same actions well formed go through.
    socket.receive({ action: 'startPause', pause: pauseRecord({ started_by: 99 }) })
    expect(system.get('pause').getSnapshot().value).toBe('paused')
  })

  it("logs the server's refusals and leaves the supervisors' feed to a later actor", () => {
    const { effects, socket } = start()
    socket.receive({ action: 'error', detail: 'Valor inválido.', request: 'change_state' })
    expect(effects.logFailure).toHaveBeenLastCalledWith('the service socket refused change_state: Valor inválido.')
    socket.receive({ action: 'agentStatus', user: 3, channel: 'telephony', status: 'busy', previous: null, changed_at: '2030-01-01T10:00:00.000Z' })
    expect(effects.logFailure).toHaveBeenCalledTimes(1)
  })

  it('hands the endpoint state to the webphone; a state the contract does not know is dropped', () => {
    const { system, socket } = start()
    socket.receive({ action: 'changeDeviceState', state: 'in_activity' })
    expect(system.get('webphone').getSnapshot().context.deviceState).toBe('in_activity')
    socket.receive({ action: 'changeDeviceState', state: 'sleeping' })
    expect(system.get('webphone').getSnapshot().context.deviceState).toBe('in_activity')
  })

  it('has one handler per forwarded action: a second one, or none, is a wiring error', () => {
    const handlers = Object.fromEntries(FORWARDED_ACTIONS.map((action) => [action, () => []])) as unknown as SocketHandlers<(typeof FORWARDED_ACTIONS)[number]>
    expect(Object.keys(serverActionTable([{ slice: 'all', socket: handlers }])).sort()).toEqual([...FORWARDED_ACTIONS].sort())
    expect(() =>
      serverActionTable([
        { slice: 'all', socket: handlers },
        { slice: 'again', socket: { dnd: () => [] } },
      ]),
    ).toThrow('the server action dnd is handled by both all and again')
    const { dnd: _dnd, refresh: _refresh, ...rest } = handlers
    expect(() => serverActionTable([{ slice: 'most', socket: rest }])).toThrow('no slice handles the server actions dnd, refresh')
  })

  it('starts one actor per slice, under the names the visualizer lists', () => {
    const { system } = start()
    for (const name of AGENT_ACTOR_NAMES) expect(system.get(name).id).toBe(name)
  })
})
