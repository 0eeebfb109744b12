// Message delivery statuses only move forward (spec 001 §4 "Message delivery", WHATSAPP.md §A1.5): sending <
// accepted < dispatched < received < consumed, and failed is terminal. Meta's webhooks arrive late, twice, out of
// order (read without delivered; a status before our send call has even returned), so a row's status is the fold of
// whatever arrived with `advanceStatus`, and any order of the same arrivals ends in the same status.

export const DELIVERY_STATUSES = ['sending', 'accepted', 'dispatched', 'received', 'consumed', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

const RANK: Record<Exclude<DeliveryStatus, 'failed'>, number> = { sending: 0, accepted: 1, dispatched: 2, received: 3, consumed: 4 }

/**
 * The status a message moves to when `incoming` arrives while it is `current`, or null when nothing changes (a step
 * back, a duplicate, anything after failed). Failed wins over every other status and nothing leaves it; a resend is a
 * new attempt the outbox starts explicitly, not an arrival.
 */
export function advanceStatus(current: DeliveryStatus, incoming: DeliveryStatus): DeliveryStatus | null {
  if (current === 'failed') return null
  if (incoming === 'failed') return 'failed'
  return RANK[incoming] > RANK[current] ? incoming : null
}

/** The status after all these arrivals, in any order. */
export function foldStatuses(start: DeliveryStatus, arrivals: Iterable<DeliveryStatus>): DeliveryStatus {
  let status = start
  for (const s of arrivals) status = advanceStatus(status, s) ?? status
  return status
}

/** Meta's status names in ours: sent → dispatched, delivered → received, read and played → consumed. */
export const WA_STATUS_TO_DELIVERY = {
  sent: 'dispatched',
  delivered: 'received',
  read: 'consumed',
  played: 'consumed',
  failed: 'failed',
} as const satisfies Record<string, DeliveryStatus>
