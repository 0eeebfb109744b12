// The loop behind the durable jobs (the lead import, the report exports): one job at a time, claimed from the
// database (the claim decides which: queued ones, and running ones whose heartbeat stopped), worked, then the next;
// with nothing to claim it sleeps IDLE_POLL_MS unless woken (a job just queued). A wake while it works makes it look
// again at once afterwards. `stop` ends it: the job at hand sees `stopped` / `signal` and leaves it for the next start.

const IDLE_POLL_MS = 5_000

export type JobLoop = {
  /** Look for a job now (after a job was queued). */
  wake(): void
  /** Resolves once the loop has nothing left to do (tests). */
  idle(): Promise<void>
  stop(): Promise<void>
  /** True once stop was called: a job at hand stops writing and is taken again by the next start. */
  readonly stopped: boolean
  /** Aborted by stop (streams, queries that take it). */
  readonly signal: AbortSignal
}

export function startJobLoop<J>(options: {
  claim: () => Promise<J | undefined>
  work: (job: J, loop: JobLoop) => Promise<void>
  log: { error(o: unknown, m?: string): void }
  /** What the log calls the job ('lead import', 'report job'). */
  what: string
  idlePollMs?: number
}): JobLoop {
  const { claim, work, log, what } = options
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  let again = false
  let busy = false
  const abort = new AbortController()

  async function loop() {
    busy = true
    try {
      for (;;) {
        again = false
        if (stopped) return
        const job = await claim().catch((error: unknown) => {
          if (!stopped) log.error({ err: error }, `${what} claim failed`)
          return undefined
        })
        if (job === undefined) {
          if (!again) return
          continue
        }
        await work(job, self)
      }
    } finally {
      busy = false
      if (!stopped) timer = setTimeout(wake, options.idlePollMs ?? IDLE_POLL_MS)
    }
  }

  function wake() {
    if (stopped) return
    clearTimeout(timer)
    if (busy) {
      again = true
      return
    }
    running = loop()
  }

  const self: JobLoop = {
    wake,
    async idle() {
      await running
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      abort.abort()
      await running.catch(() => {})
    },
    get stopped() {
      return stopped
    },
    signal: abort.signal,
  }
  wake()
  return self
}
