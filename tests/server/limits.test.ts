import net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import type { HttpLimits } from '../../server/config.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'

// Issue 10 item 5: no request can stall the server. A large anonymous body is refused from its headers, a body that
// stops arriving is cut, and a saturated server (event loop lagging, too many writes at once) answers 503 with
// Retry-After at once instead of queueing.
const t = useTestApp()
const listening: FastifyInstance[] = []
afterAll(async () => {
  for (const app of listening) await app.close()
})

async function variant(limits: Partial<HttpLimits>): Promise<FastifyInstance> {
  return t.buildVariant({ limits: { ...t.config.limits, ...limits } })
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  listening.push(app)
  return (app.server.address() as net.AddressInfo).port
}

/** Sends raw request bytes and resolves with what the server answered when it closed the connection or answered. */
function raw(port: number, text: string): Promise<{ answer: string; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    socket.on('error', () => {})
    socket.on('data', (chunk) => {
      answer += String(chunk)
      if (answer.includes('\r\n\r\n')) resolve({ answer, closed })
    })
    socket.on('close', () => resolve({ answer, closed }))
    socket.write(text)
  })
}

/** Polls every 10 ms: spinning on setImmediate kept a loaded machine's CPU busy and the lag it waits out from ending. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe('request limits', () => {
  it('refuse a sign-in body over 16 KiB from its Content-Length, before the body is sent', async () => {
    const port = await listen(await variant({}))
    // Only the headers go out: the answer must not wait for the megabyte they announce.
    const { answer } = await raw(port, 'POST /api/auth/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1.1 413/)
    const padded = await new TestClient(t.app).post('/api/auth/login/', { username: 'admin', password: 'gestor2025', pad: 'x'.repeat(20_000) })
    expect(padded.statusCode).toBe(413)
    expect((await new TestClient(t.app).post('/api/auth/login/', { username: 'admin', password: 'gestor2025' })).statusCode).toBe(200)
    // A route that needs a sign-in refuses a stranger before reading the body.
    expect((await new TestClient(t.app).post('/api/v1/service/pauses/', { description: 'x'.repeat(500_000) })).statusCode).toBe(401)
  })

  it('cut a body that stops arriving, while other requests are served', async () => {
    const port = await listen(await variant({ requestTimeoutMs: 300 }))
    const stalled = await raw(port, 'POST /api/auth/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user')
    expect(stalled.answer).toMatch(/^HTTP\/1.1 408/)
    await stalled.closed
    const fine = await fetch(`http://127.0.0.1:${port}/api/pre-session/`)
    expect(fine.status).toBe(200)
  })

  it('answer 503 with Retry-After while the event loop lags, and serve again once it catches up', async () => {
    // The threshold stands far above what a loaded test machine lags by itself (so 'catches up' does not depend on the
    // machine going quiet), and the lag is sampled every 50 ms so one long stall is seen: a window holds about six
    // samples of the lag, so a 2.5 s stall makes its mean about 400 ms, past the 300 ms threshold.
    const app = await variant({ maxEventLoopDelayMs: 300, eventLoopSampleMs: 50 })
    await app.ready()
    let answer = 0
    let retryAfter: unknown
    // The window that holds the stall flags the server until the next sample clears it, so a request checked after
    // that is tried again with another stall.
    for (let attempt = 0; attempt < 5 && answer !== 503; attempt++) {
      const end = performance.now() + 2500
      while (performance.now() < end);
      await until(() => app.isUnderPressure())
      const response = await app.inject({ method: 'GET', url: '/api/pre-session/', headers: { host: 'localhost' } })
      answer = response.statusCode
      retryAfter = response.headers['retry-after']
      if (answer === 503) expect(response.json()).toEqual({ detail: 'Serviço temporariamente indisponível. Tente novamente em instantes.' })
    }
    expect(answer).toBe(503)
    expect(Number(retryAfter)).toBeGreaterThan(0)
    await until(() => !app.isUnderPressure())
    expect((await app.inject({ method: 'GET', url: '/api/pre-session/', headers: { host: 'localhost' } })).statusCode).toBe(200)
  })

  it('answer 503 to a write while the writes being handled are at the limit; reads go on', async () => {
    const app = await variant({ maxWritesInFlight: 1 })
    let release = () => {}
    let entered = false
    app.post('/api/test/hold/', { config: { permission: 'public' } }, async () => {
      entered = true
      await new Promise<void>((resolve) => (release = resolve))
      return { held: true }
    })
    await app.ready()
    const held = app.inject({ method: 'POST', url: '/api/test/hold/', headers: { host: 'localhost' } })
    await until(() => entered)
    const refused = await app.inject({ method: 'POST', url: '/api/test/hold/', headers: { host: 'localhost' } })
    expect(refused.statusCode).toBe(503)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.get('/api/v1/service/pauses/')).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/api/pre-session/', headers: { host: 'localhost' } })).statusCode).toBe(200)
    release()
    expect((await held).statusCode).toBe(200)
    entered = false
    const again = app.inject({ method: 'POST', url: '/api/test/hold/', headers: { host: 'localhost' } })
    await until(() => entered)
    release()
    expect((await again).statusCode).toBe(200)
  })
})
