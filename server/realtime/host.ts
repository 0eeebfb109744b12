import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fastifyWebsocket from '@fastify/websocket'
import type { WebSocket, RawData } from 'ws'
import * as v from 'valibot'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { issuesToFieldErrors } from '../../contract/api/errors.ts'
import { message } from '../../contract/messages.ts'
import { MAX_CLIENT_FRAME_BYTES, SOCKET_CLOSE_CODES, TOKEN_SUBPROTOCOL } from '../../contract/realtime/service-socket.ts'
import type { ServerMessage } from '../../contract/realtime/service-socket.ts'
import type { SessionEndedEvent } from '../bus/bus.ts'
import { SESSION_ENDED } from '../bus/bus.ts'
import { detailError } from '../http/errors.ts'
import { Connection, ConnectionRegistry } from './connections.ts'
import type { SocketContext, SocketDefinition, SocketPath } from './definition.ts'
import { sweepCredentials } from './credential-sweep.ts'
import { originAllowed } from './origin.ts'

// The websocket host: every socket path of the app (definitions in sockets/, listed in sockets/index.ts) is opened,
// limited and closed here, so a path only says which frames it takes and what it does with them. Everything a client
// could be refused for is decided on the HTTP upgrade, before a single frame: the permission guard authenticates
// (session cookie, `Authorization: Token`, or the subprotocol pair `token, <key>`) and a foreign Origin is refused
// here. Each instance keeps its own connections and hears the bus, so a session ended on any instance closes its
// sockets on every instance.

/** Frames a connection may send per second before it is closed (clients send a few every 5 s). */
const MAX_FRAMES_PER_SECOND = 50

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A websocket route: the only kind an upgrade request may reach. */
    socket?: boolean
  }
  interface FastifyInstance {
    /** The connections this instance holds, every path together (tests and the bench read it). */
    realtime: { registry: ConnectionRegistry; instance: string }
  }
}

export type SocketHostOptions = {
  sockets: readonly SocketDefinition[]
  /** Paths served outside the host (raw proxies such as /ws/sip) and the subprotocol each answers. */
  subprotocols?: Readonly<Record<string, string>>
}

export async function socketHost(app: FastifyInstance, options: SocketHostOptions): Promise<void> {
  const { config, bus, db } = app.deps
  const timings = config.realtime
  const instance = randomUUID()
  const registry = new ConnectionRegistry()
  const subprotocols = options.subprotocols ?? {}
  let sequence = 0
  app.decorate('realtime', { registry, instance })

  // Work that touches the database is tracked, so closing the app waits for it before the database closes.
  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work)
    void work.finally(() => inFlight.delete(work)).catch(() => {})
    return work
  }

  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: MAX_CLIENT_FRAME_BYTES,
      // The browser must hear back one of the subprotocols it offered: `token`, never the key that follows it; a raw
      // path answers its own (the SIP proxy /ws/sip speaks `sip`, RFC 7118).
      handleProtocols: (protocols, request) => {
        if (protocols.has(TOKEN_SUBPROTOCOL)) return TOKEN_SUBPROTOCOL
        const own = subprotocols[request.url?.split('?')[0] ?? '']
        if (own && protocols.has(own)) return own
        return false
      },
    },
    // A frame over the size limit is the client's fault (ws closes it with 1009): a warning, not a server error.
    errorHandler: (error, socket, request) => {
      if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') request.log.warn({ err: error }, 'websocket frame too large')
      else request.log.error(error)
      socket.terminate()
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

  const paths: { definition: SocketDefinition; registry: ConnectionRegistry; path: SocketPath<{ action: string }> }[] = []
  for (const definition of options.sockets) {
    const own = new ConnectionRegistry()
    const context: SocketContext = { deps: app.deps, log: app.log, instance, registry: own, track }
    paths.push({ definition, registry: own, path: await definition.open(context) })
  }

  // Before the plugin's own preClose (which closes whatever is left without a code): clients hear "going away".
  app.addHook('preClose', async () => {
    for (const { path } of paths) path.stop?.()
    for (const connection of registry.all) connection.close(SOCKET_CLOSE_CODES.goingAway, 'server shutting down')
  })

  const offSessionEnded = await bus.subscribe(SESSION_ENDED, (payload) => {
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
  })

  // ---- liveness and credential sweep
  const pingTimer = setInterval(() => {
    const now = Date.now()
    const ping = JSON.stringify({ action: 'serverPing' } satisfies ServerMessage)
    for (const connection of registry.all) {
      if (now - connection.lastFrameAt > timings.idleMs) connection.close(SOCKET_CLOSE_CODES.idle, 'idle')
      else connection.sendRaw(ping)
    }
  }, timings.serverPingMs)
  const sweepTimer = setInterval(() => {
    track(sweepCredentials(db, registry.all, endSession)).catch((err: unknown) => app.log.warn({ err }, 'websocket credential sweep failed'))
  }, timings.sweepMs)
  pingTimer.unref()
  sweepTimer.unref()

  app.addHook('onClose', async () => {
    clearInterval(pingTimer)
    clearInterval(sweepTimer)
    for (const { path } of paths) path.stop?.()
    await Promise.all([offSessionEnded(), ...paths.map(({ path }) => path.close?.())])
    await Promise.allSettled([...inFlight])
  })

  function endSession(connection: Connection, reason: string): void {
    connection.send({ action: 'logout', reason })
    connection.close(SOCKET_CLOSE_CODES.sessionEnded, 'session ended')
  }

  // ---- the routes
  for (const entry of paths) {
    app.get(
      entry.definition.path,
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
      (socket, request) => accept(entry, socket, request),
    )
  }

  function accept(entry: (typeof paths)[number], socket: WebSocket, request: FastifyRequest): void {
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
    entry.registry.add(connection)
    socket.on('message', (data, isBinary) => receive(entry, connection, data, isBinary))
    socket.on('close', () => {
      connection.closed = true
      registry.remove(connection)
      entry.registry.remove(connection)
      entry.path.closed?.(connection)
    })
  }

  function receive(entry: (typeof paths)[number], connection: Connection, data: RawData, isBinary: boolean): void {
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
      .then(() => track(handle(entry, connection, frame)))
      .catch((err: unknown) => {
        app.log.error({ err }, 'websocket frame failed')
        connection.send({ action: 'error', detail: message('serverError', connection.lang), request: actionOf(frame) })
      })
  }

  async function handle(entry: (typeof paths)[number], connection: Connection, frame: unknown): Promise<void> {
    if (connection.closed) return
    const action = actionOf(frame)
    if (action === null) {
      connection.send({ action: 'error', detail: message('malformedRequest', connection.lang), request: null })
      return
    }
    // Spec 001 §7: unknown actions are ignored (the later issues' actions included, LATER_CLIENT_ACTIONS).
    const schema = Object.hasOwn(entry.definition.clientMessages, action) ? entry.definition.clientMessages[action] : undefined
    if (!schema) return
    const parsed = v.safeParse(schema, frame, { lang: connection.lang, abortPipeEarly: true })
    if (!parsed.success) {
      connection.send({
        action: 'error',
        detail: message('invalidValue', connection.lang),
        request: action,
        errors: issuesToFieldErrors(parsed.issues),
      })
      return
    }
    await entry.path.dispatch(connection, parsed.output)
  }
}
// Decorations and hooks of this plugin (the websocket upgrade handling among them) apply to the whole app, so that an
// upgrade request to any other path is closed rather than left hanging.
;(socketHost as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true

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
