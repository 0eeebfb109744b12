import { createHmac } from 'node:crypto'

// Webhooks back to the product, as Meta sends them: one JSON envelope (object whatsapp_business_account, entry[] of
// changes[] whose value holds messages[] or statuses[]), signed X-Hub-Signature-256 over the exact bytes posted, and
// retried with a growing back-off when the product answers non-2xx or not in time (Meta keeps trying for days; here
// the attempts are bounded). Each target (webhook URL) has its own queue so that what is posted in order arrives in
// order unless chaos says otherwise.

/** `sha256=<hex HMAC-SHA256(raw bytes, app secret)>`. */
export function signature(raw: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`
}

export type ChangeValue = Record<string, unknown>
export type Entry = { id: string; changes: { value: ChangeValue; field: 'messages' }[] }
export type Envelope = { object: 'whatsapp_business_account'; entry: Entry[] }

export type Target = { url: string; appSecret: string }

export type Attempt = { at: string; status: number | null; error: string | null; ms: number }

export type Delivery = {
  id: number
  url: string
  /** The exact bytes posted (and signed). */
  body: string
  signature: string
  attempts: Attempt[]
  /** Whether some attempt got a 2xx. */
  ok: boolean
  done: boolean
  /** A chaos copy of an earlier delivery. */
  duplicate: boolean
}

export type DispatchOptions = {
  /** Posts this many times (chaos: duplicate deliveries); 1 by default. */
  copies?: number
  /** Waits this long before posting (chaos: a slow Meta). */
  delayMs?: number
  /** Batches whatever else is queued for the same target within `batchMs` into one envelope of many entries. */
  multiEntry?: boolean
}

export type RetryOptions = {
  /** Attempts in all (the first included). */
  attempts: number
  baseMs: number
  maxMs: number
  timeoutMs: number
  /** Deliveries in flight per target at once (1 keeps the order). */
  concurrency: number
  /** How long a multi-entry batch collects entries. */
  batchMs: number
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 5, baseMs: 500, maxMs: 8000, timeoutMs: 10_000, concurrency: 1, batchMs: 30 }

type Item = { entries: Entry[]; options: DispatchOptions; resolve: (delivery: Delivery) => void }

type Queue = { target: Target; items: Item[]; running: number; batching: boolean }

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted || ms <= 0) return resolve()
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })

export class Dispatcher {
  readonly log: Delivery[] = []
  private readonly queues = new Map<string, Queue>()
  private readonly closing = new AbortController()
  private nextId = 1
  private readonly listeners = new Set<(delivery: Delivery) => void>()

  retry: RetryOptions
  private readonly keep: number

  constructor(retry: RetryOptions, keep = 1000) {
    this.retry = retry
    this.keep = keep
  }

  /** Called whenever a delivery finishes (ok or given up). */
  onDone(listener: (delivery: Delivery) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Queues entries for a target; resolves with the delivery once it succeeded or was given up. */
  send(target: Target, entries: Entry[], options: DispatchOptions = {}): Promise<Delivery> {
    const key = `${target.url}\n${target.appSecret}`
    let queue = this.queues.get(key)
    if (!queue) {
      queue = { target, items: [], running: 0, batching: false }
      this.queues.set(key, queue)
    }
    const q = queue
    return new Promise<Delivery>((resolve) => {
      q.items.push({ entries, options, resolve })
      if (options.multiEntry) {
        if (!q.batching) {
          q.batching = true
          setTimeout(() => {
            q.batching = false
            this.pump(q)
          }, this.retry.batchMs).unref()
        }
        return
      }
      if (!q.batching) this.pump(q)
    })
  }

  /** Resolves when nothing is queued or in flight. */
  async idle(): Promise<void> {
    while ([...this.queues.values()].some((q) => q.items.length > 0 || q.running > 0 || q.batching)) await new Promise((r) => setTimeout(r, 10))
  }

  close(): void {
    this.closing.abort()
  }

  clear(): void {
    this.log.length = 0
  }

  private pump(queue: Queue): void {
    while (queue.running < this.retry.concurrency && queue.items.length > 0 && !this.closing.signal.aborted) {
      const first = queue.items.shift()!
      const batch = [first]
      if (first.options.multiEntry) while (queue.items.length > 0 && batch.length < 50) batch.push(queue.items.shift()!)
      queue.running++
      void this.deliver(queue.target, batch).finally(() => {
        queue.running--
        this.pump(queue)
      })
    }
  }

  private async deliver(target: Target, batch: Item[]): Promise<void> {
    const envelope: Envelope = { object: 'whatsapp_business_account', entry: batch.flatMap((item) => item.entries) }
    const options = batch[0]!.options
    const body = JSON.stringify(envelope)
    if (options.delayMs) await sleep(options.delayMs, this.closing.signal)
    const first = await this.post(target, body, false)
    for (let copy = 1; copy < Math.max(1, options.copies ?? 1); copy++) await this.post(target, body, true)
    for (const item of batch) item.resolve(first)
  }

  private async post(target: Target, body: string, duplicate: boolean): Promise<Delivery> {
    const delivery: Delivery = {
      id: this.nextId++,
      url: target.url,
      body,
      signature: signature(body, target.appSecret),
      attempts: [],
      ok: false,
      done: false,
      duplicate,
    }
    this.log.push(delivery)
    if (this.log.length > this.keep) this.log.splice(0, this.log.length - this.keep)
    for (let attempt = 0; attempt < this.retry.attempts && !this.closing.signal.aborted; attempt++) {
      if (attempt > 0) await sleep(Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (attempt - 1)), this.closing.signal)
      if (this.closing.signal.aborted) break
      const started = Date.now()
      try {
        const response = await fetch(target.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': delivery.signature, 'user-agent': 'facebookexternalua' },
          body,
          signal: AbortSignal.any([AbortSignal.timeout(this.retry.timeoutMs), this.closing.signal]),
        })
        await response.arrayBuffer().catch(() => undefined)
        delivery.attempts.push({ at: new Date(started).toISOString(), status: response.status, error: null, ms: Date.now() - started })
        if (response.ok) {
          delivery.ok = true
          break
        }
      } catch (error) {
        const message = error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message) : String(error)
        delivery.attempts.push({ at: new Date(started).toISOString(), status: null, error: message, ms: Date.now() - started })
      }
    }
    delivery.done = true
    for (const listener of this.listeners) listener(delivery)
    return delivery
  }
}
