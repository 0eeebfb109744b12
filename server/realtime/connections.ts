import type { WebSocket } from 'ws'
import type { Locale } from '../../contract/locales.ts'
import type { ServerMessage } from '../../contract/realtime/service-socket.ts'

// One open service socket and the registry of those this instance holds (by user and, for supervisors, by site).

/** A client that reads too slowly is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024

export type ConnectionInit = {
  id: string
  socket: WebSocket
  siteId: number
  userId: number
  /** Hash of the session id or token the upgrade was authenticated with (what session-ended names). */
  credential: string
  via: 'session' | 'token'
  supervisor: boolean
  lang: Locale
}

export class Connection {
  readonly id: string
  readonly socket: WebSocket
  readonly siteId: number
  readonly userId: number
  /** Follows the session when a password change rotates its id (session-ended rotated_from). */
  credential: string
  readonly via: 'session' | 'token'
  readonly lang: Locale
  readonly openedAt = Date.now()
  supervisor: boolean
  /** Set by the `login` frame; only logged-in connections take part in service ownership. */
  loggedInAt: number | null = null
  /** This connection is the one serving the user's calls and chats. */
  serving = false
  /** Bumped whenever this connection is given a verdict (startService / serviceElsewhere). */
  verdicts = 0
  page: string | null = null
  lastFrameAt = Date.now()
  /** Frames are handled one after another, in the order they arrived. */
  queue: Promise<void> = Promise.resolve()
  windowStart = 0
  windowFrames = 0
  closed = false
  /** The last credential sweep found this connection's session, token or user gone. */
  suspect = false

  constructor(init: ConnectionInit) {
    this.id = init.id
    this.socket = init.socket
    this.siteId = init.siteId
    this.userId = init.userId
    this.credential = init.credential
    this.via = init.via
    this.supervisor = init.supervisor
    this.lang = init.lang
  }

  get userKey(): string {
    return userKey(this.siteId, this.userId)
  }

  send(message: ServerMessage): void {
    this.sendRaw(JSON.stringify(message))
  }

  /** For fan-out: the same serialised frame for many sockets. */
  sendRaw(frame: string): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate()
      return
    }
    this.socket.send(frame)
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason)
  }
}

export function userKey(siteId: number, userId: number): string {
  return `${siteId}:${userId}`
}

export class ConnectionRegistry {
  readonly all = new Set<Connection>()
  private readonly byUser = new Map<string, Set<Connection>>()
  private readonly supervisorsBySite = new Map<number, Set<Connection>>()

  add(connection: Connection): void {
    this.all.add(connection)
    addTo(this.byUser, connection.userKey, connection)
    if (connection.supervisor) addTo(this.supervisorsBySite, connection.siteId, connection)
  }

  remove(connection: Connection): void {
    this.all.delete(connection)
    removeFrom(this.byUser, connection.userKey, connection)
    removeFrom(this.supervisorsBySite, connection.siteId, connection)
  }

  /** A connection's supervisor flag changed (roles re-read by the sweep). */
  setSupervisor(connection: Connection, supervisor: boolean): void {
    if (connection.supervisor === supervisor) return
    connection.supervisor = supervisor
    if (supervisor) addTo(this.supervisorsBySite, connection.siteId, connection)
    else removeFrom(this.supervisorsBySite, connection.siteId, connection)
  }

  ofUser(siteId: number, userId: number): ReadonlySet<Connection> {
    return this.byUser.get(userKey(siteId, userId)) ?? EMPTY
  }

  supervisorsOf(siteId: number): ReadonlySet<Connection> {
    return this.supervisorsBySite.get(siteId) ?? EMPTY
  }

  get size(): number {
    return this.all.size
  }
}

const EMPTY: ReadonlySet<Connection> = new Set()

function addTo<K>(map: Map<K, Set<Connection>>, key: K, connection: Connection) {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(connection)
}

function removeFrom<K>(map: Map<K, Set<Connection>>, key: K, connection: Connection) {
  const set = map.get(key)
  if (!set) return
  set.delete(connection)
  if (set.size === 0) map.delete(key)
}
