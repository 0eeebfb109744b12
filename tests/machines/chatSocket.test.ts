import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  CHAT_PING_INTERVAL_MS,
  chatSocketMachine,
  frameCursor,
  nextChatRetryDelay,
  type ChatSocketContext,
  type ChatTransportCommand,
} from '../../machines/chatSocket.machine.ts'
import { createFakes, describePaths, effectsOf, type Effect, type Fakes } from './paths.ts'

function build(fakes: Fakes) {
  return chatSocketMachine.provide({
    actions: fakes.actions(['forward', 'logUnknown']),
    actors: { connection: fakes.transport<ChatTransportCommand, void>('connection') },
  })
}

const sent = (log: Effect[]) => (effectsOf(log, 'connection') as ChatTransportCommand[]).map((command) => command.message)
const context = (snapshot: AnyMachineSnapshot) => snapshot.context as ChatSocketContext
const isConnected = (snapshot: AnyMachineSnapshot) => snapshot.matches({ socket: 'connected' })
const ROOMS = { action: 'chats', data: [{ id: 4, revision: 7 }] }
const MYSTERY = { action: 'mystery' }

describePaths({
  name: 'chatSocket',
  machine: chatSocketMachine,
  input: {},
  events: (snapshot) => [
    { type: 'SOCKET_OPEN' },
    { type: 'SOCKET_CLOSED' },
    ...(isConnected(snapshot)
      ? [
          { type: 'SOCKET_MESSAGE', message: ROOMS },
          { type: 'SOCKET_MESSAGE', message: MYSTERY },
        ]
      : []),
    { type: 'SEND', message: { action: 'answer', step_id: 4 } },
    { type: 'SERVING_CHANGED', serving: false },
    { type: 'SERVING_CHANGED', serving: true },
    { type: 'CLOSE' },
  ],
  serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, everConnected: context(snapshot).everConnected, cursor: context(snapshot).cursor }),
  distinguish: (event: AnyEventObject) => ['SOCKET_MESSAGE', 'SEND'].includes(event.type),
  simplePaths: true,
  build,
  expectEffects: (_snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const names = effects.map((effect) => effect.effect)
      const frames = sent(effects).filter((frame) => frame.action !== 'ping')
      if (index === 0) return expect(names).toEqual(['connection.open'])
      const before = path.steps[index - 1].state
      const after = step.state
      const event = step.event
      const label = `step ${index} ${event.type}`
      if (event.type === 'SOCKET_OPEN' && before.matches({ socket: 'connecting' })) {
        // First open: the whole picture; after a reconnect with a cursor: only what was missed.
        const first =
          context(before).everConnected && context(before).cursor > 0 ? { action: 'sync', cursor: context(before).cursor } : { action: 'check_rooms' }
        expect(frames, label).toEqual([first, { action: 'count_unread_all_messages' }])
      } else if (event.type === 'SOCKET_MESSAGE' && isConnected(before)) {
        const known = event.message === ROOMS
        expect(effectsOf(effects, 'forward'), label).toEqual(known ? [ROOMS] : [])
        expect(effectsOf(effects, 'logUnknown'), label).toEqual(known ? [] : [MYSTERY])
        if (known) expect(context(after).cursor).toBe(7)
      } else if (event.type === 'SEND') {
        expect(frames, label).toEqual(isConnected(before) ? [{ action: 'answer', step_id: 4 }] : [])
      } else {
        expect(frames, label).toEqual([])
      }
      const wasOpen = before.matches('socket')
      const isOpen = after.matches('socket')
      expect(names.includes('connection.open'), label).toBe(!wasOpen && isOpen)
      expect(names.includes('connection.close'), label).toBe(wasOpen && !isOpen)
    })
  },
})

describe('chatSocket behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('pings every 5 s while connected, and only then', async () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: {} }).start()
    await vi.advanceTimersByTimeAsync(CHAT_PING_INTERVAL_MS * 2)
    expect(sent(fakes.log)).toEqual([])
    actor.send({ type: 'SOCKET_OPEN' })
    await vi.advanceTimersByTimeAsync(CHAT_PING_INTERVAL_MS - 1)
    expect(sent(fakes.log).filter((frame) => frame.action === 'ping')).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(sent(fakes.log).filter((frame) => frame.action === 'ping')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(CHAT_PING_INTERVAL_MS * 3)
    expect(sent(fakes.log).filter((frame) => frame.action === 'ping')).toHaveLength(4)
  })

  it('reconnects after 1 s, 2 s, 4 s … capped at 30 s, reset by an open, and re-syncs by cursor', async () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: {} }).start()
    const opens = () => fakes.log.filter((effect) => effect.effect === 'connection.open').length
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send({ type: 'SOCKET_MESSAGE', message: { action: 'message', message: { id: 1, revision: 41 } } })
    for (const wait of [1000, 2000, 4000]) {
      actor.send({ type: 'SOCKET_CLOSED' })
      const before = opens()
      await vi.advanceTimersByTimeAsync(wait - 1)
      expect(opens()).toBe(before)
      await vi.advanceTimersByTimeAsync(1)
      expect(opens()).toBe(before + 1)
    }
    actor.send({ type: 'SOCKET_OPEN' })
    expect(sent(fakes.log).at(-2)).toEqual({ action: 'sync', cursor: 41 })
    expect(context(actor.getSnapshot()).retryDelay).toBe(1000)
    expect(nextChatRetryDelay(16_000)).toBe(30_000)
    expect(nextChatRetryDelay(30_000)).toBe(30_000)
  })

  it('runs only in the serving tab: another tab waits without a socket until it serves', async () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { serving: false } }).start()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(fakes.log).toEqual([])
    actor.send({ type: 'SERVING_CHANGED', serving: true })
    expect(fakes.log.map((effect) => effect.effect)).toEqual(['connection.open'])
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send({ type: 'SERVING_CHANGED', serving: false })
    expect(fakes.log.at(-1)?.effect).toBe('connection.close')
    expect(actor.getSnapshot().value).toBe('standby')
  })

  it('answers serverPing with server_pong and pages a sync that has more', () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: {} }).start()
    actor.send({ type: 'SOCKET_OPEN' })
    actor.send({ type: 'SOCKET_MESSAGE', message: { action: 'serverPing' } })
    expect(sent(fakes.log).at(-1)).toEqual({ action: 'server_pong' })
    actor.send({ type: 'SOCKET_MESSAGE', message: { action: 'syncMessages', rooms: [], messages: [], room_ids: [], cursor: 1200, has_more: true } })
    expect(sent(fakes.log).at(-1)).toEqual({ action: 'sync', cursor: 1200 })
    expect(effectsOf(fakes.log, 'forward')).toHaveLength(1)
  })

  it('reads the cursor from a frame, its rows or nothing', () => {
    expect(frameCursor({ action: 'syncMessages', cursor: 90 })).toBe(90)
    expect(frameCursor({ action: 'messages', data: [{ revision: 3 }, { revision: 12 }] })).toBe(12)
    expect(frameCursor({ action: 'chat', chat: { revision: 5 } })).toBe(5)
    expect(frameCursor({ action: 'end' })).toBeNull()
    expect(frameCursor('nonsense')).toBeNull()
  })
})
