import { describe, expect, it } from 'vitest'
import { sharedResults } from '../../../server/reports/shared-results.ts'

// The builder page's shared widget results (server/reports/shared-results.ts): one computation per key per window.

describe('shared results', () => {
  it('computes once for everyone asking within the window, in flight or done, and again after it', async () => {
    let clock = 0
    const shared = sharedResults<number>(2000, 10, () => clock)
    let computed = 0
    let release!: (value: number) => void
    const compute = () => new Promise<number>((resolve) => ((computed += 1), (release = resolve)))
    const first = shared.get('page', compute)
    clock = 500
    const second = shared.get('page', compute)
    expect(second).toBe(first)
    release(7)
    expect(await second).toBe(7)
    clock = 1999
    expect(await shared.get('page', compute)).toBe(7)
    expect(computed).toBe(1)
    clock = 2000
    const third = shared.get('page', compute)
    release(8)
    expect(await third).toBe(8)
    expect(computed).toBe(2)
    expect(await shared.get('other', async () => 1)).toBe(1)
  })

  it('keeps no failure: the next ask computes again', async () => {
    const shared = sharedResults<number>(2000, 10, () => 0)
    await expect(shared.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(shared.size()).toBe(0)
    expect(await shared.get('k', async () => 3)).toBe(3)
  })

  it('holds at most `max` entries, dropping the oldest', async () => {
    const shared = sharedResults<number>(60_000, 3, () => 0)
    for (const key of ['a', 'b', 'c', 'd']) await shared.get(key, async () => 1)
    expect(shared.size()).toBe(3)
    let again = 0
    await shared.get('a', async () => ++again)
    expect(again).toBe(1)
    await shared.get('d', async () => ++again)
    expect(again).toBe(1)
  })
})
