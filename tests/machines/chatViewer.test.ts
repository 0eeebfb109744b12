import { createActor, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { VIEWER_POLL_MS, chatViewerMachine, type ChatViewerContext } from '../../machines/chatViewer.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

function build(fakes: Fakes) {
  return chatViewerMachine.provide({ actors: fakes.requests(['load']) })
}

describePaths({
  name: 'chatViewer',
  machine: chatViewerMachine,
  input: { stepId: 3 },
  events: (snapshot: AnyMachineSnapshot) => [
    { type: 'REFRESH' },
    ...(snapshot.matches('loading')
      ? [
          { type: 'xstate.done.actor.load', output: { ended: false } },
          { type: 'xstate.done.actor.load', output: { ended: true } },
          { type: 'xstate.error.actor.load', error: new Error('503') },
        ]
      : []),
  ],
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  distinguish: () => true,
  // Simple paths: false — four states; every edge has its own shortest path (distinguish), and its simple paths are those same paths.
  simplePaths: false,
  build,
  expectEffects: (snapshot, log, path) => {
    // One load per entry into loading: at start, after every 5 s poll or retry, and after a refresh.
    const loadings = path.steps.filter((step, index) => step.state.matches('loading') && (index === 0 || !path.steps[index - 1].state.matches('loading')))
    expect(effectsOf(log, 'load')).toEqual(loadings.map(() => ({ stepId: 3 })))
    // Ended: nothing polls any more.
    if (snapshot.matches('ended')) expect((snapshot.context as ChatViewerContext).loads).toBeGreaterThan(0)
  },
})

describe('chatViewer behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('polls every 5 s until the chat ends, then stops', async () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { stepId: 3 } }).start()
    const loads = () => effectsOf(fakes.log, 'load').length
    const answer = async (ended: boolean) => {
      fakes.settle('load', { output: { ended } })
      await vi.advanceTimersByTimeAsync(0)
    }
    await answer(false)
    await vi.advanceTimersByTimeAsync(VIEWER_POLL_MS - 1)
    expect(loads()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(loads()).toBe(2)
    await answer(true)
    expect(actor.getSnapshot().value).toBe('ended')
    await vi.advanceTimersByTimeAsync(VIEWER_POLL_MS * 5)
    expect(loads()).toBe(2)
    actor.send({ type: 'REFRESH' })
    expect(loads()).toBe(3)
  })
})
