import { createActor, createMachine } from 'xstate'
import type { AnyActorRef } from 'xstate'
import { describe, expect, it } from 'vitest'
import { follow, followAll, sameJson } from '../../src/agent/slice.ts'

// Links between slices (src/agent/slice.ts) only derive: the selected value at start, then each change once.

const toggle = createMachine({ id: 'toggle', initial: 'off', states: { off: { on: { FLIP: 'on', NOOP: {} } }, on: { on: { FLIP: 'off', NOOP: {} } } } })

function actors() {
  const a = createActor(toggle).start()
  const b = createActor(toggle).start()
  const byName = (name: string) => ({ a, b })[name as 'a' | 'b'] as AnyActorRef
  return { a, b, byName }
}

describe('agent slice links', () => {
  it('follow: hears the value at once and each change once, never after unsubscribing', () => {
    const { a, byName } = actors()
    const heard: [string, string | undefined][] = []
    const off = follow(
      'a',
      (snapshot: { value: unknown }) => String(snapshot.value),
      (value, previous) => heard.push([value, previous]),
    ).subscribe(byName)
    a.send({ type: 'NOOP' })
    a.send({ type: 'FLIP' })
    a.send({ type: 'NOOP' })
    expect(heard).toEqual([
      ['off', undefined],
      ['on', 'off'],
    ])
    off()
    a.send({ type: 'FLIP' })
    expect(heard).toHaveLength(2)
  })

  it('followAll: recomputes from every source, compared by the given equality', () => {
    const { a, b, byName } = actors()
    const heard: unknown[] = []
    const both = (get: (name: string) => AnyActorRef) => ({ a: get('a').getSnapshot().value, b: get('b').getSnapshot().value })
    followAll(['a', 'b'], both, (value) => heard.push(value), sameJson).subscribe(byName)
    b.send({ type: 'FLIP' })
    a.send({ type: 'NOOP' })
    a.send({ type: 'FLIP' })
    expect(heard).toEqual([
      { a: 'off', b: 'off' },
      { a: 'off', b: 'on' },
      { a: 'on', b: 'on' },
    ])
  })

  it('an equality that ignores a value keeps the last one it took', () => {
    const { a, byName } = actors()
    const heard: (boolean | null)[] = []
    // Like the webphone following tab ownership: nothing while undecided (null here stands for 'on').
    follow(
      'a',
      (snapshot: { value: unknown }) => (snapshot.value === 'on' ? null : false),
      (value) => heard.push(value),
      (last, now) => now === null || last === now,
    ).subscribe(byName)
    a.send({ type: 'FLIP' })
    a.send({ type: 'FLIP' })
    expect(heard).toEqual([false])
  })
})
