import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bus } from '../../server/bus/bus.ts'
import { createTestBus } from './helper.ts'

// The in-process bus by default; the Redis one when TEST_REDIS_URL is set (npm run test:pg).
let bus: Bus
beforeAll(async () => {
  bus = await createTestBus()
})
afterAll(async () => {
  await bus.close()
})

describe('realtime bus', () => {
  it('delivers JSON payloads to every subscriber of a channel, and only of that channel', async () => {
    const a: unknown[] = []
    const b: unknown[] = []
    const other: unknown[] = []
    const offA = await bus.subscribe('session-ended', (p) => a.push(p))
    const offB = await bus.subscribe('session-ended', (p) => b.push(p))
    const offOther = await bus.subscribe('something-else', (p) => other.push(p))
    await bus.publish('session-ended', { user_id: 7, at: new Date(0) })
    await expect.poll(() => a.length + b.length).toBe(2)
    expect(a[0]).toEqual({ user_id: 7, at: '1970-01-01T00:00:00.000Z' })
    expect(b[0]).toEqual(a[0])
    expect(other).toEqual([])
    await Promise.all([offA(), offB(), offOther()])
  })

  it('stops delivering after unsubscribe', async () => {
    const seen: unknown[] = []
    const stay: unknown[] = []
    const off = await bus.subscribe('c', (p) => seen.push(p))
    const offStay = await bus.subscribe('c', (p) => stay.push(p))
    await off()
    await bus.publish('c', 1)
    await expect.poll(() => stay.length).toBe(1)
    expect(seen).toEqual([])
    await offStay()
  })
})
