import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TAKEN_OVER_NOTICE, OTHER_TAB_NOTICE, tabMessageToEvent, tabOwnershipMachine, type TabMessage } from '../../machines/tabOwnership.machine.ts'
import { createFakes, describePaths, effectsOf, type Effect, type Fakes } from './paths.ts'

const TAB = 'tab-a'
const PEER = 'tab-b'
const ACTIONS = ['broadcast', 'sendSocket', 'stopPhone', 'reload'] as const

function build(fakes: Fakes) {
  return tabOwnershipMachine.provide({ actions: fakes.actions(ACTIONS) })
}

function visited(path: { steps: { state: AnyMachineSnapshot }[] }, state: string): boolean {
  return path.steps.some((step) => step.state.matches(state))
}

describePaths({
  name: 'tabOwnership',
  machine: tabOwnershipMachine,
  input: { tabId: TAB },
  events: (): AnyEventObject[] => [
    { type: 'START_SERVICE' },
    { type: 'SERVICE_ELSEWHERE' },
    { type: 'PEER_WHO_SERVES', tabId: PEER },
    { type: 'PEER_SERVING', tabId: PEER },
    { type: 'PEER_SERVICE_HERE', tabId: PEER },
    { type: 'SERVICE_HERE' },
  ],
  // Five states and no counters: every simple path is enumerable.
  simplePaths: true,
  build,
  expectEffects: (snapshot, log, path) => {
    expect(log[0]).toMatchObject({ effect: 'broadcast', params: { type: 'who_serves', tabId: TAB } })
    const broadcasts = effectsOf(log, 'broadcast') as TabMessage[]
    // A tab announces itself as serving exactly when it went through `serving`, and answers every who_serves there.
    const servingAnnouncements = broadcasts.filter((message) => message.type === 'serving')
    expect(servingAnnouncements.length > 0).toBe(visited(path, 'serving'))
    expect(servingAnnouncements.every((message) => message.tabId === TAB)).toBe(true)
    // Losing the service stops the phone once; 'Atender aqui' tells the server and the other tabs.
    expect(effectsOf(log, 'stopPhone').length).toBe(visited(path, 'takenOver') ? 1 : 0)
    const hereSent = visited(path, 'reloadingHere')
    expect(effectsOf(log, 'sendSocket')).toEqual(hereSent ? [{ action: 'service_here' }] : [])
    expect(broadcasts.some((message) => message.type === 'service_here')).toBe(hereSent)
    // The page reloads only in the final state, and once.
    expect(effectsOf(log, 'reload').length).toBe(snapshot.matches('reloading') ? 1 : 0)
    if (snapshot.matches('takenOver')) expect(snapshot.getMeta()['tabOwnership.takenOver']).toEqual({ notice: TAKEN_OVER_NOTICE })
    if (snapshot.matches('otherTab')) expect(snapshot.getMeta()['tabOwnership.otherTab']).toMatchObject({ notice: OTHER_TAB_NOTICE })
  },
})

describe('tabOwnership behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start(tabId = TAB) {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { tabId } }).start()
    return { actor, log: fakes.log }
  }

  it('the other tab reloads 3 s after being taken over, having stopped the phone at once', () => {
    const { actor, log } = start()
    actor.send({ type: 'START_SERVICE' })
    actor.send({ type: 'PEER_SERVICE_HERE', tabId: PEER })
    expect(actor.getSnapshot().value).toBe('takenOver')
    expect(effectsOf(log, 'stopPhone')).toHaveLength(1)
    vi.advanceTimersByTime(2999)
    expect(effectsOf(log, 'reload')).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(effectsOf(log, 'reload')).toHaveLength(1)
    expect(actor.getSnapshot().status).toBe('done')
  })

  it('a serving tab told by the server that another browser serves is taken over too', () => {
    const { actor, log } = start()
    actor.send({ type: 'START_SERVICE' })
    actor.send({ type: 'SERVICE_ELSEWHERE' })
    vi.advanceTimersByTime(3000)
    expect(effectsOf(log, 'stopPhone')).toHaveLength(1)
    expect(effectsOf(log, 'reload')).toHaveLength(1)
  })

  it("'Atender aqui' sends service_here, tells the other tabs and reloads after 100 ms", () => {
    const { actor, log } = start()
    actor.send({ type: 'SERVICE_ELSEWHERE' })
    actor.send({ type: 'SERVICE_HERE' })
    expect(effectsOf(log, 'sendSocket')).toEqual([{ action: 'service_here' }])
    expect(effectsOf(log, 'broadcast')).toContainEqual({ type: 'service_here', tabId: TAB })
    vi.advanceTimersByTime(99)
    expect(effectsOf(log, 'reload')).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(effectsOf(log, 'reload')).toHaveLength(1)
  })

  it('a new tab of the same browser learns from the serving tab that it is not the service', () => {
    // Two tabs wired through an in-memory channel that delivers every post to the other tab.
    const tabs = new Map<string, ReturnType<typeof createActor<typeof tabOwnershipMachine>>>()
    const logs = new Map<string, Effect[]>()
    const open = (tabId: string) => {
      const log: Effect[] = []
      logs.set(tabId, log)
      const machine = tabOwnershipMachine.provide({
        actions: {
          broadcast: (_, message: TabMessage) => {
            log.push({ effect: 'broadcast', params: message })
            for (const [otherId, other] of tabs) {
              const event = tabMessageToEvent(message, otherId)
              if (event) queueMicrotask(() => other.send(event))
            }
          },
          sendSocket: (_, message) => void log.push({ effect: 'sendSocket', params: message }),
          stopPhone: () => void log.push({ effect: 'stopPhone' }),
          reload: () => void log.push({ effect: 'reload' }),
        },
      })
      const actor = createActor(machine, { input: { tabId } })
      tabs.set(tabId, actor)
      actor.start()
      return actor
    }
    const first = open(TAB)
    first.send({ type: 'START_SERVICE' })
    const second = open(PEER)
    return Promise.resolve().then(async () => {
      await vi.advanceTimersByTimeAsync(0)
      expect(first.getSnapshot().value).toBe('serving')
      expect(second.getSnapshot().value).toBe('otherTab')
      second.send({ type: 'SERVICE_HERE' })
      await vi.advanceTimersByTimeAsync(0)
      expect(first.getSnapshot().value).toBe('takenOver')
      await vi.advanceTimersByTimeAsync(3000)
      expect(effectsOf(logs.get(TAB)!, 'reload')).toHaveLength(1)
      expect(effectsOf(logs.get(PEER)!, 'reload')).toHaveLength(1)
    })
  })

  it('ignores its own channel messages and unknown ones', () => {
    expect(tabMessageToEvent({ type: 'serving', tabId: TAB }, TAB)).toBeNull()
    expect(tabMessageToEvent({ type: 'hello', tabId: PEER }, TAB)).toBeNull()
    expect(tabMessageToEvent('serving', TAB)).toBeNull()
    expect(tabMessageToEvent({ type: 'service_here', tabId: PEER }, TAB)).toEqual({ type: 'PEER_SERVICE_HERE', tabId: PEER })
  })

  it('fails loudly, naming the effect, when the caller did not provide one', () => {
    const actor = createActor(tabOwnershipMachine, { input: { tabId: TAB } })
    const errors: unknown[] = []
    actor.subscribe({ error: (error) => void errors.push(error) })
    actor.start()
    expect(String(errors[0])).toContain('tabOwnership: action "broadcast" was not provided')
  })
})
