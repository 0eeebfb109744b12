import { createActor } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SEARCH_DEBOUNCE_MS, chatSearchMachine, type ChatSearchContext } from '../../machines/chatSearch.machine.ts'
import { describePaths } from './paths.ts'

describePaths({
  name: 'chatSearch',
  machine: chatSearchMachine,
  input: {},
  events: () => [{ type: 'TYPE', value: ' maria ' }, { type: 'CLEAR' }],
  // Simple paths: false — two states; its simple paths are exactly the shortest ones, replayed above.
  simplePaths: false,
  build: () => chatSearchMachine,
  expectEffects: (snapshot, _log, path) => {
    const context = snapshot.context as ChatSearchContext
    // Committed only by the 500 ms wait (trimmed), or emptied by a clear.
    const last = path.steps.at(-1)!.event.type
    if (last === 'CLEAR') expect(context).toEqual({ typed: '', committed: '' })
    else if (last.startsWith('xstate.after')) expect(context.committed).toBe('maria')
    if (snapshot.matches('debouncing')) expect(context.typed).toBe(' maria ')
  },
})

describe('chatSearch behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('commits 500 ms after the last key, not before', async () => {
    const actor = createActor(chatSearchMachine, { input: {} }).start()
    actor.send({ type: 'TYPE', value: 'ma' })
    await vi.advanceTimersByTimeAsync(300)
    actor.send({ type: 'TYPE', value: 'mar' })
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1)
    expect(actor.getSnapshot().context.committed).toBe('')
    await vi.advanceTimersByTimeAsync(1)
    expect(actor.getSnapshot().context.committed).toBe('mar')
  })
})
