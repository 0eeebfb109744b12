import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import fastifyCookie from '@fastify/cookie'
import fastifyMultipart from '@fastify/multipart'
import type { Config } from './config.ts'
import type { AppDeps } from './deps.ts'
import { bindMediaLibrary } from './media/library.ts'
import { openDatabase } from './db/client.ts'
import { createBus } from './bus/bus.ts'
import { createThrottleStore } from './auth/throttle-store.ts'
import { createSendLimiter } from './chat/send-limiter.ts'
import { createAuthCache } from './auth/auth-cache.ts'
import { registerErrorHandling } from './http/errors.ts'
import { registerPermissionGuard } from './http/permission-guard.ts'
import { registerSecurityHeaders } from './http/security-headers.ts'
import { socketHost } from './realtime/host.ts'
import { SOCKETS } from './realtime/sockets/index.ts'
import { SIP_SOCKET_PATH, SIP_SUBPROTOCOL } from './telephony/sip-proxy.ts'
import { registerInputGuard } from './http/input-guard.ts'
import { acceptJsonAndMultipartOnly } from './http/json-body.ts'
import { limitPublicBodies, registerBackPressure, serverLimits } from './http/limits.ts'
import { OneLinePerRequest, loggerOptions } from './http/logging.ts'
import { apiRoutes } from './routes/api-routes.ts'
import { mediaRoutes } from './routes/media-routes.ts'
import { recordingRoutes } from './routes/recording-routes.ts'
import { settingsMediaRoutes } from './entities/index.ts'
import { spaRoutes } from './routes/spa-routes.ts'
import { webchatRoutes } from './channels/webchat/routes.ts'
import type { WebchatOptions } from './channels/webchat/routes.ts'
import { telephonyService } from './telephony/index.ts'
import { mediaService } from './media/app/service.ts'
import { dialerService } from './dialer/service.ts'
import type { DialerOptions } from './dialer/service.ts'
import { whatsappWebhookRoutes } from './channels/whatsapp/index.ts'
import { chatService } from './chat/service.ts'
import type { ChatServiceOptions } from './chat/service.ts'
import { chatCampaignService } from './chat/campaigns.ts'
import type { ChatCampaignOptions } from './chat/campaigns.ts'
// Each area's rules for its settings entities (password policy, telephony pushes, …).
import './entity-hooks.ts'
import type { TelephonyOptions } from './telephony/index.ts'

// Composition root: config → db → bus → auth → permission guard → routes → SPA static. Tests inject their own db (and
// may inject the bus or throttle store); whatever this function opens itself, it closes with the app.
export type AppOverrides = Partial<Pick<AppDeps, 'db' | 'bus' | 'throttle' | 'sendLimiter'>> & {
  logger?: boolean
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream
  /** Telephony's call control and trunk resolution (tests); whether engines run is config.telephony.mode. */
  telephony?: TelephonyOptions
  /** The website chat's conversations: the chat core by default (tests of the channel alone use `memory`). */
  webchat?: WebchatOptions
  /** The chat engine's background work (tests may run a dispatcher by hand). */
  chat?: ChatServiceOptions
  /** The dialer's originator and runner (tests: a fake carrier). */
  dialer?: DialerOptions
  /** WhatsApp template campaigns' sender (tests may drive its rounds by hand). */
  chatCampaigns?: ChatCampaignOptions
}

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const owned: (() => Promise<void>)[] = []
  const closeOwned = async () => {
    for (const close of owned.reverse()) await close()
  }
  try {
    const deps = await openDeps(config, overrides, owned)
    const app = Fastify({
      logger: overrides.logger === false ? false : loggerOptions(config.logLevel, overrides.logStream),
      // Fastify (proxy-addr) takes a hop count too; its typings only list boolean and addresses.
      trustProxy: config.trustProxy as boolean | string,
      ...serverLimits(config.limits),
      logController: new OneLinePerRequest(),
    })
    app.decorate('deps', deps)
    // The sound library the media app plays from reads its files from this server's media folder.
    bindMediaLibrary(deps.db, config.mediaDir)
    app.addHook('onClose', closeOwned)

    registerErrorHandling(app)
    registerSecurityHeaders(app)
    // Before the permission guard: a saturated server answers 503 without touching the database.
    await registerBackPressure(app, config.limits)
    acceptJsonAndMultipartOnly(app)
    limitPublicBodies(app)
    await app.register(fastifyCookie)
    await app.register(fastifyMultipart)
    registerPermissionGuard(app, deps.db, deps.authCache)
    registerInputGuard(app)
    // Websockets (/ws/business/) before the other routes: the upgrade handling must see every route that follows.
    await app.register(socketHost, { sockets: SOCKETS, subprotocols: { [SIP_SOCKET_PATH]: SIP_SUBPROTOCOL } })
    // Kamailio + rtpengine (TELEPHONY=embedded|external|off), the evapi link, /ws/sip and the engines' status.
    await app.register(telephonyService, overrides.telephony ?? {})
    await app.register(mediaService)
    // The dialer: the campaign runner and its routes (their paths carry /api; server/dialer/).
    await app.register(dialerService, overrides.dialer ?? {})
    // The chat engine: outbox dispatcher, inactivity removal, webhook recovery, attachment routes (server/chat/).
    await app.register(chatService, overrides.chat ?? {})
    // WhatsApp template campaigns: the sender and its start/pause/stop/progress routes (server/chat/campaigns.ts).
    await app.register(chatCampaignService, overrides.chatCampaigns ?? {})

    await app.register(apiRoutes, { prefix: '/api' })
    // Public provider webhooks, outside /api (server/channels/whatsapp/).
    await app.register(whatsappWebhookRoutes)
    await app.register(mediaRoutes)
    await app.register(recordingRoutes)
    await app.register(settingsMediaRoutes)
    // The website chat widget: /widget.js, /widget-demo, /widget/... (public; server/channels/webchat/README.md).
    await app.register(webchatRoutes, overrides.webchat ?? {})
    await app.register(spaRoutes)
    return app
  } catch (error) {
    await closeOwned()
    throw error
  }
}

async function openDeps(config: Config, overrides: AppOverrides, owned: (() => Promise<void>)[]): Promise<AppDeps> {
  async function own<T extends { close(): Promise<void> }>(resource: Promise<T>): Promise<T> {
    const opened = await resource
    owned.push(() => opened.close())
    return opened
  }
  const db = overrides.db ?? (await own(openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir }))).db
  const bus = overrides.bus ?? (await own(createBus(config.redisUrl)))
  const throttle = overrides.throttle ?? (await own(createThrottleStore(config.redisUrl)))
  const sendLimiter = overrides.sendLimiter ?? (await own(createSendLimiter(config.redisUrl)))
  const authCache = await own(createAuthCache(db, bus))
  return { config, db, bus, throttle, authCache, sendLimiter }
}
