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
  /** The built SPA (dist/). */
  spaDir: string
  logLevel: string
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
    spaDir: path.join(REPO_ROOT, 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
  }
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
