import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { pabxDevices, pabxTrunks, sites } from '../db/schema/index.ts'
import type { CredentialEntry, KamailioCommand, TrunkEntry } from './types.ts'

// Kamailio's tables, from the database: every active device of an active site (HA1 with realm = the site's domain,
// the concurrent-call cap) and every active trunk (its host resolved to an IPv4 address, its port). Pushed in full on
// each evapi `hello`; after an admin's change only the difference is sent (new or changed entries, removed ones).

/** `networks`: the trusted networks as Kamailio's is_in_subnet reads them (`10.0.0.0/8,203.0.113.7/32`), '' for none. */
export type Tables = { creds: CredentialEntry[]; trunks: TrunkEntry[]; networks: string }

/**
 * The configured networks Kamailio trusts (never pike-bans): the `allowed_ips` of active trunks (where their calls
 * come from) and of active devices (the office networks an admin pinned phones to). Entries that are not an address
 * or a CIDR network are skipped, and so is anything wider than /8 (IPv4) or /32 (IPv6): trusting half the internet is a
 * typo, not a network.
 */
export function trustedNetworks(lists: readonly string[]): string {
  const out = new Set<string>()
  for (const list of lists) {
    for (const raw of list.split(',')) {
      const entry = raw.trim()
      if (!entry) continue
      const [address, bits] = entry.split('/') as [string, string | undefined]
      const family = isIP(address)
      if (family === 0) continue
      const max = family === 4 ? 32 : 128
      const prefix = bits === undefined ? max : Number(bits)
      if (!Number.isInteger(prefix) || prefix > max || prefix < (family === 4 ? 8 : 32)) continue
      out.add(`${address}/${prefix}`)
    }
  }
  return [...out].sort().join(',')
}

export type Resolver = (host: string) => Promise<string | null>

export const resolveIPv4: Resolver = async (host) => {
  if (isIP(host) === 4) return host
  try {
    return (await lookup(host, { family: 4 })).address
  } catch {
    return null
  }
}

export async function loadTables(db: Db, resolve: Resolver = resolveIPv4, log?: { warn(obj: object, msg?: string): void }): Promise<Tables> {
  const devices = await db
    .select({
      user: pabxDevices.username,
      ha1: pabxDevices.secretHa1,
      maxCalls: pabxDevices.maxConcurrentCalls,
      domain: sites.domain,
      allowedIps: pabxDevices.allowedIps,
    })
    .from(pabxDevices)
    .innerJoin(sites, eq(sites.id, pabxDevices.siteId))
    .where(and(eq(pabxDevices.isActive, true), eq(sites.isActive, true)))
  const creds = devices
    .filter((d) => d.user !== '' && /^[0-9a-f]{32}$/.test(d.ha1))
    .map((d) => ({ user: d.user, domain: d.domain, ha1: d.ha1, max_calls: Math.max(0, d.maxCalls) }))
  const trunkRows = await db
    .select({ id: pabxTrunks.id, host: pabxTrunks.host, port: pabxTrunks.port, maxChannels: pabxTrunks.maxChannels, allowedIps: pabxTrunks.allowedIps })
    .from(pabxTrunks)
    .innerJoin(sites, eq(sites.id, pabxTrunks.siteId))
    .where(and(eq(pabxTrunks.isActive, true), eq(sites.isActive, true)))
  const trunks: TrunkEntry[] = []
  for (const row of trunkRows) {
    if (!row.host) continue
    const ip = await resolve(row.host)
    if (!ip) {
      log?.warn({ trunk: row.id, host: row.host }, 'telephony: a trunk host does not resolve; its calls are refused')
      continue
    }
    trunks.push({ id: row.id, ip, port: row.port || 5060, max_calls: Math.max(0, row.maxChannels) })
  }
  const networks = trustedNetworks([...trunkRows.map((row) => row.allowedIps), ...devices.map((d) => d.allowedIps)])
  return { creds, trunks, networks }
}

const credKey = (entry: { user: string; domain: string }) => `${entry.user}@${entry.domain}`

/** The commands that bring Kamailio from `previous` to `next` (null previous: a full reset). */
/**
 * Entries per command. Kamailio prints each evapi message into a buffer to read it (`jansson_get`; 8 KB by default,
 * 32 KB in our config): a credential entry is ≈ 100 bytes, so a table of ~80 devices or more in one message was lost
 * whole. 25 entries of the longest user and domain the contract allows (80 + 253 characters) stay under 16 KB.
 */
export const ENTRIES_PER_COMMAND = 25

function chunks<T>(entries: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < entries.length; i += ENTRIES_PER_COMMAND) out.push(entries.slice(i, i + ENTRIES_PER_COMMAND))
  return out.length ? out : [[]]
}

/** The full table as commands: the first one resets Kamailio's table, the next ones add to it. */
function fullTable(cmd: 'creds' | 'trunks', entries: readonly (CredentialEntry | TrunkEntry)[]): KamailioCommand[] {
  return chunks(entries).map((part, index) => ({ cmd, reset: index === 0, entries: part }) as KamailioCommand)
}

export function tableCommands(previous: Tables | null, next: Tables): KamailioCommand[] {
  if (!previous) return [...fullTable('creds', next.creds), ...fullTable('trunks', next.trunks), { cmd: 'networks', value: next.networks }]
  const commands: KamailioCommand[] = []
  const before = new Map(previous.creds.map((entry) => [credKey(entry), entry]))
  const after = new Map(next.creds.map((entry) => [credKey(entry), entry]))
  const changed = next.creds.filter((entry) => {
    const old = before.get(credKey(entry))
    return !old || old.ha1 !== entry.ha1 || old.max_calls !== entry.max_calls
  })
  const removed = previous.creds.filter((entry) => !after.has(credKey(entry))).map(({ user, domain }) => ({ user, domain }))
  if (removed.length) for (const part of chunks(removed)) commands.push({ cmd: 'creds_del', entries: part })
  if (changed.length) for (const part of chunks(changed)) commands.push({ cmd: 'creds', reset: false, entries: part })
  if (JSON.stringify(previous.trunks) !== JSON.stringify(next.trunks)) commands.push(...fullTable('trunks', next.trunks))
  if (previous.networks !== next.networks) commands.push({ cmd: 'networks', value: next.networks })
  return commands
}

/** Keeps one Kamailio's tables equal to the database's. */
export class CredentialPublisher {
  private pushed: Tables | null = null
  private running: Promise<void> = Promise.resolve()
  private readonly db: Db
  private readonly send: (command: KamailioCommand) => boolean
  private readonly resolve: Resolver
  private readonly log: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void }

  constructor(options: { db: Db; send(command: KamailioCommand): boolean; resolve?: Resolver; log: CredentialPublisher['log'] }) {
    this.db = options.db
    this.send = options.send
    this.resolve = options.resolve ?? resolveIPv4
    this.log = options.log
  }

  /** Everything, replacing what Kamailio holds (a new evapi connection: Kamailio may have restarted empty). */
  pushAll(): Promise<void> {
    return this.serial(async () => {
      this.pushed = null
      await this.sync()
    })
  }

  /** Only what changed since the last push. */
  pushChanges(): Promise<void> {
    return this.serial(() => this.sync())
  }

  private async sync(): Promise<void> {
    const next = await loadTables(this.db, this.resolve, this.log)
    const commands = tableCommands(this.pushed, next)
    for (const command of commands) {
      if (!this.send(command)) {
        // Not connected: the next hello pushes everything.
        this.pushed = null
        return
      }
    }
    if (commands.length) this.log.info({ devices: next.creds.length, trunks: next.trunks.length }, 'telephony: tables pushed to Kamailio')
    this.pushed = next
  }

  private serial(work: () => Promise<void>): Promise<void> {
    const next = this.running.then(work, work)
    this.running = next.catch(() => {})
    return next
  }
}
