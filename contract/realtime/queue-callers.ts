import * as v from 'valibot'

// Callers waiting in telephony queues, live for supervisors on the service socket (/ws/business/): issue 16 item 2
// ("supervisors see waiting callers live"). Ours: the spec names no frame for it. The media app's brain sends the
// whole list of a site's waiting callers (it is short: the callers, not the calls) to the site's supervisors every
// time it changes — a caller entering, leaving, being bridged — so a client just replaces what it had; the
// wallboard's queue counters follow (the frame hints the wallboard feed). Times are ISO 8601 UTC.

export const QueueCallerShape = v.strictObject({
  /** The caller's Call-ID. */
  call_id: v.pipe(v.string(), v.maxLength(255)),
  queue: v.number(),
  /** The caller's number as the exchange knows it. */
  phone: v.pipe(v.string(), v.maxLength(64)),
  /** When the caller entered the queue. */
  since: v.string(),
  /** 1 = the next to be offered, per queue. */
  position: v.pipe(v.number(), v.integer(), v.minValue(1)),
})

export const QueueCallersShape = v.strictObject({
  action: v.literal('queueCallers'),
  callers: v.array(QueueCallerShape),
})

export type QueueCaller = v.InferOutput<typeof QueueCallerShape>
export type QueueCallers = v.InferOutput<typeof QueueCallersShape>
