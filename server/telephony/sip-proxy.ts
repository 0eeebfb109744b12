import type { FastifyInstance, FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import WebSocket from 'ws'
import type { RawData } from 'ws'
import { voipAccounts } from '../db/schema/index.ts'
import { detailError } from '../http/errors.ts'
import { originAllowed } from '../realtime/origin.ts'

// GET /ws/sip: the webphone's SIP-over-WebSocket (subprotocol `sip`), proxied frame by frame to Kamailio's loopback
// WebSocket port. Only a signed-in user whose profile has a webphone account gets through (checked on the upgrade, like
// /ws/business/, with the same Origin rule); SIP digest is still Kamailio's. The browser's address travels to Kamailio
// as X-Forwarded-For on the upstream upgrade, so Kamailio's bans and failed-auth counts apply to the browser, not to
// this server, and the signed-in user as X-Atende-User, so Kamailio counts a webphone's requests per user (an office
// behind one NAT is many users). Closing either side closes the other. Each connection costs Kamailio shared memory:
// one signed-in agent once opened ~400 and no other webphone could connect, so each user and each address may hold
// only so many (429 before the upgrade).

export const SIP_SOCKET_PATH = '/ws/sip'
export const SIP_SUBPROTOCOL = 'sip'

/** Frames a browser may queue while Kamailio's side is still opening. */
const MAX_QUEUED_FRAMES = 32

export type SipProxyOptions = {
  /** ws://127.0.0.1:SIP_WS_PORT, or null while telephony is off or its engines are missing. */
  upstream(): string | null
  /** Open websockets allowed per signed-in user and per browser address (this server's; SIP_WS_PER_USER/_ADDRESS). */
  perUser: number
  perAddress: number
}

/** Open proxied websockets per key (`u:<user id>`, `a:<address>`). */
export class SocketCounts {
  private readonly counts = new Map<string, number>()
  get(key: string): number {
    return this.counts.get(key) ?? 0
  }
  add(key: string): void {
    this.counts.set(key, this.get(key) + 1)
  }
  remove(key: string): void {
    const n = this.get(key) - 1
    if (n > 0) this.counts.set(key, n)
    else this.counts.delete(key)
  }
}

export function registerSipProxy(app: FastifyInstance, options: SipProxyOptions): void {
  const { config, db } = app.deps
  const open = new SocketCounts()
  app.get(
    SIP_SOCKET_PATH,
    {
      websocket: true,
      config: { permission: 'authenticated', socket: true },
      onRequest: async (request) => {
        if (!originAllowed(request.headers.origin, request.host, config.wsAllowedOrigins)) {
          throw detailError(403, 'permissionDenied', request.lang)
        }
        const [account] = await db.select({ userId: voipAccounts.userId }).from(voipAccounts).where(eq(voipAccounts.userId, request.auth!.user.id))
        if (!account) throw detailError(403, 'noVoipAccount', request.lang)
        if (!options.upstream()) throw detailError(503, 'telephonyUnavailable', request.lang)
        const keys = [`u:${request.auth!.user.id}`, `a:${request.ip}`]
        if (open.get(keys[0]!) >= options.perUser || open.get(keys[1]!) >= options.perAddress) {
          throw detailError(429, 'tooManyWebphones', request.lang)
        }
        // Counted from here (check and count in one synchronous step, so parallel upgrades cannot all slip through)
        // until the browser's TCP connection closes, whether the upgrade completed or not.
        for (const key of keys) open.add(key)
        request.raw.socket.once('close', () => {
          for (const key of keys) open.remove(key)
        })
      },
    },
    (socket, request) => proxy(socket, request, options.upstream()!),
  )
}

function proxy(browser: WebSocket, request: FastifyRequest, upstreamUrl: string): void {
  // Kamailio reads the first address: the browser's as this server sees it (request.ip honours TRUST_PROXY).
  const kamailio = new WebSocket(upstreamUrl, SIP_SUBPROTOCOL, {
    headers: { 'X-Forwarded-For': request.ip, 'X-Atende-User': String(request.auth!.user.id) },
    perMessageDeflate: false,
  })
  const queued: { data: RawData; isBinary: boolean }[] = []
  let closed = false
  const closeBoth = (code: number, reason: string) => {
    if (closed) return
    closed = true
    for (const side of [browser, kamailio]) {
      if (side.readyState === WebSocket.OPEN) side.close(code, reason)
      else if (side.readyState === WebSocket.CONNECTING) side.terminate()
    }
  }
  kamailio.on('open', () => {
    for (const frame of queued.splice(0)) kamailio.send(frame.data, { binary: frame.isBinary })
  })
  kamailio.on('message', (data, isBinary) => {
    if (browser.readyState === WebSocket.OPEN) browser.send(data, { binary: isBinary })
  })
  browser.on('message', (data, isBinary) => {
    if (kamailio.readyState === WebSocket.OPEN) kamailio.send(data, { binary: isBinary })
    else if (kamailio.readyState === WebSocket.CONNECTING && queued.length < MAX_QUEUED_FRAMES) queued.push({ data, isBinary })
    else closeBoth(1013, 'sip proxy busy')
  })
  kamailio.on('close', (code) => closeBoth(code === 1000 ? 1000 : 1011, 'sip server closed'))
  kamailio.on('error', (err) => {
    request.log.warn({ err: err.message }, 'sip proxy: Kamailio side failed')
    closeBoth(1011, 'sip server unavailable')
  })
  browser.on('close', () => closeBoth(1000, 'client closed'))
  browser.on('error', () => closeBoth(1011, 'client error'))
}
