import { randomUUID } from 'node:crypto'
import type { WallboardAgent, WallboardDelta, WallboardQueue, WallboardSnapshot } from '../../../contract/realtime/wallboard.ts'
import type { Connection } from '../connections.ts'
import type { WallboardState } from './wallboard-query.ts'
import { startOfDay } from './wallboard-query.ts'

// The supervisor wallboard feed (contract/realtime/wallboard.ts), one per site that somebody watches on this
// instance. The cost does not grow with the watchers: a change anywhere only marks the site dirty (a hint from the
// bus); at most every `coalesceMs` the feed reads the site once (wallboard-query.ts), compares each agent and queue
// with what it sent last, and serialises one delta that every watcher receives as the same string. Changes no hint
// announces (call steps, chat rooms, the clock of "today") are caught by a refresh every `refreshMs` while watched.
// Each delta is kept for a while (`historyLimit`), so a supervisor whose socket dropped gets what it missed, and
// a snapshot otherwise. A site nobody watches costs nothing: its feed is dropped with its last watcher.

export type WallboardFeedOptions = {
  /** Read the site's wallboard (the database in production; tests may count the reads). */
  load(siteId: number, now: Date): Promise<WallboardState>
  /** Least time between two reads of one site. */
  coalesceMs: number
  /** A read this often while watched, for what no hint announces. */
  refreshMs: number
  /** Deltas kept per site for reconnecting watchers. */
  historyLimit: number
  now?: () => Date
  /** Database work the app's close waits for. */
  track?<T>(work: Promise<T>): Promise<T>
  onError?(err: unknown): void
}

type Kept<T> = { row: T; json: string }
type SentDelta = { base: number; revision: number; frame: string }

class SiteFeed {
  readonly feed = randomUUID()
  readonly watchers = new Set<Connection>()
  agents = new Map<number, Kept<WallboardAgent>>()
  queues = new Map<string, Kept<WallboardQueue>>()
  dayStart = ''
  revision = 0
  history: SentDelta[] = []
  snapshotFrame: { revision: number; frame: string } | null = null
  loaded = false
  /** Work on this site runs one step after another (reads, sends, subscriptions). */
  chain: Promise<void> = Promise.resolve()
  dirty = false
  lastReadAt = 0
  flushTimer: ReturnType<typeof setTimeout> | null = null
  refreshTimer: ReturnType<typeof setInterval> | null = null
  stopped = false
  readonly siteId: number
  constructor(siteId: number) {
    this.siteId = siteId
  }
}

export class WallboardFeeds {
  private readonly sites = new Map<number, SiteFeed>()
  private readonly now: () => Date
  private stopped = false
  private readonly options: WallboardFeedOptions

  constructor(options: WallboardFeedOptions) {
    this.options = options
    this.now = options.now ?? (() => new Date())
  }

  /** Sites watched on this instance (tests, bench). */
  get watchedSites(): number {
    return this.sites.size
  }

  /** Something of the site changed: the next read (within coalesceMs) picks it up. Unwatched sites ignore it. */
  hint(siteId: number): void {
    const site = this.sites.get(siteId)
    if (!site || site.stopped) return
    site.dirty = true
    this.schedule(site)
  }

  /** A supervisor's socket watches the site: the missed deltas when it names a revision still kept, else a snapshot. */
  subscribe(connection: Connection, feed: string | null, revision: number | null): Promise<void> {
    if (this.stopped) return Promise.resolve()
    let site = this.sites.get(connection.siteId)
    if (!site) {
      site = new SiteFeed(connection.siteId)
      this.sites.set(site.siteId, site)
      const watched = site
      watched.refreshTimer = setInterval(() => this.hint(watched.siteId), this.options.refreshMs)
      watched.refreshTimer.unref?.()
    }
    const watched = site
    watched.watchers.add(connection)
    return this.run(watched, async () => {
      if (!watched.loaded) await this.read(watched)
      if (!watched.watchers.has(connection)) return
      if (feed === watched.feed && revision !== null && revision <= watched.revision) {
        const missed = watched.history.filter((delta) => delta.base >= revision)
        const complete = revision === watched.revision || missed[0]?.base === revision
        if (complete) {
          if (missed.length === 0) connection.sendRaw(this.emptyDelta(watched))
          for (const delta of missed) connection.sendRaw(delta.frame)
          return
        }
      }
      connection.sendRaw(this.snapshot(watched))
    })
  }

  /** The socket stops watching (wallboard_unsubscribe, or it closed). */
  unsubscribe(connection: Connection): void {
    const site = this.sites.get(connection.siteId)
    if (!site || !site.watchers.delete(connection)) return
    if (site.watchers.size === 0) this.drop(site)
  }

  stop(): void {
    this.stopped = true
    for (const site of [...this.sites.values()]) this.drop(site)
  }

  /** Resolves when the work queued so far on every site is done (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.sites.values()].map((site) => site.chain))
  }

  private drop(site: SiteFeed): void {
    site.stopped = true
    if (site.flushTimer) clearTimeout(site.flushTimer)
    if (site.refreshTimer) clearInterval(site.refreshTimer)
    if (this.sites.get(site.siteId) === site) this.sites.delete(site.siteId)
  }

  /** At once when the last read is coalesceMs old, else when it will be: a burst of changes costs one read. */
  private schedule(site: SiteFeed): void {
    if (site.flushTimer) return
    const wait = Math.max(0, site.lastReadAt + this.options.coalesceMs - Date.now())
    site.flushTimer = setTimeout(() => {
      site.flushTimer = null
      void this.run(site, async () => {
        if (!site.dirty || site.stopped) return
        await this.read(site)
      })
    }, wait)
  }

  private run(site: SiteFeed, work: () => Promise<void>): Promise<void> {
    const next = site.chain.then(work).catch((err: unknown) => this.options.onError?.(err))
    site.chain = next
    return next
  }

  /** One read of the site; what changed since the last one goes out as one delta to every watcher. */
  private async read(site: SiteFeed): Promise<void> {
    site.dirty = false
    site.lastReadAt = Date.now()
    const now = this.now()
    const work = this.options.load(site.siteId, now)
    const state = await (this.options.track ? this.options.track(work) : work)
    if (site.stopped) return
    const dayStart = startOfDay(now).toISOString()
    if (!site.loaded) {
      site.agents = new Map(state.agents.map((row) => [row.id, { row, json: JSON.stringify(row) }]))
      site.queues = new Map(state.queues.map((row) => [row.key, { row, json: JSON.stringify(row) }]))
      site.dayStart = dayStart
      site.loaded = true
      return
    }
    const agents = diff(site.agents, state.agents, (row) => row.id)
    const queues = diff(site.queues, state.queues, (row) => row.key)
    const dayChanged = dayStart !== site.dayStart
    site.dayStart = dayStart
    if (!agents.changed.length && !agents.removed.length && !queues.changed.length && !queues.removed.length && !dayChanged) return
    const base = site.revision
    site.revision += 1
    const delta: WallboardDelta = {
      action: 'wallboardDelta',
      feed: site.feed,
      base,
      revision: site.revision,
      agents: agents.changed,
      removed_agents: agents.removed,
      queues: queues.changed,
      removed_queues: queues.removed,
      day_start: dayStart,
    }
    const frame = JSON.stringify(delta)
    site.history.push({ base, revision: site.revision, frame })
    if (site.history.length > this.options.historyLimit) site.history.shift()
    for (const connection of site.watchers) {
      // A socket whose roles lost the supervisor's permission (the credential sweep) stops hearing the feed.
      if (!connection.supervisor || connection.closed) site.watchers.delete(connection)
      else connection.sendRaw(frame)
    }
    if (site.watchers.size === 0) this.drop(site)
  }

  private snapshot(site: SiteFeed): string {
    if (site.snapshotFrame?.revision === site.revision) return site.snapshotFrame.frame
    const snapshot: WallboardSnapshot = {
      action: 'wallboardSnapshot',
      feed: site.feed,
      revision: site.revision,
      day_start: site.dayStart,
      agents: [...site.agents.values()].map((kept) => kept.row),
      queues: [...site.queues.values()].map((kept) => kept.row),
    }
    const frame = JSON.stringify(snapshot)
    site.snapshotFrame = { revision: site.revision, frame }
    return frame
  }

  private emptyDelta(site: SiteFeed): string {
    const delta: WallboardDelta = {
      action: 'wallboardDelta',
      feed: site.feed,
      base: site.revision,
      revision: site.revision,
      agents: [],
      removed_agents: [],
      queues: [],
      removed_queues: [],
      day_start: site.dayStart,
    }
    return JSON.stringify(delta)
  }
}

/** Rows whose JSON changed or that are new, and keys that are gone; `kept` becomes the new state. */
function diff<K, T>(kept: Map<K, Kept<T>>, rows: T[], keyOf: (row: T) => K): { changed: T[]; removed: K[] } {
  const changed: T[] = []
  const seen = new Set<K>()
  for (const row of rows) {
    const key = keyOf(row)
    seen.add(key)
    const json = JSON.stringify(row)
    if (kept.get(key)?.json === json) continue
    kept.set(key, { row, json })
    changed.push(row)
  }
  const removed: K[] = []
  for (const key of kept.keys()) if (!seen.has(key)) removed.push(key)
  for (const key of removed) kept.delete(key)
  return { changed, removed }
}
