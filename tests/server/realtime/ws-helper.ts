import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { SESSION_COOKIE } from '../../../contract/api/auth.ts'
import { SERVICE_SOCKET_PATH } from '../../../contract/realtime/service-socket.ts'
import type { ServerMessage } from '../../../contract/realtime/service-socket.ts'
import { DEFAULT_REALTIME_TIMINGS } from '../../../server/config.ts'
import type { RealtimeTimings } from '../../../server/config.ts'
import { DEMO_PASSWORDS, randomIp, signedIn } from '../helper.ts'

// Real websocket clients (the `ws` package: it can set Origin and Cookie) against an app listening on loopback.

/** Short timings so ownership and sweeps happen within a test. */
export const FAST_TIMINGS: RealtimeTimings = { ...DEFAULT_REALTIME_TIMINGS, probeMs: 60, vacancyGraceMs: 400, sweepMs: 200 }

/** Starts the app on a random loopback port; answers the ws:// base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return `ws://127.0.0.1:${port}`
}

export type Credentials = { cookie?: string; token?: string }

export async function sessionCookie(app: FastifyInstance, username: keyof typeof DEMO_PASSWORDS): Promise<string> {
  const client = await signedIn(app, username)
  return `${SESSION_COOKIE}=${client.cookies.get(SESSION_COOKIE)}`
}

export async function apiToken(app: FastifyInstance, username: keyof typeof DEMO_PASSWORDS, host = 'localhost'): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    headers: { host, 'content-type': 'application/json' },
    remoteAddress: randomIp(),
    payload: JSON.stringify({ username, password: DEMO_PASSWORDS[username] }),
  })
  if (response.statusCode !== 200) throw new Error(`token sign-in of ${username} failed: ${response.statusCode} ${response.body}`)
  return (response.json() as { token: string }).token
}

/** A connected client that queues what it receives (the service socket's frames by default; the chat socket's with its type). */
export class SocketClient<M extends { action: string } = ServerMessage> {
  readonly ws: WebSocket
  readonly received: M[] = []
  private waiters: { match: (m: M) => boolean; resolve: (m: M) => void }[] = []
  readonly closed: Promise<{ code: number; reason: string }>

  constructor(ws: WebSocket) {
    this.ws = ws
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as M
      this.received.push(message)
      const waiter = this.waiters.find((w) => w.match(message))
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        waiter.resolve(message)
      }
    })
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })))
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** The first message with this action received from now on, or already queued and not yet taken. */
  next<A extends M['action']>(action: A | readonly A[], timeoutMs = 5000): Promise<Extract<M, { action: A }>> {
    const actions: readonly string[] = typeof action === 'string' ? [action] : action
    const match = (m: M) => actions.includes(m.action)
    const index = this.received.findIndex(match)
    if (index >= 0) return Promise.resolve(this.received.splice(index, 1)[0] as Extract<M, { action: A }>)
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (m: M) => {
          clearTimeout(timer)
          this.received.splice(this.received.indexOf(m), 1)
          resolve(m as Extract<M, { action: A }>)
        },
      }
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        reject(new Error(`no ${actions.join('/')} within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`))
      }, timeoutMs)
      this.waiters.push(waiter)
    })
  }

  /** Sends a ping and waits for the pong: every frame sent before has been handled by then. */
  async roundTrip(): Promise<void> {
    this.send({ action: 'ping' })
    await this.next('pong' as M['action'])
  }

  has(action: M['action']): boolean {
    return this.received.some((m) => m.action === action)
  }

  close(): void {
    this.ws.close()
  }
}

export type OpenOptions = Credentials & { origin?: string; protocols?: string[]; host?: string; path?: string }

function clientOptions(options: OpenOptions) {
  const headers: Record<string, string> = {}
  if (options.cookie) headers.cookie = options.cookie
  if (options.token) headers.authorization = `Token ${options.token}`
  if (options.origin) headers.origin = options.origin
  if (options.host) headers.host = options.host
  return { headers }
}

/** Opens a socket and waits until it is open; rejects with the HTTP status when the upgrade is refused. */
export function openSocket(base: string, options: OpenOptions = {}): Promise<SocketClient> {
  return openTypedSocket<ServerMessage>(base, options)
}

/** openSocket for another path's frames (the chat socket: `openTypedSocket<ChatServerMessage>(base, { path })`). */
export function openTypedSocket<M extends { action: string }>(base: string, options: OpenOptions = {}): Promise<SocketClient<M>> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}${options.path ?? SERVICE_SOCKET_PATH}`, options.protocols ?? [], clientOptions(options))
    const client = new SocketClient<M>(ws)
    ws.once('open', () => resolve(client))
    ws.once('unexpected-response', (_request, response) => reject(new RefusedError(response.statusCode ?? 0)))
    ws.once('error', reject)
  })
}

export class RefusedError extends Error {
  readonly status: number
  constructor(status: number) {
    super(`upgrade refused with HTTP ${status}`)
    this.status = status
  }
}

/** The HTTP status an upgrade was refused with (fails the test if the socket opened). */
export async function refusal(base: string, options: OpenOptions = {}): Promise<number> {
  try {
    const client = await openSocket(base, options)
    client.close()
  } catch (error) {
    if (error instanceof RefusedError) return error.status
    throw error
  }
  throw new Error('the upgrade was accepted')
}

/** Opens and logs in (the first frame the console sends), waiting for the service verdict. */
export async function loggedIn(base: string, options: OpenOptions): Promise<{ client: SocketClient; verdict: 'startService' | 'serviceElsewhere' }> {
  const client = await openSocket(base, options)
  client.send({ action: 'login' })
  const { action } = await client.next(['startService', 'serviceElsewhere'])
  return { client, verdict: action }
}
