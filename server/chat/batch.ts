// Group commit for the hot paths of the chat engine (README.md "Throughput"): callers that arrive in the same turn of
// the event loop share one statement (one round trip, one commit) instead of one each. Each caller still waits for
// its own answer, so durability before acknowledgement holds; a failed statement fails every caller of its batch.

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }

export class Batcher<I, O> {
  private pending: Waiting<I, O>[] = []
  private scheduled = false
  private readonly run: (items: I[]) => Promise<O[]>
  private readonly max: number

  constructor(run: (items: I[]) => Promise<O[]>, max = 200) {
    this.run = run
    this.max = max
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject })
      if (this.pending.length >= this.max) this.flush()
      else if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.scheduled = false
    const batch = this.pending
    if (batch.length === 0) return
    this.pending = []
    this.run(batch.map((w) => w.item)).then(
      (answers) => {
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(answers[i]!)
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error)
      },
    )
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
