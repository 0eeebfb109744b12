import path from 'node:path'
import { fileURLToPath } from 'node:url'

// Everything the server reads from the environment, parsed once with safe defaults so `npm start` works on a fresh
// machine: PGlite in DATA_DIR, an in-process bus and in-memory throttling.
export type TrustProxy = boolean | number | string

export type Config = {
  port: number
  host: string
  dataDir: string
  /** PostgreSQL when set; otherwise PGlite in `pgliteDir`. */
  databaseUrl: string | undefined
  pgliteDir: string
  /** Redis bus and throttle counters when set; otherwise in-process. */
  redisUrl: string | undefined
  production: boolean
  /** Fastify's trustProxy: only then are X-Forwarded-For/-Proto/-Host honoured. */
  trustProxy: TrustProxy
  mediaDir: string
  /** The demo's prompts (DEMO_SOUNDS): spoken by espeak-ng in three languages with a sox music class, or tones (quicker). */
  demoSounds: 'spoken' | 'tones'
  /** The built SPA (dist/). */
  spaDir: string
  logLevel: string
  /** Origins besides the request's own host allowed to open websockets (WS_ALLOWED_ORIGINS, comma-separated). */
  wsAllowedOrigins: string[]
  /** Timings of the websocket host (server/realtime/host.ts); tests shorten them. */
  realtime: RealtimeTimings
  /** The SIP and media engines (server/telephony/). */
  telephony: TelephonyConfig
  /** What one request may cost the server (server/http/limits.ts). */
  limits: HttpLimits
  /** The website chat widget (server/channels/webchat/). */
  webchat: WebchatConfig
  /** The WhatsApp Cloud API simulator started for the demo (simulator/whatsapp/, server/seed/demo-simulator.ts). */
  whatsappSimulator: WhatsappSimulatorConfig
}

export type WebchatConfig = {
  /** SECRET_KEY: signs the widgets' embed tokens and visitor sessions; unset → a random one kept in DATA_DIR/secret-key. */
  secretKey: string | undefined
  /** Largest file a visitor may attach (WEBCHAT_MAX_UPLOAD_MB, default 10). */
  maxUploadBytes: number
  /** Token buckets (per instance): sessions per address, messages per visitor and per address. */
  limits: {
    sessionsPerAddress: { burst: number; perSecond: number }
    messagesPerVisitor: { burst: number; perSecond: number }
    messagesPerAddress: { burst: number; perSecond: number }
  }
}

/**
 * `demo` (the default outside production): `npm start` runs the simulator on loopback as a child of the server when a
 * WhatsApp channel's Graph address points at it (the demo's does); `off`: never.
 */
export type WhatsappSimulatorConfig = { mode: 'demo' | 'off'; host: string; port: number }

/** 0 turns a limit off. */
export type HttpLimits = {
  /** A request whose headers and body have not all arrived after this long is cut (408): a stalled body. */
  requestTimeoutMs: number
  /** While the event loop lags more than this, requests answer 503 with Retry-After (off under vitest). */
  maxEventLoopDelayMs: number
  /**
   * How often the lag is sampled (its mean over the window is compared); by default as often as the threshold, capped
   * at a second. A shorter window sees one long stall sooner, which a test needs to stay clear of a loaded machine's lag.
   */
  eventLoopSampleMs?: number
  /** Writes (POST/PUT/PATCH/DELETE) being handled at once above this answer 503 instead of queueing. */
  maxWritesInFlight: number
}

/**
 * `embedded`: spawn Kamailio and rtpengine (when their binaries exist) and supervise them; `external`: connect to
 * engines already running at these addresses; `off`: no telephony (the default under vitest).
 */
export type TelephonyMode = 'embedded' | 'external' | 'off'

export type TelephonyConfig = {
  mode: TelephonyMode
  /** Where the engines listen (loopback: only this server talks to them; browsers come through /ws/sip). */
  host: string
  sipPort: number
  sipWsPort: number
  evapiPort: number
  rtpengineNgPort: number
  rtpPortMin: number
  rtpPortMax: number
  dtmfLogPort: number
  /** The media app (server/media/app/): its SIP UDP port (Kamailio routes media destinations there) and control port. */
  mediaSipPort: number
  mediaControlPort: number
  /** Generated configs, pid files and recordings: `$DATA_DIR/telephony`. */
  dir: string
  kamailioBin: string
  rtpengineBin: string
  /** SIP edge defence: seconds an address stays banned, failed digests before a ban, pike's requests per 2 s. */
  banSeconds: number
  authFailLimit: number
  floodRequests: number
  /** Kamailio's shared memory in MB (SIP_SHM_MB): registrations, dialogs, transactions and every connection live there. */
  shmMb: number
  /** Seconds a TCP/WebSocket connection may stay idle before Kamailio closes it (a registered one lives as long as its registration). */
  tcpIdleSeconds: number
  /** TCP connections carrying SIP from one address (trunks exempt). */
  tcpPerAddress: number
  /** Webphone websockets (/ws/sip) per signed-in user and per browser address. */
  wsPerUser: number
  wsPerAddress: number
  /** A dialog with no request for this long ends (s); in-dialog keepalives every `dialogKeepaliveSeconds` (≥ 30) end dead ones sooner. */
  dialogTimeoutSeconds: number
  dialogKeepaliveSeconds: number
  /** Media lines (`m=`) one call may offer. */
  maxMediaLines: number
  /** How often open call records are checked against Kamailio's live dialogs (s). */
  reconcileSeconds: number
}

export type RealtimeTimings = {
  /** How long a login waits for other server instances to say whether one of their connections serves. */
  probeMs: number
  /** After the serving connection closes, how long a reload has to claim the service back before another is promoted. */
  vacancyGraceMs: number
  /** How often the server sends serverPing. */
  serverPingMs: number
  /** A connection silent this long is dropped (clients ping every 5 s). */
  idleMs: number
  /** How often open sockets' sessions, tokens and users are checked again (expiry, disabled users). */
  sweepMs: number
  /** The supervisor wallboard (server/realtime/wallboard/): least time between two reads of a site, and the refresh. */
  wallboardCoalesceMs: number
  wallboardRefreshMs: number
}

export const DEFAULT_REALTIME_TIMINGS: RealtimeTimings = {
  wallboardCoalesceMs: 250,
  wallboardRefreshMs: 1000,
  probeMs: 150,
  vacancyGraceMs: 5000,
  serverPingMs: 25_000,
  idleMs: 60_000,
  sweepMs: 15_000,
}

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || path.join(REPO_ROOT, 'data'))
  return {
    port: parsePort(env.PORT),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: path.join(dataDir, 'pgdata'),
    redisUrl: env.REDIS_URL || undefined,
    production: env.ATENDE_ENV === 'production' || env.NODE_ENV === 'production',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    mediaDir: path.join(dataDir, 'media'),
    demoSounds: env.DEMO_SOUNDS === 'tones' ? 'tones' : 'spoken',
    spaDir: path.join(REPO_ROOT, 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
    wsAllowedOrigins: parseOrigins(env.WS_ALLOWED_ORIGINS),
    realtime: { ...DEFAULT_REALTIME_TIMINGS },
    telephony: loadTelephonyConfig(env, dataDir),
    limits: {
      requestTimeoutMs: count('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 120_000),
      // A test run's event loop lags whenever PGlite starts; thresholds there would only make tests flaky.
      maxEventLoopDelayMs: count('MAX_EVENT_LOOP_DELAY_MS', env.MAX_EVENT_LOOP_DELAY_MS, process.env.VITEST ? 0 : 1000),
      maxWritesInFlight: count('MAX_WRITES_IN_FLIGHT', env.MAX_WRITES_IN_FLIGHT, 64),
    },
    webchat: {
      secretKey: env.SECRET_KEY || undefined,
      maxUploadBytes: count('WEBCHAT_MAX_UPLOAD_MB', env.WEBCHAT_MAX_UPLOAD_MB, 10) * 1024 * 1024,
      limits: {
        sessionsPerAddress: { burst: 5, perSecond: 5 / 60 },
        messagesPerVisitor: { burst: 10, perSecond: 1 },
        messagesPerAddress: { burst: 60, perSecond: 5 },
      },
    },
    whatsappSimulator: loadWhatsappSimulatorConfig(env),
  }
}

export function loadWhatsappSimulatorConfig(env: NodeJS.ProcessEnv): WhatsappSimulatorConfig {
  const mode = (env.WA_SIMULATOR || 'demo').trim()
  if (mode !== 'demo' && mode !== 'off') throw new Error(`WA_SIMULATOR must be demo or off, got ${mode}`)
  return { mode, host: '127.0.0.1', port: parsePortVariable('WA_SIM_PORT', env.WA_SIM_PORT, 8091) }
}

function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (0 turns it off), got ${value}`)
  return n
}

export function loadTelephonyConfig(env: NodeJS.ProcessEnv, dataDir: string): TelephonyConfig {
  const mode = (env.TELEPHONY || (process.env.VITEST ? 'off' : 'embedded')).trim()
  if (mode !== 'embedded' && mode !== 'external' && mode !== 'off') {
    throw new Error(`TELEPHONY must be embedded, external or off, got ${mode}`)
  }
  const port = (name: string, fallback: number) => parsePortVariable(name, env[name], fallback)
  const positive = (name: string, fallback: number) => {
    const value = env[name]
    if (value === undefined || value === '') return fallback
    const n = Number(value)
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got ${value}`)
    return n
  }
  const telephony: TelephonyConfig = {
    mode,
    host: env.TELEPHONY_HOST || '127.0.0.1',
    sipPort: port('SIP_PORT', 5060),
    sipWsPort: port('SIP_WS_PORT', 8088),
    evapiPort: port('EVAPI_PORT', 8448),
    rtpengineNgPort: port('RTPENGINE_NG_PORT', 2223),
    rtpPortMin: port('RTP_PORT_MIN', 30000),
    rtpPortMax: port('RTP_PORT_MAX', 30999),
    dtmfLogPort: port('DTMF_LOG_PORT', 9999),
    mediaSipPort: port('MEDIA_SIP_PORT', 5090),
    mediaControlPort: port('MEDIA_CONTROL_PORT', 8449),
    dir: path.join(dataDir, 'telephony'),
    kamailioBin: env.KAMAILIO_BIN || 'kamailio',
    rtpengineBin: env.RTPENGINE_BIN || 'rtpengine',
    banSeconds: Number(env.SIP_BAN_SECONDS || 300),
    authFailLimit: Number(env.SIP_AUTH_FAIL_LIMIT || 5),
    floodRequests: Number(env.SIP_FLOOD_REQUESTS || 60),
    shmMb: positive('SIP_SHM_MB', 256),
    tcpIdleSeconds: positive('SIP_TCP_IDLE_SECONDS', 30),
    tcpPerAddress: positive('SIP_TCP_PER_ADDRESS', 32),
    wsPerUser: positive('SIP_WS_PER_USER', 4),
    wsPerAddress: positive('SIP_WS_PER_ADDRESS', 300),
    dialogTimeoutSeconds: positive('SIP_DIALOG_TIMEOUT', 43200),
    dialogKeepaliveSeconds: Math.max(30, positive('SIP_DIALOG_KEEPALIVE', 30)),
    maxMediaLines: positive('SIP_MAX_MEDIA_LINES', 4),
    reconcileSeconds: positive('SIP_RECONCILE_SECONDS', 30),
  }
  if (telephony.rtpPortMin > telephony.rtpPortMax) throw new Error('RTP_PORT_MIN must not be above RTP_PORT_MAX')
  return telephony
}

function parsePortVariable(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name} must be a port number, got ${value}`)
  return port
}

function parsePort(value: string | undefined): number {
  const port = Number(value || 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${value}`)
  return port
}

/** 'true' trusts every hop, a number trusts that many hops, anything else is a list of addresses/CIDRs. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim()
  if (text === '' || text === 'false' || text === '0') return false
  if (text === 'true' || text === 'yes') return true
  if (/^\d+$/.test(text)) return Number(text)
  return text
}

/** `https://a.example, https://b.example:8443` → normalised origins (scheme://host[:port], lower case). */
export function parseOrigins(value: string | undefined): string[] {
  const origins: string[] = []
  for (const item of (value ?? '').split(',')) {
    const text = item.trim()
    if (!text) continue
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new Error(`WS_ALLOWED_ORIGINS must list origins such as https://app.example.com, got ${text}`)
    }
    origins.push(url.origin)
  }
  return origins
}
