import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { and, asc, eq } from 'drizzle-orm'
import { message } from '../../../contract/messages.ts'
import { VISITOR_TOKEN_HEADER, VisitorSessionInput, WIDGET_PATHS } from '../../../contract/realtime/visitor-socket.ts'
import type { VisitorAttachment, VisitorSession, WidgetConfig, WidgetEmbed } from '../../../contract/realtime/visitor-socket.ts'
import { chatChannels } from '../../db/schema/entities.generated.ts'
import { channels } from '../../../contract/entities/chat.ts'
import type { RoutePermission } from '../../http/permission-guard.ts'
import { HttpError, detailError, fieldErrors } from '../../http/errors.ts'
import { isFile, sendStoredFile } from '../../http/files.ts'
import { readMultipart } from '../../http/multipart.ts'
import { parseInput } from '../../http/validate.ts'
import { mediaUrl } from '../../entities/media-store.ts'
import { fileUrl, kindOfName, sniffVisitorFile, storeVisitorFile, visitorDir } from './attachments.ts'
import { channelOnline, findWebchatChannel, widgetOriginAllowed } from './channel.ts'
import { siteModules } from '../../sites/modules.ts'
import type { WebchatChannel } from './channel.ts'
import { createMemoryConversations } from './conversations.ts'
import type { MemoryConversations, WebchatConversations } from './conversations.ts'
import { createCoreConversations } from './core-conversations.ts'
import { demoPage } from './demo-page.ts'
import { webchatDriver } from './driver.ts'
import { registerChannelDriver } from '../../chat/outbox.ts'
import { TokenBuckets } from './rate-limit.ts'
import { channelKeys, loadServerSecret } from './secret.ts'
import type { ChannelKeys } from './secret.ts'
import { visitorSockets } from './socket.ts'
import type { VisitorSockets } from './socket.ts'
import { signVisitorToken, verifyVisitorToken } from './visitor-token.ts'

// The website chat channel's public face (README.md): /widget.js, /widget-demo and everything under /widget/. None of
// it is under /api and none of it needs a sign-in; what protects it is the channel's public token (unforgeable), the
// channel's allowed origins (CORS and the socket's Origin), the visitor token signed per channel, and rate limits.

declare module 'fastify' {
  interface FastifyInstance {
    webchat: { keys: ChannelKeys; conversations: WebchatConversations; sockets: VisitorSockets }
  }
}

export type WebchatOptions = {
  /**
   * Where visitors' conversations live: the chat core (default: rooms and messages in the database, agents' messages
   * through the outbox and this channel's driver), `memory` (one instance, lost on restart: tests of the channel on
   * its own), or any other implementation.
   */
  conversations?: 'core' | 'memory' | WebchatConversations
}

const CLIENT_FILE = path.join(import.meta.dirname, 'client', 'widget.js')

export async function webchatRoutes(app: FastifyInstance, options: WebchatOptions): Promise<void> {
  const { config, db, bus } = app.deps
  const settings = config.webchat
  const keys = channelKeys(await loadServerSecret(config.dataDir, settings.secretKey, app.log))
  const chosen = options.conversations ?? 'core'
  const core = chosen === 'core' ? createCoreConversations(app.deps) : null
  const conversations: WebchatConversations | MemoryConversations =
    core ?? (chosen === 'memory' ? createMemoryConversations(bus) : (chosen as WebchatConversations))
  const sessionsPerAddress = new TokenBuckets(settings.limits.sessionsPerAddress)
  const messagesPerVisitor = new TokenBuckets(settings.limits.messagesPerVisitor)
  const messagesPerAddress = new TokenBuckets(settings.limits.messagesPerAddress)
  const checkToken = (channelId: number, token: string) => verifyVisitorToken(keys.visitorKey, channelId, token)

  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work)
    void work.finally(() => inFlight.delete(work)).catch(() => {})
    return work
  }
  const sockets = await visitorSockets({
    bus,
    log: app.log,
    conversations,
    mediaDir: config.mediaDir,
    checkToken,
    online: (siteId, channelId) => channelOnline(db, siteId, channelId),
    messagesPerVisitor,
    messagesPerAddress,
    timings: { pingMs: config.realtime.serverPingMs, idleMs: config.realtime.idleMs },
    track,
  })
  app.decorate('webchat', { keys, conversations, sockets })
  if (core) {
    registerChannelDriver(webchatDriver)
    const offBridge = await core.bridge((channelId, visitorId, frame) => sockets.local(channelId, visitorId, frame))
    app.addHook('onClose', offBridge)
  }
  app.addHook('preClose', async () => {
    await sockets.close()
  })
  app.addHook('onClose', async () => {
    await Promise.allSettled([...inFlight])
  })

  const script = await widgetScript()

  // ---- the channel a request names, with CORS for its allowed origins

  /** The channel of `:token` on the request's site, if the request's Origin may use it (CORS headers set). */
  async function channelFor(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply): Promise<WebchatChannel> {
    const id = keys.channelOf(request.params.token)
    // A site that turned chat off (system/base/modules) has no public chat: its channels are not found (REST and socket).
    const channel = id !== null && request.site && siteModules(request.site).chat ? await findWebchatChannel(db, request.site.id, id) : null
    if (!channel) throw detailError(404, 'notFound', request.lang)
    const origin = request.headers.origin
    if (!widgetOriginAllowed(origin, request.host, channel.allowedDomains)) throw detailError(403, 'permissionDenied', request.lang)
    if (origin !== undefined) {
      reply.header('Access-Control-Allow-Origin', origin).header('Vary', 'Origin')
    }
    return channel
  }

  function visitorOf(request: FastifyRequest, channel: WebchatChannel) {
    const token = request.headers[VISITOR_TOKEN_HEADER]
    const check = typeof token === 'string' ? checkToken(channel.id, token) : ({ ok: false, status: 401 } as const)
    if (!check.ok) throw detailError(check.status, check.status === 403 ? 'visitorSessionOtherChannel' : 'visitorSessionInvalid', request.lang)
    return { siteId: channel.siteId, channelId: channel.id, visitorId: check.claims.visitorId }
  }

  function limited(bucket: TokenBuckets, key: string, request: FastifyRequest): void {
    const wait = bucket.take(key)
    if (wait > 0) throw new HttpError(429, { detail: message('tooManyRequests', request.lang, { n: wait }) }, { 'Retry-After': String(wait) })
  }

  const publicOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`

  // Pre-flight of the two POSTs (JSON body; the visitor-token header): the same origin rule.
  for (const url of [WIDGET_PATHS.sessions, WIDGET_PATHS.attachments]) {
    app.options<{ Params: { token: string } }>(url, { config: { permission: 'public' } }, async (request, reply) => {
      await channelFor(request, reply)
      return reply
        .header('Access-Control-Allow-Methods', 'POST')
        .header('Access-Control-Allow-Headers', `content-type, ${VISITOR_TOKEN_HEADER}, accept-language`)
        .header('Access-Control-Max-Age', '600')
        .code(204)
        .send()
    })
  }

  // ---- the script and the demo page

  app.get(WIDGET_PATHS.script, { config: { permission: 'public', bare: true } }, async (request, reply) => {
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .header('ETag', script.etag)
      .header('Vary', 'Accept-Encoding')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
    if (request.headers['if-none-match'] === script.etag) return reply.code(304).send()
    const accepts = String(request.headers['accept-encoding'] ?? '')
    if (/\bbr\b/.test(accepts)) return reply.header('Content-Encoding', 'br').send(script.br)
    if (/\bgzip\b/.test(accepts)) return reply.header('Content-Encoding', 'gzip').send(script.gzip)
    return reply.send(script.plain)
  })

  app.get(WIDGET_PATHS.demo, { config: { permission: 'public' } }, async (request, reply) => {
    const [row] =
      request.site && siteModules(request.site).chat
        ? await db
            .select({ id: chatChannels.id })
            .from(chatChannels)
            .where(and(eq(chatChannels.siteId, request.site.id), eq(chatChannels.type, 'webchat'), eq(chatChannels.isActive, true)))
            .orderBy(asc(chatChannels.id))
            .limit(1)
        : []
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(demoPage(request.lang, row ? keys.publicToken(row.id) : null))
  })

  // ---- REST

  app.get<{ Params: { token: string } }>(WIDGET_PATHS.config, { config: { permission: 'public' } }, async (request, reply) => {
    const channel = await channelFor(request, reply)
    reply.header('Cache-Control', 'no-store')
    const answer: WidgetConfig = {
      title: channel.title,
      color: channel.color,
      logo: channel.logo ? `${publicOrigin(request)}${mediaUrl('chat-channels', channel.logo)}` : null,
      welcome_message: channel.welcomeMessage,
      offline_message: channel.offlineMessage,
      require_name: channel.requireName,
      require_email: channel.requireEmail,
      require_phone: channel.requirePhone,
      send_attachment: channel.sendAttachment,
      online: await channelOnline(db, channel.siteId, channel.id),
    }
    return answer
  })

  app.post<{ Params: { token: string } }>(WIDGET_PATHS.sessions, { config: { permission: 'public' } }, async (request, reply) => {
    const channel = await channelFor(request, reply)
    limited(sessionsPerAddress, request.ip, request)
    const input = parseInput(VisitorSessionInput, request.body ?? {}, request.lang)
    const missing: Record<string, string[]> = {}
    if (channel.requireName && !input.name) missing.name = [message('required', request.lang)]
    if (channel.requireEmail && !input.email) missing.email = [message('required', request.lang)]
    if (channel.requirePhone && !input.phone) missing.phone = [message('required', request.lang)]
    if (Object.keys(missing).length) throw fieldErrors(missing)
    const { token, claims } = signVisitorToken(keys.visitorKey(channel.id), channel.id, Date.now(), input)
    await conversations.startSession({ siteId: channel.siteId, channelId: channel.id, visitorId: claims.visitorId }, input)
    const answer: VisitorSession = { token, visitor_id: claims.visitorId, expires_at: new Date(claims.expiresAt * 1000).toISOString() }
    return reply.code(201).header('Cache-Control', 'no-store').send(answer)
  })

  app.post<{ Params: { token: string } }>(
    WIDGET_PATHS.attachments,
    { config: { permission: 'public' }, bodyLimit: settings.maxUploadBytes + 64 * 1024 },
    async (request, reply) => {
      const channel = await channelFor(request, reply)
      const ref = visitorOf(request, channel)
      if (!channel.sendAttachment) throw detailError(403, 'permissionDenied', request.lang)
      limited(messagesPerVisitor, ref.visitorId, request)
      limited(messagesPerAddress, request.ip, request)
      if (!request.isMultipart()) throw detailError(415, 'unsupportedMediaType', request.lang)
      const megabytes = Math.round((settings.maxUploadBytes / (1024 * 1024)) * 10) / 10
      let part: { bytes: Buffer; filename: string } | undefined
      await readMultipart(
        request,
        async () => {
          for await (const each of request.parts({ limits: { fileSize: settings.maxUploadBytes, files: 1, fields: 5 } })) {
            if (each.type === 'file' && each.fieldname === 'file') part = { bytes: await each.toBuffer(), filename: each.filename }
            else if (each.type === 'file') each.file.resume()
          }
        },
        () => fieldErrors({ file: [message('fileTooLarge', request.lang, { n: megabytes })] }),
      )
      if (!part || part.bytes.length === 0) throw fieldErrors({ file: [message('required', request.lang)] })
      const kind = sniffVisitorFile(part.bytes)
      if (!kind) throw fieldErrors({ file: [message('unsupportedFile', request.lang)] })
      const stored = await storeVisitorFile(visitorDir(config.mediaDir, channel.id, ref.visitorId), part.bytes, kind, part.filename)
      const answer: VisitorAttachment = {
        id: stored.id,
        url: `${publicOrigin(request)}${fileUrl(channel.id, ref.visitorId, stored.id)}`,
        name: stored.name,
        type: kind.type,
        mime: kind.mime,
        size: part.bytes.length,
      }
      return reply.code(201).send(answer)
    },
  )

  // The files visitors attached: the URL is the capability (a visitor id and 128 random bits), as for settings media.
  app.get<{ Params: { channel: string; visitor: string; name: string } }>(WIDGET_PATHS.file, { config: { permission: 'public' } }, async (request, reply) => {
    const { channel, visitor, name } = request.params
    const kind = kindOfName(name)
    const valid =
      kind && siteModules(request.site).chat && /^[1-9][0-9]{0,9}$/.test(channel) && Number(channel) <= 2_147_483_647 && /^[0-9a-f-]{36}$/.test(visitor)
    let file = valid ? path.join(visitorDir(config.mediaDir, Number(channel), visitor), name) : null
    // Not an upload of the visitor: an agent's file of the visitor's conversation (the chat core keeps those).
    if (file && !(await isFile(file)) && request.site) {
      file = await conversations.attachmentPath({ siteId: request.site.id, channelId: Number(channel), visitorId: visitor }, name)
    }
    if (!kind || !file || !(await isFile(file))) throw detailError(404, 'notFound', request.lang)
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin')
    return sendStoredFile(reply, file, { type: kind.mime, filename: name, immutable: true })
  })

  // ---- the embed code, for the channel's settings (signed in)

  app.get<{ Params: { id: string } }>(WIDGET_PATHS.embed, { config: { permission: channels.permissions.view as RoutePermission } }, async (request) => {
    const id = /^[1-9][0-9]{0,9}$/.test(request.params.id) ? Number(request.params.id) : null
    const [row] =
      id !== null && id <= 2_147_483_647
        ? await db
            .select({ id: chatChannels.id })
            .from(chatChannels)
            .where(and(eq(chatChannels.id, id), eq(chatChannels.siteId, request.auth!.user.siteId), eq(chatChannels.type, 'webchat')))
        : []
    if (!row) throw detailError(404, 'notFound', request.lang)
    const token = keys.publicToken(row.id)
    const script = `${publicOrigin(request)}${WIDGET_PATHS.script}`
    const answer: WidgetEmbed = { token, script, snippet: `<script src="${script}" data-channel="${token}" async></script>` }
    return answer
  })

  // ---- the visitor socket

  app.get<{ Params: { token: string } }>(
    WIDGET_PATHS.socket,
    {
      websocket: true,
      config: { permission: 'public', socket: true },
      onRequest: async (request, reply) => {
        const channel = await channelFor(request as FastifyRequest<{ Params: { token: string } }>, reply)
        if (!sockets.roomFor(request.ip)) throw new HttpError(429, { detail: message('tooManyRequests', request.lang, { n: 60 }) }, { 'Retry-After': '60' })
        ;(request as FastifyRequest & { webchatChannel?: WebchatChannel }).webchatChannel = channel
      },
    },
    (socket, request) => {
      const channel = (request as FastifyRequest & { webchatChannel?: WebchatChannel }).webchatChannel!
      sockets.accept(socket, { channelId: channel.id, siteId: channel.siteId, origin: publicOrigin(request), address: request.ip, lang: request.lang })
    },
  )
}

async function widgetScript(): Promise<{ plain: Buffer; gzip: Buffer; br: Buffer; etag: string }> {
  const plain = await readFile(CLIENT_FILE)
  return {
    plain,
    gzip: gzipSync(plain, { level: 9 }),
    br: brotliCompressSync(plain),
    etag: `"${createHash('sha256').update(plain).digest('base64url').slice(0, 16)}"`,
  }
}

// `app.webchat` (the keys, the conversations, the sockets) is the app's: tests and the chat core reach the channel
// through it.
;(webchatRoutes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
