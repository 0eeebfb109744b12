// Results shared by everyone who asks the same thing within a short window (issue 19: a live builder page watched by
// 50 supervisors asks the same queries 50 times per refresh). The first ask computes; asks within `freshMs` of its
// start get the same promise — in flight or done; a failure is not kept. Bounded: the oldest entries go first.
// Per process: several instances each compute once per window.

export type SharedResults<T> = { get: (key: string, compute: () => Promise<T>) => Promise<T>; size: () => number }

export function sharedResults<T>(freshMs: number, max = 500, now: () => number = Date.now): SharedResults<T> {
  const entries = new Map<string, { at: number; value: Promise<T> }>()
  return {
    get(key, compute) {
      const at = now()
      const hit = entries.get(key)
      if (hit && at - hit.at < freshMs) return hit.value
      entries.delete(key)
      while (entries.size >= max) entries.delete(entries.keys().next().value!)
      const value = compute()
      entries.set(key, { at, value })
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key)
      })
      return value
    },
    size: () => entries.size,
  }
}
