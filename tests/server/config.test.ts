import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT, loadConfig, parseTrustProxy } from '../../server/config.ts'

describe('config', () => {
  it('has safe defaults: port 8080 on all interfaces, PGlite in ./data, no Redis, no proxy trust', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.join(REPO_ROOT, 'data'),
      pgliteDir: path.join(REPO_ROOT, 'data', 'pgdata'),
      mediaDir: path.join(REPO_ROOT, 'data', 'media'),
      databaseUrl: undefined,
      redisUrl: undefined,
      production: false,
      trustProxy: false,
    })
  })

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/srv/atende',
      DATABASE_URL: 'postgres://db/atende',
      REDIS_URL: 'redis://cache:6379',
      TRUST_PROXY: '1',
    })
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      pgliteDir: '/srv/atende/pgdata',
      databaseUrl: 'postgres://db/atende',
      redisUrl: 'redis://cache:6379',
      trustProxy: 1,
    })
  })

  it('refuses a PORT that is not a port', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/)
  })

  it('understands TRUST_PROXY as off, on, a hop count or a list of addresses', () => {
    expect(parseTrustProxy(undefined)).toBe(false)
    expect(parseTrustProxy('false')).toBe(false)
    expect(parseTrustProxy('true')).toBe(true)
    expect(parseTrustProxy('2')).toBe(2)
    expect(parseTrustProxy('10.0.0.0/8,127.0.0.1')).toBe('10.0.0.0/8,127.0.0.1')
  })

  it('reads the request limits, 0 turning one off, and refuses what is not a whole number', () => {
    expect(loadConfig({}).limits).toEqual({ requestTimeoutMs: 120_000, maxEventLoopDelayMs: 0, maxWritesInFlight: 64 })
    const limits = loadConfig({ REQUEST_TIMEOUT_MS: '30000', MAX_EVENT_LOOP_DELAY_MS: '500', MAX_WRITES_IN_FLIGHT: '0' }).limits
    expect(limits).toEqual({ requestTimeoutMs: 30_000, maxEventLoopDelayMs: 500, maxWritesInFlight: 0 })
    expect(() => loadConfig({ MAX_WRITES_IN_FLIGHT: 'many' })).toThrow(/MAX_WRITES_IN_FLIGHT/)
  })
})
