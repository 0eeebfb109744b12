import { afterAll, beforeAll } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import type { Bus } from '../../../server/bus/bus.ts'
import { createBus } from '../../../server/bus/bus.ts'
import { createThrottleStore } from '../../../server/auth/throttle-store.ts'
import type { ThrottleStore } from '../../../server/auth/throttle-store.ts'
import { seedDemoIfEmpty } from '../../../server/seed/demo-seed.ts'
import type { TestDatabase } from '../helper.ts'
import { openTestDatabase, testPrefix } from '../helper.ts'
import { FAST_TIMINGS, listen } from './ws-helper.ts'

// Two server instances on one database, each with its own bus connection: two Redis clients on one prefix when
// TEST_REDIS_URL is set (npm run test:pg), else one in-process bus object shared by both apps.
export type Instances = {
  a: FastifyInstance
  b: FastifyInstance
  baseA: string
  baseB: string
  database: TestDatabase
  redis: boolean
}

export function useTwoInstances(): Instances {
  const handle = {} as Instances
  const buses: Bus[] = []
  const throttles: ThrottleStore[] = []
  beforeAll(async () => {
    const url = process.env.TEST_REDIS_URL
    const prefix = testPrefix()
    handle.redis = !!url
    handle.database = await openTestDatabase()
    const shared = url ? null : await createBus(undefined)
    const config = { ...loadConfig({}), realtime: FAST_TIMINGS }
    const build = async () => {
      const bus = shared ?? (await createBus(url, prefix))
      if (!shared) buses.push(bus)
      const throttle = await createThrottleStore(url, prefix)
      throttles.push(throttle)
      const app = await buildApp(config, { db: handle.database.db, bus, throttle, logger: false })
      return app
    }
    if (shared) buses.push(shared)
    handle.a = await build()
    handle.b = await build()
    await seedDemoIfEmpty(handle.database.db, { port: 8080 })
    handle.baseA = await listen(handle.a)
    handle.baseB = await listen(handle.b)
  })
  afterAll(async () => {
    for (const app of [handle.a, handle.b]) await app?.close()
    for (const bus of buses) await bus.close()
    for (const throttle of throttles) await throttle.close()
    await handle.database?.close()
  })
  return handle
}
