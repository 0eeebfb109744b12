import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fastifyWebsocket from '@fastify/websocket'
import type { WebSocket, RawData } from 'ws'
import { and, gt, inArray, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { issuesToFieldErrors } from '../../contract/api/errors.ts'
import { message } from '../../contract/messages.ts'
import {
  CLIENT_MESSAGES,
  MAX_CLIENT_FRAME_BYTES,
  SERVICE_SOCKET_PATH,
  SOCKET_CLOSE_CODES,
  TOKEN_SUBPROTOCOL,
  isClientAction,
} from '../../contract/realtime/service-socket.ts'
import type { ClientAction, ClientMessage, ServerMessage } from '../../contract/realtime/service-socket.ts'
import { authTokens, sessions, users } from '../db/schema/index.ts'
import { detailError } from '../http/errors.ts'
import type { SessionEndedEvent } from './bus.ts'
import { SESSION_ENDED } from './bus.ts'
import type { ServiceEvent, SupervisorsEnvelope, UserEnvelope } from './channels.ts'
import { SERVICE_CHANNEL, SUPERVISORS_CHANNEL, USER_CHANNEL } from './channels.ts'
import { Connection, ConnectionRegistry } from './connections.ts'
import { originAllowed } from './origin.ts'
import { SIP_SOCKET_PATH, SIP_SUBPROTOCOL } from '../telephony/sip-proxy.ts'
import { ServiceOwnership } from './service-ownership.ts'
import { createAgentPresence } from '../agent/presence.ts'
import type { AgentPresence } from '../agent/presence.ts'

// The service socket /ws/business/ (the status feed): spec 000 §4, §7; spec 001 §4, §7. Shapes in
// contract/realtime/service-socket.ts. Everything a client could be refused for is decided on the HTTP upgrade, before
// a single frame: the permission guard authenticates (session cookie, `Authorization: Token`, or the subprotocol pair
// `token, <key>`) and a foreign Origin is refused here. Each instance keeps its own connections and hears the bus, so
// a frame published for a user on any instance reaches that user's sockets on every instance.

/** Frames a connection may send per second before it is closed (clients send a few every 5 s). */
const MAX_FRAMES_PER_SECOND = 50

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A websocket route: the only kind an upgrade request may reach. */
    socket?: boolean
  }
  interface FastifyInstance {
    /** The connections this instance holds (tests and the bench read it). */
    realtime: { registry: ConnectionRegistry; instance: string }
  }
}

export async function realtimeGateway(app: FastifyInstance): Promise<void> {
  const { config, bus, db } = app.deps
  const timings = config.realtime
  const instance = randomUUID()
  const registry = new ConnectionRegistry()
  const ownership = new ServiceOwnership(bus, registry, instance, timings, app.log)
  const presence: AgentPresence = createAgentPresence(app.deps)
  let sequence = 0
  app.decorate('realtime', { registry, instance })

  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: MAX_CLIENT_FRAME_BYTES,
      // The browser must hear back one of the subprotocols it offered: `token`, never the key that follows it; the SIP
      // proxy (/ws/sip, server/telephony/sip-proxy.ts) speaks `sip` (RFC 7118).
      handleProtocols: (protocols, request) => {
        if (protocols.has(TOKEN_SUBPROTOCOL)) return TOKEN_SUBPROTOCOL
        if (protocols.has(SIP_SUBPROTOCOL) && request.url?.split('?')[0] === SIP_SOCKET_PATH) return SIP_SUBPROTOCOL
        return false
      },
    },
  })
  // An upgrade of any other route is refused before it happens (the plugin would upgrade it and close it at once).
  app.addHook('onRequest', async (request) => {
    if (request.headers.upgrade?.toLowerCase() === 'websocket' && !request.routeOptions.config?.socket) {
      throw detailError(404, 'notFound', request.lang)
    }
  })
  // An upgrade answered with an HTTP error (401, 403, 404...) must not leave its socket open: the plugin only cleans up
  // after its own onRequest hook ran, and the permission guard's runs (and may refuse) before it.
  app.addHook('onResponse', async (request) => {
    if (request.headers.upgrade?.toLowerCase() === 'websocket' && !request.raw.socket.destroyed) request.raw.socket.destroy()
  })
  // Before the plugin's own preClose (which closes whatever is left without a code): clients hear "going away".
  app.addHook('preClose', async () => {
    ownership.stop()
    for (const connection of registry.all) connection.close(SOCKET_CLOSE_CODES.goingAway, 'server shutting down')
  })

  // ---- bus → local sockets
  const unsubscribe = await Promise.all([
    bus.subscribe(USER_CHANNEL, (payload) => {
      const { site_id, user_id, message, except } = payload as UserEnvelope
      const frame = JSON.stringify(message)
      for (const connection of registry.ofUser(site_id, user_id)) if (connection.id !== except) connection.sendRaw(frame)
    }),
    bus.subscribe(SUPERVISORS_CHANNEL, (payload) => {
      const { site_id, message } = payload as SupervisorsEnvelope
      const frame = JSON.stringify(message)
      for (const connection of registry.supervisorsOf(site_id)) connection.sendRaw(frame)
    }),
    bus.subscribe(SERVICE_CHANNEL, (payload) => {
      ownership.onEvent(payload as ServiceEvent).catch((err: unknown) => app.log.warn({ err }, 'service ownership event failed'))
    }),
    bus.subscribe(SESSION_ENDED, (payload) => {
      const event = payload as SessionEndedEvent
      for (const connection of registry.ofUser(event.site_id, event.user_id)) {
        if (event.keep !== null && connection.credential === event.keep) continue
        // The caller of a password change keeps its session under a new id: its sockets follow it.
        if (event.keep !== null && event.rotated_from && connection.credential === event.rotated_from) {
          connection.credential = event.keep
          continue
        }
        endSession(connection, event.reason)
      }
    }),
  ])

  // ---- liveness and credential sweep
  const pingTimer = setInterval(() => {
    const now = Date.now()
    const ping = JSON.stringify({ action: 'serverPing' } satisfies ServerMessage)
    for (const connection of registry.all) {
      if (now - connection.lastFrameAt > timings.idleMs) connection.close(SOCKET_CLOSE_CODES.idle, 'idle')
      else connection.sendRaw(ping)
    }
  }, timings.serverPingMs)
  // Work that touches the database is tracked, so closing the app waits for it before the database closes.
  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work)
    void work.finally(() => inFlight.delete(work)).catch(() => {})
    return work
  }
  const sweepTimer = setInterval(() => {
    track(sweepCredentials()).catch((err: unknown) => app.log.warn({ err }, 'websocket credential sweep failed'))
  }, timings.sweepMs)
  pingTimer.unref()
  sweepTimer.unref()

  app.addHook('onClose', async () => {
    clearInterval(pingTimer)
    clearInterval(sweepTimer)
    ownership.stop()
    await Promise.all(unsubscribe.map((off) => off()))
    await Promise.allSettled([...inFlight])
  })

  /** Sessions and tokens that expired or were deleted without an event, and users since disabled, lose their sockets. */
  async function sweepCredentials(): Promise<void> {
    if (registry.size === 0) return
    const connections = [...registry.all]
    const hashes = (via: 'session' | 'token') => [...new Set(connections.filter((c) => c.via === via).map((c) => c.credential))]
    const now = new Date()
    const sessionHashes = hashes('session')
    const tokenHashes = hashes('token')
    const userIds = [...new Set(connections.map((c) => c.userId))]
    const [liveSessions, liveTokens, activeUsers] = await Promise.all([
      sessionHashes.length
        ? db.select({ hash: sessions.keyHash }).from(sessions).where(and(inArray(sessions.keyHash, sessionHashes), gt(sessions.expiresAt, now)))
        : [],
      tokenHashes.length
        ? db.select({ hash: authTokens.keyHash }).from(authTokens).where(and(inArray(authTokens.keyHash, tokenHashes), gt(authTokens.expiresAt, now)))
        : [],
      db.select({ id: users.id }).from(users).where(and(inArray(users.id, userIds), eq(users.isActive, true))),
    ])
    const live = new Set([...liveSessions, ...liveTokens].map((row) => row.hash))
    const active = new Set(activeUsers.map((row) => row.id))
    // Two sweeps in a row must agree, so a logout whose own event is still on its way over the bus is reported as
    // a logout rather than as an expiry.
    for (const connection of connections) {
      const reason = !live.has(connection.credential) ? 'expired' : !active.has(connection.userId) ? 'user-disabled' : null
      if (reason && connection.suspect) endSession(connection, reason)
      connection.suspect = reason !== null
    }
  }

  function endSession(connection: Connection, reason: string): void {
    connection.send({ action: 'logout', reason })
    connection.close(SOCKET_CLOSE_CODES.sessionEnded, 'session ended')
  }

  // ---- the route
  app.get(
    SERVICE_SOCKET_PATH,
    {
      websocket: true,
      config: { permission: 'authenticated', socket: true },
      // After the permission guard (authenticated by now): a page of another origin must not ride on the cookie.
      onRequest: async (request) => {
        if (!originAllowed(request.headers.origin, request.host, config.wsAllowedOrigins)) {
          throw detailError(403, 'permissionDenied', request.lang)
        }
      },
    },
    (socket, request) => accept(socket, request),
  )

  function accept(socket: WebSocket, request: FastifyRequest): void {
    const auth = request.auth!
    const connection = new Connection({
      id: `${instance}:${++sequence}`,
      socket,
      siteId: auth.user.siteId,
      userId: auth.user.id,
      credential: auth.keyHash,
      via: auth.via,
      supervisor: auth.roles.includes(PERMISSIONS.viewDashboardSupervisor),
      lang: request.lang,
    })
    registry.add(connection)
    socket.on('message', (data, isBinary) => receive(connection, data, isBinary))
    socket.on('close', () => {
      connection.closed = true
      registry.remove(connection)
      ownership.release(connection)
    })
  }

  function receive(connection: Connection, data: RawData, isBinary: boolean): void {
    const now = Date.now()
    connection.lastFrameAt = now
    if (now - connection.windowStart >= 1000) {
      connection.windowStart = now
      connection.windowFrames = 0
    }
    if (++connection.windowFrames > MAX_FRAMES_PER_SECOND) {
      connection.close(SOCKET_CLOSE_CODES.policy, 'too many frames')
      return
    }
    let frame: unknown
    try {
      if (isBinary) throw new Error('binary frame')
      frame = JSON.parse(rawText(data))
    } catch {
      connection.send({ action: 'error', detail: message('malformedRequest', connection.lang), request: null })
      return
    }
    connection.queue = connection.queue
      .then(() => track(handle(connection, frame)))
      .catch((err: unknown) => {
        app.log.error({ err }, 'websocket frame failed')
        connection.send({ action: 'error', detail: message('serverError', connection.lang), request: actionOf(frame) })
      })
  }

  async function handle(connection: Connection, frame: unknown): Promise<void> {
    if (connection.closed) return
    const action = actionOf(frame)
    if (action === null) {
      connection.send({ action: 'error', detail: message('malformedRequest', connection.lang), request: null })
      return
    }
    // Spec 001 §7: unknown actions are ignored (the later issues' actions included, LATER_CLIENT_ACTIONS).
    if (!isClientAction(action)) return
    const parsed = v.safeParse(CLIENT_MESSAGES[action], frame, { lang: connection.lang, abortPipeEarly: true })
    if (!parsed.success) {
      connection.send({
        action: 'error',
        detail: message('invalidValue', connection.lang),
        request: action,
        errors: issuesToFieldErrors(parsed.issues),
      })
      return
    }
    await dispatch(connection, parsed.output as ClientMessage)
  }

  async function dispatch(connection: Connection, frame: ClientMessage): Promise<void> {
    const who = { siteId: connection.siteId, userId: connection.userId }
    switch (frame.action) {
      case 'login':
        return ownership.login(connection)
      case 'ping':
        return connection.send({ action: 'pong' })
      case 'server_pong':
        return
      case 'get_pauses':
        return connection.send({ action: 'pause', pause: await presence.currentPause(who) })
      case 'get_activities':
        return connection.send({ action: 'activity', activities: await presence.pendingActivities(who) })
      case 'service_here':
        return ownership.claim(connection)
      case 'change_page':
      case 'changePage':
        connection.page = frame.page
        return
      case 'change_state':
        return presence.reportStatus(who, frame.channel, frame.status)
      case 'start_pause': {
        // The REST start already told every socket of the user; a client that names another pause is out of step.
        const pause = await presence.currentPause(who)
        if (pause?.id !== frame.id) connection.send({ action: 'pause', pause })
        return
      }
      case 'done_activity':
        return presence.doneActivity(who, frame.id)
      case 'logout':
        return ownership.release(connection)
      case 'webphone_answer':
        return presence.webphoneAnswer(who, frame.uid, frame.call_id ?? null)
      case 'after_service_finished':
        return presence.afterServiceFinished(who, frame.session_id)
      default:
        frame satisfies never
    }
  }
}
// Decorations and hooks of this plugin (the websocket upgrade handling among them) apply to the whole app, so that an
// upgrade request to any other path is closed rather than left hanging.
;(realtimeGateway as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true

function actionOf(frame: unknown): string | null {
  if (!frame || typeof frame !== 'object' || Array.isArray(frame)) return null
  const action = (frame as { action?: unknown }).action
  return typeof action === 'string' ? action : null
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

export type { ClientAction }
