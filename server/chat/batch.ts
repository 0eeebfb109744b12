// Group commit for the hot paths of the chat engine (README.md "Throughput"): callers that arrive in the same turn of
// the event loop share one statement (one round trip, one commit) instead of one each. Each caller still waits for
// its own answer, so durability before acknowledgement holds; a failed statement fails every caller of its batch.
// With `maxInFlight`, no more than that many batches run at once: callers arriving meanwhile wait for the next one,
// so a busy server sends fewer, larger statements while an idle one still sends each caller's at once.

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }

export class Batcher<I, O> {
  private pending: Waiting<I, O>[] = []
  private scheduled = false
  private inFlight = 0
  private readonly run: (items: I[]) => Promise<O[]>
  private readonly max: number
  private readonly maxInFlight: number

  constructor(run: (items: I[]) => Promise<O[]>, max = 200, maxInFlight = Infinity) {
    this.run = run
    this.max = max
    this.maxInFlight = maxInFlight
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject })
      if (this.pending.length >= this.max) this.flush()
      else if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => {
          this.scheduled = false
          this.flush()
        })
      }
    })
  }

  private flush(): void {
    if (this.pending.length === 0 || this.inFlight >= this.maxInFlight) return
    const batch = this.pending.splice(0, this.max)
    this.inFlight++
    let answered: Promise<O[]>
    try {
      answered = this.run(batch.map((w) => w.item))
    } catch (error) {
      answered = Promise.reject(error)
    }
    answered
      .then(
        (answers) => {
          for (let i = 0; i < batch.length; i++) batch[i]!.resolve(answers[i]!)
        },
        (error: unknown) => {
          for (const w of batch) w.reject(error)
        },
      )
      .finally(() => {
        this.inFlight--
        // What arrived while the statements ran goes next, together.
        this.flush()
      })
  }
}

/** One batcher per database handle (tests run several in one process). */
export function perDatabase<K extends object, I, O>(make: (key: K) => Batcher<I, O>): (key: K) => Batcher<I, O> {
  const batchers = new WeakMap<K, Batcher<I, O>>()
  return (key) => {
    let batcher = batchers.get(key)
    if (!batcher) batchers.set(key, (batcher = make(key)))
    return batcher
  }
}
