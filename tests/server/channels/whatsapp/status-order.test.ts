import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceStatus, DELIVERY_STATUSES, foldStatuses, type DeliveryStatus } from '../../../../server/channels/whatsapp/status-order.ts'

// QUALITY.md test 6 (the rule itself): statuses only move forward whatever order Meta's webhooks arrive in.

const ORDER = ['sending', 'accepted', 'dispatched', 'received', 'consumed'] as const
const status = fc.constantFrom(...DELIVERY_STATUSES)
const rank = (s: DeliveryStatus) => (s === 'failed' ? Infinity : ORDER.indexOf(s))

describe('delivery status order', () => {
  it('moves forward and ignores steps back and repeats', () => {
    expect(advanceStatus('sending', 'dispatched')).toBe('dispatched')
    expect(advanceStatus('dispatched', 'received')).toBe('received')
    expect(advanceStatus('consumed', 'received')).toBeNull()
    expect(advanceStatus('received', 'received')).toBeNull()
    // Read without delivered (the customer had the chat open).
    expect(advanceStatus('dispatched', 'consumed')).toBe('consumed')
    // A status webhook before the send call returned: the send's "accepted" must not undo it.
    expect(advanceStatus('received', 'accepted')).toBeNull()
  })

  it('failed is terminal', () => {
    expect(advanceStatus('dispatched', 'failed')).toBe('failed')
    for (const s of DELIVERY_STATUSES) expect(advanceStatus('failed', s)).toBeNull()
  })

  it('never moves a message back (any arrival from any status)', () => {
    fc.assert(
      fc.property(status, status, (current, incoming) => {
        const next = advanceStatus(current, incoming) ?? current
        expect(rank(next)).toBeGreaterThanOrEqual(rank(current))
      }),
    )
  })

  it('ends in the same status whatever order the same arrivals come in, duplicates included', () => {
    fc.assert(
      fc.property(
        fc.array(status, { maxLength: 12 }).chain((arrivals) =>
          fc.tuple(
            fc.constant(arrivals),
            // The same arrivals reordered, some delivered twice.
            fc.shuffledSubarray([...arrivals, ...arrivals], { minLength: arrivals.length }).filter((xs) => arrivals.every((a) => xs.includes(a))),
          ),
        ),
        ([arrivals, reordered]) => {
          expect(foldStatuses('sending', reordered)).toBe(foldStatuses('sending', arrivals))
        },
      ),
    )
  })

  it('ends in failed if any arrival failed, otherwise in the furthest one reached', () => {
    fc.assert(
      fc.property(fc.array(status, { maxLength: 12 }), (arrivals) => {
        const end = foldStatuses('sending', arrivals)
        if (arrivals.includes('failed')) expect(end).toBe('failed')
        else expect(end).toBe(ORDER[Math.max(0, ...arrivals.map((s) => ORDER.indexOf(s as (typeof ORDER)[number])))])
      }),
    )
  })
})
