import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  FORWARDED_ACTIONS,
  REMOTE_LOGOUT_NOTICE,
  nextRetryDelay,
  serviceSocketMachine,
  type ServiceSocketContext,
  type TransportCommand,
} from '../../machines/serviceSocket.machine.ts'
import { createFakes, describePaths, effectsOf, type Effect, type Fakes } from './paths.ts'

const ACTIONS = ['forward', 'resync', 'resend', 'notify', 'logout'] as const

function build(fakes: Fakes) {
  return serviceSocketMachine.provide({ actions: fakes.actions(ACTIONS), actors: { connection: fakes.transport<TransportCommand, void>('connection') } })
}

const message = (action: string, fields: Record<string, unknown> = {}) => ({ type: 'SOCKET_MESSAGE' as const, message: { action, ...fields } })

/** The actions written on the socket, in order. */
function sent(log: Effect[]): string[] {
  return (effectsOf(log, 'connection') as TransportCommand[]).map((command) => command.message.action)
}

const isConnected = (snapshot: AnyMachineSnapshot) => snapshot.matches({ connection: { socket: 'connected' } })
const context = (snapshot: AnyMachineSnapshot) => snapshot.context as ServiceSocketContext

/** The transport only reports messages once open. */
function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  return [
    { type: 'SOCKET_OPEN' },
    { type: 'SOCKET_CLOSED' },
    ...(isConnected(snapshot)
      ? [message('serverPing'), message('pong'), message('startPause', { pause: { id: 7 } }), message('logout'), message('mystery')]
      : []),
    { type: 'SERVING_CHANGED', serving: true },
    { type: 'SERVING_CHANGED', serving: false },
    { type: 'CALLS_CHANGED', hasCalls: true },
    { type: 'CALLS_CHANGED', hasCalls: false },
    { type: 'SEND', message: { action: 'change_state', status: 'paused' } },
    { type: 'PAGE_CHANGED', page: '/chats' },
    { type: 'CLOSE' },
  ]
}

/**
 * The flags change only where the machine reads them at once: serving while connected (the polls start or stop),
 * calls while a remote logout counts down or is postponed (the 15 s timer and the postponement read them). What they
 * are then still rides every later reconnect, back-off wait and logout.
 */
const FLAGS_WHERE_READ = (snapshot: AnyMachineSnapshot, event: AnyEventObject) =>
  (event.type !== 'SERVING_CHANGED' || isConnected(snapshot)) &&
  (event.type !== 'CALLS_CHANGED' || snapshot.matches({ remoteLogout: 'countingDown' }) || snapshot.matches({ remoteLogout: 'postponed' }))

describePaths({
  name: 'serviceSocket',
  machine: serviceSocketMachine,
  input: {},
  events,
  // The back-off delay and the page only change what is sent, not where the machine can go: projected away (their
  // rules have behaviour tests below).
  serializeState: (snapshot) => {
    const { everConnected, serving, hasCalls } = context(snapshot)
    return JSON.stringify({ value: snapshot.value, everConnected, serving, hasCalls })
  },
  // Even so, the graph has 64 states: the connection cycle (connecting → connected → disconnected → connecting) times
  // the logout region, times the serving and calls flags, which every state can toggle back and forth. A simple path
  // may toggle them anywhere along any lap of that cycle: over two million simple paths (the count stopped there, with
  // paths already 34 steps long). Simple paths run on the bounded sub-model where the flags change only where they are
  // read (39 states, 1092 simple paths); every other event is offered as in the whole graph.
  simplePaths: [{ name: 'flags changing where they are read', events: (snapshot) => events(snapshot).filter((event) => FLAGS_WHERE_READ(snapshot, event)) }],
  // Received messages, other actors' messages and page changes do not move the machine: give each its own path.
  distinguish: (event) => ['SOCKET_MESSAGE', 'SEND', 'PAGE_CHANGED'].includes(event.type),
  // A reconnect wait and the 15 s logout countdown would race; offer only one of them at a time.
  offerDelayed: (snapshot, type) =>
    !(type.includes('.connection.') && snapshot.matches({ remoteLogout: 'countingDown' })) &&
    !(type.includes('.remoteLogout.') && snapshot.matches({ connection: 'disconnected' })),
  build,
  expectEffects: (_snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const names = effects.map((effect) => effect.effect)
      const actions = sent(effects)
      if (index === 0) {
        expect(names).toEqual(['connection.open'])
        return
      }
      const before = path.steps[index - 1].state
      const after = step.state
      const event = step.event
      const timed = event.type.startsWith('xstate.after.')
      // Pings (and the serving tab's polls) keep running while timers are advanced for another delayed event.
      const expected = actions.filter((action) => !(timed && ['ping', 'get_pauses', 'get_activities'].includes(action)))
      if (timed && actions.includes('get_pauses')) expect(context(before).serving).toBe(true)
      const label = `step ${index} ${event.type}`

      if (event.type === 'SOCKET_OPEN' && before.matches({ connection: { socket: 'connecting' } })) {
        const polls = context(before).serving ? ['get_pauses', 'get_activities'] : []
        const page = context(before).page ? ['change_page'] : []
        expect(actions, label).toEqual(['login', ...page, ...polls])
        expect(names.includes('resync'), label).toBe(context(before).everConnected)
        // Every open, the first too: the statuses are reported again (the agent system used to relay it from outside).
        expect(
          names.filter((name) => name === 'resend'),
          label,
        ).toEqual(['resend'])
      } else if (event.type === 'SOCKET_MESSAGE' && isConnected(before)) {
        const action = (event.message as { action: string }).action
        if (action === 'serverPing') expect(actions, label).toEqual(['server_pong'])
        else expect(actions, label).toEqual([])
        if ((FORWARDED_ACTIONS as readonly string[]).includes(action)) expect(effectsOf(effects, 'forward')).toEqual([event.message])
        else expect(names.includes('forward'), label).toBe(false)
      } else if (event.type === 'SERVING_CHANGED' && isConnected(before) && event.serving) {
        expect(actions, label).toEqual(['get_pauses', 'get_activities'])
      } else if (event.type === 'SEND' && isConnected(before)) {
        expect(actions, label).toEqual(['change_state'])
      } else if (event.type === 'PAGE_CHANGED' && isConnected(before)) {
        expect(effectsOf(effects, 'connection'), label).toEqual([{ type: 'send', message: { action: 'change_page', page: '/chats' } }])
      } else if (!timed) {
        // Nothing is written, but the logout itself, once, when this step carries it out on an open socket (the calls
        // ending while a postponed logout waits).
        const loggingOut = !before.matches({ remoteLogout: 'loggingOut' }) && after.matches({ remoteLogout: 'loggingOut' })
        expect(expected, label).toEqual(loggingOut && isConnected(before) ? ['logout'] : [])
      }

      // Opening and closing the transport follows the connection region.
      if (!(event.type === 'SOCKET_OPEN' && before.matches({ connection: { socket: 'connecting' } }))) expect(names.includes('resend'), label).toBe(false)
      const wasOpen = before.matches({ connection: 'socket' })
      const isOpen = after.matches({ connection: 'socket' })
      expect(names.includes('connection.open'), label).toBe(!wasOpen && isOpen)
      expect(names.includes('connection.close'), label).toBe(wasOpen && !isOpen)

      // The remote logout: the notice when the command arrives, the logout when it is carried out, never under a call.
      const startedCountdown = !before.matches({ remoteLogout: 'countingDown' }) && after.matches({ remoteLogout: 'countingDown' })
      expect(effectsOf(effects, 'notify'), label).toEqual(startedCountdown ? [{ message: REMOTE_LOGOUT_NOTICE, severity: 'warning' }] : [])
      const loggedOut = !before.matches({ remoteLogout: 'loggingOut' }) && after.matches({ remoteLogout: 'loggingOut' })
      expect(names.includes('logout'), label).toBe(loggedOut)
      if (loggedOut) {
        expect(context(after).hasCalls).toBe(false)
        expect(actions.includes('logout'), label).toBe(isConnected(before))
      }
      if (after.matches({ remoteLogout: 'postponed' })) expect(context(after).hasCalls).toBe(true)
    })
  },
})

describe('serviceSocket behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start(input: { serving?: boolean; hasCalls?: boolean; page?: string } = {}) {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input }).start()
    return { actor, log: fakes.log }
  }

  it('sends login first when the socket opens', () => {
    const { actor, log } = start({ page: '/chats' })
    expect(sent(log)).toEqual([])
    actor.send({ type: 'SOCKET_OPEN' })
    expect(sent(log)).toEqual(['login', 'change_page'])
    expect(actor.getSnapshot().matches({ connection: { socket: 'connected' } })).toBe(true)
  })

  it('ping every 5 s and get_pauses/get_activities only while serving', () => {
    const { actor, log } = start()
    actor.send({ type: 'SOCKET_OPEN' })
    vi.advanceTimersByTime(4999)
    expect(sent(log)).toEqual(['login'])
    vi.advanceTimersByTime(1)
    expect(sent(log)).toEqual(['login', 'ping'])
    vi.advanceTimersByTime(5000)
    expect(sent(log)).toEqual(['login', 'ping', 'ping'])

    actor.send({ type: 'SERVING_CHANGED', serving: true })
    expect(sent(log).slice(3)).toEqual(['get_pauses', 'get_activities'])
    vi.advanceTimersByTime(5000)
    expect(sent(log).slice(5)).toEqual(['ping', 'get_pauses', 'get_activities'])

    actor.send({ type: 'SERVING_CHANGED', serving: false })
    vi.advanceTimersByTime(10_000)
    expect(sent(log).slice(8)).toEqual(['ping', 'ping'])
  })

  it('reconnect back-off doubles up to 30 s and resets after a successful open', () => {
    const { actor, log } = start()
    const opens = () => effectsOf(log, 'connection.open').length
    const waits: number[] = []
    // Fail seven attempts in a row, measuring how long each wait lasts.
    for (let attempt = 0; attempt < 7; attempt++) {
      actor.send({ type: 'SOCKET_CLOSED' })
      const before = opens()
      let waited = 0
      while (opens() === before) {
        vi.advanceTimersByTime(500)
        waited += 500
      }
      waits.push(waited)
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000])

    actor.send({ type: 'SOCKET_OPEN' })
    actor.send({ type: 'SOCKET_CLOSED' })
    const before = opens()
    vi.advanceTimersByTime(999)
    expect(opens()).toBe(before)
    vi.advanceTimersByTime(1)
    expect(opens()).toBe(before + 1)
    expect([1000, 16_000, 30_000].map(nextRetryDelay)).toEqual([2000, 30_000, 30_000])
  })

  it('asks for a re-sync after a reconnect, not after the first connection', () => {
    const { actor, log } = start({ serving: true })
    actor.send({ type: 'SOCKET_OPEN' })
    expect(effectsOf(log, 'resync')).toHaveLength(0)
    actor.send({ type: 'SOCKET_CLOSED' })
    vi.advanceTimersByTime(1000)
    actor.send({ type: 'SOCKET_OPEN' })
    expect(effectsOf(log, 'resync')).toHaveLength(1)
    // The serving tab also asks at once for the pause and activities it may have missed.
    expect(sent(log).slice(-3)).toEqual(['login', 'get_pauses', 'get_activities'])
  })

  it.each(FORWARDED_ACTIONS)('forwards the received action %s to the caller', (action) => {
    const { actor, log } = start()
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send(message(action, { id: 3 }))
    expect(effectsOf(log, 'forward')).toEqual([{ action, id: 3 }])
  })

  it('answers serverPing with server_pong and ignores pong and unknown actions', () => {
    const { actor, log } = start()
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send(message('serverPing'))
    actor.send(message('pong'))
    actor.send(message('somethingNew'))
    actor.send({ type: 'SOCKET_MESSAGE', message: 'not json' })
    expect(sent(log)).toEqual(['login', 'server_pong'])
    expect(effectsOf(log, 'forward')).toEqual([])
  })

  it('reports page changes and passes other actors’ messages while connected, drops them while disconnected', () => {
    const { actor, log } = start()
    actor.send({ type: 'SEND', message: { action: 'change_state', status: 'busy' } })
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send({ type: 'PAGE_CHANGED', page: '/phonecalls' })
    actor.send({ type: 'SEND', message: { action: 'start_pause', id: 9 } })
    expect(effectsOf(log, 'connection').slice(1)).toEqual([
      { type: 'send', message: { action: 'change_page', page: '/phonecalls' } },
      { type: 'send', message: { action: 'start_pause', id: 9 } },
    ])
    // After a reconnect the current page is reported again.
    actor.send({ type: 'SOCKET_CLOSED' })
    vi.advanceTimersByTime(1000)
    actor.send({ type: 'SOCKET_OPEN' })
    expect(effectsOf(log, 'connection').at(-1)).toEqual({ type: 'send', message: { action: 'change_page', page: '/phonecalls' } })
  })

  it('remote logout waits 15 s and is postponed while calls exist', () => {
    const { actor, log } = start({ hasCalls: true })
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send(message('logout'))
    expect(effectsOf(log, 'notify')).toEqual([{ message: REMOTE_LOGOUT_NOTICE, severity: 'warning' }])
    vi.advanceTimersByTime(15_000)
    expect(effectsOf(log, 'logout')).toHaveLength(0)
    expect(actor.getSnapshot().matches({ remoteLogout: 'postponed' })).toBe(true)
    actor.send({ type: 'CALLS_CHANGED', hasCalls: true })
    vi.advanceTimersByTime(60_000)
    expect(effectsOf(log, 'logout')).toHaveLength(0)
    actor.send({ type: 'CALLS_CHANGED', hasCalls: false })
    expect(effectsOf(log, 'logout')).toHaveLength(1)
    expect(sent(log).at(-1)).toBe('logout')
  })

  it('remote logout without calls logs out exactly 15 s after the command', () => {
    const { actor, log } = start()
    actor.send({ type: 'SOCKET_OPEN' })
    vi.advanceTimersByTime(2000)
    actor.send(message('logout'))
    actor.send(message('logout'))
    vi.advanceTimersByTime(14_999)
    expect(effectsOf(log, 'logout')).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(effectsOf(log, 'logout')).toHaveLength(1)
    expect(effectsOf(log, 'notify')).toHaveLength(1)
  })

  it('a call that starts during the countdown postpones the logout', () => {
    const { actor, log } = start()
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send(message('logout'))
    vi.advanceTimersByTime(10_000)
    actor.send({ type: 'CALLS_CHANGED', hasCalls: true })
    vi.advanceTimersByTime(5000)
    expect(effectsOf(log, 'logout')).toHaveLength(0)
    actor.send({ type: 'CALLS_CHANGED', hasCalls: false })
    expect(effectsOf(log, 'logout')).toHaveLength(1)
  })

  it('the countdown keeps running while the socket is down and logs out without writing on it', () => {
    const { actor, log } = start()
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send(message('logout'))
    actor.send({ type: 'SOCKET_CLOSED' })
    vi.advanceTimersByTime(1000) // reconnect attempt opens a new transport...
    vi.advanceTimersByTime(14_000) // ...that never opens
    expect(effectsOf(log, 'logout')).toHaveLength(1)
    expect(sent(log)).toEqual(['login'])
  })

  it('CLOSE closes the transport for good', () => {
    const { actor, log } = start()
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send({ type: 'CLOSE' })
    vi.advanceTimersByTime(120_000)
    expect(effectsOf(log, 'connection.open')).toHaveLength(1)
    expect(effectsOf(log, 'connection.close')).toHaveLength(1)
    expect(actor.getSnapshot().matches({ connection: 'closed' })).toBe(true)
  })
})
