import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { buildApp } from '../../server/app.ts'
import type { AppOverrides } from '../../server/app.ts'
import type { Config } from '../../server/config.ts'
import { loadConfig } from '../../server/config.ts'
import type { Database } from '../../server/db/client.ts'
import { MIGRATIONS_DIR, openDatabase } from '../../server/db/client.ts'
import type { Bus } from '../../server/bus/bus.ts'
import { createBus } from '../../server/bus/bus.ts'
import type { ThrottleStore } from '../../server/auth/throttle-store.ts'
import { createThrottleStore } from '../../server/auth/throttle-store.ts'
import type { SendLimiter } from '../../server/chat/send-limiter.ts'
import { createSendLimiter } from '../../server/chat/send-limiter.ts'
import { seedDemoIfEmpty } from '../../server/seed/demo-seed.ts'
import { CSRF_COOKIE } from '../../contract/api/auth.ts'

// Builds the real app in process for one test file. The database is PGlite in memory by default; with
// TEST_DATABASE_URL it is a fresh PostgreSQL database (created here, dropped afterwards). With TEST_REDIS_URL the bus
// and throttle counters live in Redis under a prefix of their own. The same tests run every way.

/** A database for one test file; `url` is set when it is PostgreSQL (child processes can reach it). */
export type TestDatabase = Database & { url: string | undefined }

export async function openTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) return { ...(await openDatabase({ pgliteTemplate: await pgliteTemplate() })), url: undefined }
  const name = `atende_t_${randomBytes(6).toString('hex')}`
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ databaseUrl: url.toString() })
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close()
      await dropDatabase(adminUrl, name)
    },
  }
}

/**
 * pg's pool.end() resolves before its clients have disconnected; DROP ... WITH (FORCE) at that moment kills them and
 * their "terminating connection" error surfaces as an unhandled error. So wait for them to leave, FORCE only at last.
 */
async function dropDatabase(adminUrl: string, name: string) {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name}`)
      return
    } catch (error) {
      if ((error as { code?: string }).code !== '55006') throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
}

/**
 * A migrated, empty PGlite database as a data dump, made once per migration set and shared by the test files through
 * the temp directory: each file then starts from it instead of running initdb and every migration again.
 */
async function pgliteTemplate(): Promise<Blob> {
  const hash = createHash('sha256')
  for (const name of (await readdir(MIGRATIONS_DIR, { recursive: true })).sort()) {
    if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(await readFile(path.join(MIGRATIONS_DIR, name)))
  }
  const file = path.join(os.tmpdir(), `atende-pglite-${hash.digest('hex').slice(0, 16)}.tar`)
  try {
    return new Blob([await readFile(file)])
  } catch {
    const fresh = await openDatabase({})
    const { PGlite } = await import('@electric-sql/pglite')
    const client = (fresh.db as unknown as { $client: InstanceType<typeof PGlite> }).$client
    const dump = await client.dumpDataDir('none')
    await fresh.close()
    // Written aside and renamed: another worker never reads half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
    await rename(partial, file)
    return dump
  }
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

export function testPrefix(): string {
  return `atende:test:${randomBytes(6).toString('hex')}:`
}

export async function createTestBus(): Promise<Bus> {
  return createBus(process.env.TEST_REDIS_URL, testPrefix())
}

export async function createTestThrottle(): Promise<ThrottleStore> {
  return createThrottleStore(process.env.TEST_REDIS_URL, testPrefix())
}

/** The chat outbox's send limiter: in Redis under the test's own prefix with TEST_REDIS_URL, else in memory. */
export async function createTestSendLimiter(): Promise<SendLimiter> {
  return createSendLimiter(process.env.TEST_REDIS_URL, testPrefix())
}

export type TestApp = {
  app: FastifyInstance
  database: TestDatabase
  config: Config
  bus: Bus
  throttle: ThrottleStore
  sendLimiter: SendLimiter
  dataDir: string
  /** Another app on the same database and bus (for other settings, e.g. TRUST_PROXY); closed with the file. */
  buildVariant(config: Partial<Config>): Promise<FastifyInstance>
}

/**
 * Registers beforeAll/afterAll for a test file and returns the handle they fill. `seed` (default true) loads the
 * demo data: site localhost, groups, team and the users admin, supervisor, agent1 and agent2.
 */
export function useTestApp(
  options: { seed?: boolean; config?: Partial<Config>; overrides?: Omit<AppOverrides, 'db' | 'bus' | 'throttle' | 'sendLimiter'> } = {},
): TestApp {
  const handle = {} as TestApp
  const variants: FastifyInstance[] = []
  beforeAll(async () => {
    handle.dataDir = await mkdtemp(path.join(os.tmpdir(), 'atende-test-'))
    handle.config = { ...loadConfig({ DATA_DIR: handle.dataDir }), spaDir: path.join(handle.dataDir, 'dist'), ...options.config }
    handle.database = await openTestDatabase()
    handle.bus = await createTestBus()
    handle.throttle = await createTestThrottle()
    handle.sendLimiter = await createTestSendLimiter()
    const deps = {
      ...options.overrides,
      db: handle.database.db,
      bus: handle.bus,
      throttle: handle.throttle,
      sendLimiter: handle.sendLimiter,
      logger: false as const,
    }
    handle.app = await buildApp(handle.config, deps)
    handle.buildVariant = async (config) => {
      const variant = await buildApp({ ...handle.config, ...config }, deps)
      variants.push(variant)
      return variant
    }
    if (options.seed !== false) await seedDemoIfEmpty(handle.database.db, { port: 8080, mediaDir: handle.config.mediaDir })
  })
  afterAll(async () => {
    for (const app of [...variants, handle.app]) await app?.close()
    await handle.bus?.close()
    await handle.throttle?.close()
    await handle.sendLimiter?.close()
    await handle.database?.close()
    if (handle.dataDir) await rm(handle.dataDir, { recursive: true, force: true })
  })
  return handle
}

export const DEMO_PASSWORDS = { admin: 'gestor2025', supervisor: 'monitor2025', agent1: 'ramal1001', agent2: 'ramal1002' } as const

type RequestOptions = {
  headers?: Record<string, string>
  /** Send X-CSRFToken from the jar's csrftoken cookie (default true). */
  csrf?: boolean
  payload?: unknown
}

/**
 * A browser-like client over `inject`: keeps cookies, echoes the CSRF cookie, speaks to one Host from one address
 * (random by default, so throttle counters of different tests do not meet).
 */
export class TestClient {
  app: FastifyInstance
  host: string
  ip: string
  cookies = new Map<string, string>()

  constructor(app: FastifyInstance, options: { host?: string; ip?: string } = {}) {
    this.app = app
    this.host = options.host ?? 'localhost'
    this.ip = options.ip ?? randomIp()
  }

  async request(method: string, url: string, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { host: this.host, ...options.headers }
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const csrf = this.cookies.get(CSRF_COOKIE)
    if (options.csrf !== false && csrf && !('x-csrftoken' in headers)) headers['x-csrftoken'] = csrf
    const payload = options.payload
    const isRaw = typeof payload === 'string' || Buffer.isBuffer(payload)
    if (payload !== undefined && !isRaw && !headers['content-type']) headers['content-type'] = 'application/json'
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      headers,
      remoteAddress: this.ip,
      payload: payload === undefined ? undefined : isRaw ? (payload as string | Buffer) : JSON.stringify(payload),
    })
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now()) || cookie.value === ''
      if (expired) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
    return response
  }

  get(url: string, options?: RequestOptions) {
    return this.request('GET', url, options)
  }

  post(url: string, payload?: unknown, options?: RequestOptions) {
    return this.request('POST', url, { ...options, payload })
  }

  put(url: string, payload?: unknown, options?: RequestOptions) {
    return this.request('PUT', url, { ...options, payload })
  }

  patch(url: string, payload?: unknown, options?: RequestOptions) {
    return this.request('PATCH', url, { ...options, payload })
  }

  delete(url: string, options?: RequestOptions) {
    return this.request('DELETE', url, options)
  }

  /** The SPA's cookie sign-in: pre-session for the CSRF cookie, then login. */
  async login(username: string, password: string): Promise<LightMyRequestResponse> {
    await this.get('/api/pre-session/')
    return this.post('/api/session/login/', { username, password })
  }
}

export function randomIp(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1
  return `10.${byte()}.${byte()}.${byte()}`
}

/** A signed-in cookie client. */
export async function signedIn(app: FastifyInstance, username: keyof typeof DEMO_PASSWORDS, options?: { host?: string }): Promise<TestClient> {
  const client = new TestClient(app, options)
  const response = await client.login(username, DEMO_PASSWORDS[username])
  if (response.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${response.statusCode} ${response.body}`)
  return client
}

/** A multipart/form-data body with one file field. */
export function multipartFile(field: string, filename: string, contentType: string, data: Buffer, fields: Record<string, string> = {}) {
  const boundary = `----atende${randomBytes(8).toString('hex')}`
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}
