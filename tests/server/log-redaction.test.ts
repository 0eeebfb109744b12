import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { ha1 } from '../../server/entities/secrets.ts'
import { redactLogObject } from '../../server/http/logging.ts'
import { signedIn, useTestApp } from './helper.ts'

// Issue 10 item 2: secrets never reach the log. A failed insert of a SIP device used to log its bound parameters,
// the SIP secret and its HA1 among them, in plain text.
const t = useTestApp()

function logCollector() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })
  return { lines, stream }
}

describe('the log', () => {
  it('never holds the parameters of a failed insert: not the SIP secret, not its HA1', async () => {
    const { lines, stream } = logCollector()
    const app = await buildApp({ ...t.config, logLevel: 'info' }, { db: t.database.db, bus: t.bus, throttle: t.throttle, logStream: stream })
    try {
      // Every insert into the devices table now fails inside PostgreSQL, after validation passed.
      await t.database.db.execute(sql`ALTER TABLE pabx_devices ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`)
      const admin = await signedIn(app, 'admin')
      const secret = 'Sup3r-s3cret-SIP'
      const response = await admin.post('/api/v1/pabx/devices/', { description: 'Ramal vazado', username: '10077', secret })
      expect(response.statusCode).toBe(500)
      const failure = lines.find((line) => line.includes('unhandled error'))
      expect(failure).toBeDefined()
      expect(failure).toContain('refuse_all')
      expect(failure).toContain('params: [redacted]')
      const log = lines.join('\n')
      expect(log).not.toContain(secret)
      expect(log).not.toContain(ha1('10077', 'localhost', secret))
      expect(log).not.toContain('gestor2025')
    } finally {
      await t.database.db.execute(sql`ALTER TABLE pabx_devices DROP CONSTRAINT refuse_all`)
      await app.close()
    }
  })

  it('writes one access line per request, with its method, path, status and time, and no credential', async () => {
    const { lines, stream } = logCollector()
    const app = await buildApp({ ...t.config, logLevel: 'info' }, { db: t.database.db, bus: t.bus, throttle: t.throttle, logStream: stream })
    try {
      const admin = await signedIn(app, 'admin')
      const before = lines.length
      expect((await admin.get('/api/v1/business/profile/')).statusCode).toBe(200)
      const access = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(access).toHaveLength(1)
      expect(access[0]).toMatchObject({ method: 'GET', url: '/api/v1/business/profile/', statusCode: 200, msg: 'request' })
      expect(typeof access[0]!.ms).toBe('number')
      expect(lines.slice(before).join('\n')).not.toMatch(/sessionid|csrftoken/i)
    } finally {
      await app.close()
    }
  })

  it('replaces secret fields at any depth and the values a violated key quotes', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "u"'), {
      code: '23505',
      detail: 'Key (site_id, username)=(1, 10001) already exists.',
      params: ['10001', 'topsecret'],
    })
    const line = JSON.stringify(redactLogObject({ err: error, body: { nested: { password: 'p4ss', secret: 's3c', auth_secret: 'a5' } } }))
    expect(line).not.toMatch(/topsecret|p4ss|s3c|a5|10001/)
    expect(line).toContain('already exists')
    expect(line).toContain('23505')
  })
})
