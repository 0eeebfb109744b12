import type { AddressInfo } from 'node:net'
import { createAuthCache } from '../../../server/auth/auth-cache.ts'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import fastifyCookie from '@fastify/cookie'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerErrorHandling } from '../../../server/http/errors.ts'
import { registerPermissionGuard } from '../../../server/http/permission-guard.ts'
import { defineSocket } from '../../../server/realtime/definition.ts'
import { socketHost } from '../../../server/realtime/host.ts'
import { businessSocket } from '../../../server/realtime/sockets/business.ts'
import { pushToUser } from '../../../server/bus/channels.ts'
import { useTestApp } from '../helper.ts'
import { FAST_TIMINGS, openSocket, refusal, sessionCookie } from './ws-helper.ts'

// A socket path is a definition the host serves (server/realtime/host.ts): here a made-up /ws/echo/ next to
// /ws/business/, on an app of their own over the test app's database and bus. The host alone authenticates, parses
// and limits; the path only says which frames it takes and what it does with them.

const ECHO_PATH = '/ws/echo/'
const echoSocket = defineSocket<{ action: 'echo'; text: string }>({
  path: ECHO_PATH,
  clientMessages: { echo: v.object({ action: v.literal('echo'), text: v.pipe(v.string(), v.maxLength(10)) }) },
  async open({ registry }) {
    return {
      async dispatch(connection, frame) {
        // Any server frame of the contract will do: the echo path answers with the text and how many sockets it holds.
        connection.send({ action: 'openUrl', url: `https://echo.example/${frame.text}/${registry.size}` })
      },
    }
  },
})

const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
let host: FastifyInstance
let base: string

beforeAll(async () => {
  host = Fastify({ logger: false })
  const authCache = await createAuthCache(t.database.db, t.bus)
  host.decorate('deps', { config: t.config, db: t.database.db, bus: t.bus, throttle: t.throttle, authCache, sendLimiter: t.sendLimiter })
  registerErrorHandling(host)
  await host.register(fastifyCookie)
  registerPermissionGuard(host, t.database.db, authCache)
  await host.register(socketHost, { sockets: [businessSocket, echoSocket] })
  await host.listen({ port: 0, host: '127.0.0.1' })
  base = `ws://127.0.0.1:${(host.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await host?.close()
})

describe('a second socket path', () => {
  it('is refused without credentials like every path of the host', async () => {
    expect(await refusal(base, { path: ECHO_PATH })).toBe(401)
  })

  it('dispatches its own frames, answers a bad payload with the error frame, ignores other actions', async () => {
    const cookie = await sessionCookie(t.app, 'agent1')
    const echo = await openSocket(base, { cookie, path: ECHO_PATH })
    echo.send({ action: 'echo', text: 'oi' })
    expect(await echo.next('openUrl')).toEqual({ action: 'openUrl', url: 'https://echo.example/oi/1' })
    echo.send({ action: 'echo', text: 'far too long a text' })
    expect((await echo.next('error')).errors).toHaveProperty('text')
    // The business socket's actions mean nothing here.
    echo.send({ action: 'ping' })
    echo.send({ action: 'echo', text: 'ok' })
    await echo.next('openUrl')
    expect(echo.has('pong')).toBe(false)
    echo.close()
  })

  it('keeps each path to its own sockets: a frame for the user over the bus reaches /ws/business/ only', async () => {
    const cookie = await sessionCookie(t.app, 'agent2')
    const business = await openSocket(base, { cookie })
    const echo = await openSocket(base, { cookie, path: ECHO_PATH })
    const site = (await t.database.db.query.users.findFirst({ where: (u, { eq }) => eq(u.username, 'agent2') }))!
    await pushToUser(t.bus, { siteId: site.siteId, userId: site.id }, { action: 'refresh' })
    await business.next('refresh')
    echo.send({ action: 'echo', text: 'after' })
    await echo.next('openUrl')
    expect(echo.has('refresh')).toBe(false)
    business.close()
    echo.close()
  })
})
