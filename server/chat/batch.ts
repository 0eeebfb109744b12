// Group commit for the hot paths of the chat engine (README.md "Throughput"), adaptive and without a timer: when
// nothing of this kind is in flight, an item runs at once, alone (a quiet server pays no wait); whatever arrives
// while a statement is in flight waits for it and then goes together, as the next batch. Batches grow with the load
// by themselves, and one statement is in flight per batcher at a time. Each caller still waits for its own answer,
// so durability before acknowledgement holds; a failed statement fails every caller of its batch (a runner that
// must not let one bad item fail the others answers per item instead of throwing).

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }

export class Batcher<I, O> {
  private pending: Waiting<I, O>[] = []
  private running = false
  private readonly run: (items: I[]) => Promise<O[]>
  private readonly max: number

  constructor(run: (items: I[]) => Promise<O[]>, max = 500) {
    this.run = run
    this.max = max
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject })
      if (!this.running) this.next()
    })
  }

  private next(): void {
    if (this.pending.length === 0) return
    const batch = this.pending.length <= this.max ? this.pending : this.pending.slice(0, this.max)
    this.pending = batch === this.pending ? [] : this.pending.slice(this.max)
    this.running = true
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
        this.running = false
        this.next()
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
