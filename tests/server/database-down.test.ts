import net from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import type { Database } from '../../server/db/client.ts'
import { openDatabase } from '../../server/db/client.ts'
import { seedDemoIfEmpty } from '../../server/seed/demo-seed.ts'
import { TestClient, createTestBus, createTestThrottle, openTestDatabase, signedIn } from './helper.ts'

// Issue 10 item 1: while the database is down a request answers 503 with Retry-After (the client may retry), not
// 500. On PostgreSQL the app reaches the database through a TCP relay the test cuts and restores; on PGlite the
// embedded database is closed under the app.

/** A TCP relay to `target` that can drop every connection and refuse new ones, then listen again on its port. */
async function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>()
  let server: net.Server
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on('close', () => sockets.delete(s))
          s.on('error', () => {})
        }
        client.pipe(upstream).pipe(client)
      })
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))
    })
  const port = await listen(0)
  return {
    port,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      })
    },
    restore: () => listen(port),
  }
}

const cleanups: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
})

async function appOver(db: Database['db']): Promise<FastifyInstance> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atende-down-'))
  const bus = await createTestBus()
  const throttle = await createTestThrottle()
  const app = await buildApp({ ...loadConfig({ DATA_DIR: dataDir }), spaDir: path.join(dataDir, 'dist') }, { db, bus, throttle, logger: false })
  cleanups.push(
    () => rm(dataDir, { recursive: true, force: true }),
    () => throttle.close(),
    () => bus.close(),
    () => app.close(),
  )
  return app
}

function expectUnavailable(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(response.statusCode).toBe(503)
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0)
  expect(response.json()).toEqual({ detail: 'Serviço temporariamente indisponível. Tente novamente em instantes.' })
}

describe('a database that is down', () => {
  it('answers 503 with Retry-After, signed in or not, and serves again once it is back', async () => {
    const database = await openTestDatabase()
    cleanups.push(() => database.close())
    await seedDemoIfEmpty(database.db, { port: 8080, mediaDir: os.tmpdir() })
    if (database.url) {
      const target = new URL(database.url)
      const cable = await relay({ host: target.hostname, port: Number(target.port || 5432) })
      const viaRelay = new URL(database.url)
      viaRelay.host = `127.0.0.1:${cable.port}`
      const pool = await openDatabase({ databaseUrl: viaRelay.toString() })
      cleanups.push(() => pool.close())
      const app = await appOver(pool.db)
      const admin = await signedIn(app, 'admin')
      expect((await admin.get('/api/v1/business/profile/')).statusCode).toBe(200)

      await cable.cut()
      expectUnavailable(await admin.get('/api/v1/business/profile/'))
      expectUnavailable(await admin.get('/api/v1/service/pauses/'))
      expectUnavailable(await new TestClient(app).post('/api/auth/login/', { username: 'admin', password: 'gestor2025' }))

      await cable.restore()
      expect((await admin.get('/api/v1/business/profile/')).statusCode).toBe(200)
    } else {
      const app = await appOver(database.db)
      const admin = await signedIn(app, 'admin')
      expect((await admin.get('/api/v1/business/profile/')).statusCode).toBe(200)
      await database.close()
      expectUnavailable(await admin.get('/api/v1/business/profile/'))
      expectUnavailable(await new TestClient(app).post('/api/auth/login/', { username: 'admin', password: 'gestor2025' }))
    }
  }, 120_000)
})
