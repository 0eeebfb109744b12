import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Bus } from '../bus/bus.ts'
import type { ServiceEvent } from '../bus/channels.ts'
import { SERVICE_CHANNEL } from '../bus/channels.ts'
import type { Connection, ConnectionRegistry } from './connections.ts'
import { userKey } from './connections.ts'

// Which connection serves a user's calls and chats (spec 000 §4 "Shared service ownership", 001 §4). Tabs of one
// browser agree among themselves; the server decides across tabs and browsers and tells every logged-in connection of
// the user `startService` (you serve) or `serviceElsewhere` (another connection does). No table: the instances agree
// over the bus, whose one channel delivers events to every instance in the same order.
//
// - `login`: if a connection of the user serves anywhere (asked with a `probe` every instance answers), the newcomer
//   gets serviceElsewhere; otherwise it claims the service.
// - `service_here`: the sender claims. A `claim` is applied by every instance: its connection gets startService, all
//   other connections of the user serviceElsewhere. The last claim wins everywhere.
// - When the serving connection closes (or sends logout), nobody is promoted at once: a tab that took over reloads
//   ('Atender aqui' reloads after 100 ms) and its new connection claims on login. If the service is still vacant
//   after the grace period, the most recently logged-in connection of the user is promoted.
// A crashed instance leaves no stale owner behind: ownership lives only in the connections themselves.

export type OwnershipTimings = { probeMs: number; vacancyGraceMs: number }

export class ServiceOwnership {
  private readonly pending = new Map<string, Extract<ServiceEvent, { type: 'reply' }>[]>()
  private readonly vacancies = new Map<string, NodeJS.Timeout>()
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>()
  private stopped = false
  private readonly bus: Bus
  private readonly registry: ConnectionRegistry
  private readonly instance: string
  private readonly timings: OwnershipTimings
  private readonly log: FastifyBaseLogger

  constructor(bus: Bus, registry: ConnectionRegistry, instance: string, timings: OwnershipTimings, log: FastifyBaseLogger) {
    this.bus = bus
    this.registry = registry
    this.instance = instance
    this.timings = timings
    this.log = log
  }

  /** The `login` frame. */
  async login(connection: Connection): Promise<void> {
    connection.loggedInAt = this.loginStamp()
    if (connection.serving) return this.verdict(connection, true)
    for (const other of this.registry.ofUser(connection.siteId, connection.userId)) {
      if (other !== connection && other.serving) return this.verdict(connection, false)
    }
    const verdictsBefore = connection.verdicts
    const replies = await this.probe(connection.siteId, connection.userId)
    // A claim may have given this connection its verdict while the instances answered.
    if (connection.closed || connection.verdicts !== verdictsBefore || connection.loggedInAt === null) return
    if (replies.some((reply) => reply.serving)) return this.verdict(connection, false)
    await this.claim(connection)
  }

  /** The `service_here` frame ('Atender aqui'). */
  async claim(connection: Connection): Promise<void> {
    connection.loggedInAt ??= this.loginStamp()
    await this.publish({ type: 'claim', site_id: connection.siteId, user_id: connection.userId, connection: connection.id })
  }

  /**
   * When a connection logged in, strictly increasing on this instance: two tabs that log in within the same
   * millisecond must still have a most recent one to promote (wall-clock ms, so instances still compare).
   */
  private lastLoginStamp = 0
  private loginStamp(): number {
    this.lastLoginStamp = Math.max(Date.now(), this.lastLoginStamp + 0.001)
    return this.lastLoginStamp
  }

  /** The connection closed or logged out: if it served, the service is vacant for now. */
  release(connection: Connection): void {
    connection.loggedInAt = null
    if (!connection.serving) return
    connection.serving = false
    if (this.stopped) return
    const key = userKey(connection.siteId, connection.userId)
    clearTimeout(this.vacancies.get(key))
    this.vacancies.set(
      key,
      setTimeout(() => {
        this.vacancies.delete(key)
        this.promote(connection.siteId, connection.userId).catch((err: unknown) => this.log.warn({ err }, 'service promotion failed'))
      }, this.timings.vacancyGraceMs),
    )
  }

  /** Bus events of SERVICE_CHANNEL, from every instance (this one included). */
  async onEvent(event: ServiceEvent): Promise<void> {
    switch (event.type) {
      case 'claim':
        return this.applyClaim(event)
      case 'probe':
        return this.answerProbe(event)
      case 'reply':
        if (event.instance === this.instance) this.pending.get(event.request)?.push(event)
        return
    }
  }

  stop(): void {
    this.stopped = true
    for (const timer of this.vacancies.values()) clearTimeout(timer)
    this.vacancies.clear()
    for (const wait of this.waits) {
      clearTimeout(wait.timer)
      wait.resolve()
    }
    this.waits.clear()
  }

  private applyClaim(event: Extract<ServiceEvent, { type: 'claim' }>): void {
    const key = userKey(event.site_id, event.user_id)
    clearTimeout(this.vacancies.get(key))
    this.vacancies.delete(key)
    for (const connection of this.registry.ofUser(event.site_id, event.user_id)) {
      if (connection.loggedInAt === null) continue
      this.verdict(connection, connection.id === event.connection)
    }
  }

  private async answerProbe(event: Extract<ServiceEvent, { type: 'probe' }>): Promise<void> {
    const connections = [...this.registry.ofUser(event.site_id, event.user_id)].filter((c) => c.loggedInAt !== null)
    if (connections.length === 0) return
    await this.publish({
      type: 'reply',
      request: event.request,
      instance: event.instance,
      serving: connections.some((c) => c.serving),
      candidates: connections.map((c) => ({ connection: c.id, logged_in_at: c.loggedInAt! })),
    })
  }

  private async promote(siteId: number, userId: number): Promise<void> {
    const replies = await this.probe(siteId, userId)
    if (this.stopped || replies.some((reply) => reply.serving)) return
    const candidates = replies.flatMap((reply) => reply.candidates).sort((a, b) => b.logged_in_at - a.logged_in_at)
    const chosen = candidates[0]
    if (chosen) await this.publish({ type: 'claim', site_id: siteId, user_id: userId, connection: chosen.connection })
  }

  /** Asks every instance about the user's connections and collects what arrives within probeMs. */
  private async probe(siteId: number, userId: number) {
    const request = randomUUID()
    this.pending.set(request, [])
    try {
      await this.publish({ type: 'probe', site_id: siteId, user_id: userId, request, instance: this.instance })
      await this.sleep(this.timings.probeMs)
      return this.pending.get(request) ?? []
    } finally {
      this.pending.delete(request)
    }
  }

  private verdict(connection: Connection, serving: boolean): void {
    connection.serving = serving
    connection.verdicts += 1
    connection.send({ action: serving ? 'startService' : 'serviceElsewhere' })
  }

  private async publish(event: ServiceEvent): Promise<void> {
    if (!this.stopped) await this.bus.publish(SERVICE_CHANNEL, event)
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wait = {
        resolve,
        timer: setTimeout(() => {
          this.waits.delete(wait)
          resolve()
        }, ms),
      }
      this.waits.add(wait)
    })
  }
}
