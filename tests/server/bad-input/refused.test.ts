import { afterAll, describe, expect, it } from 'vitest'
import { databaseRefusals } from '../../../server/http/errors.ts'
import { TestClient } from '../helper.ts'
import { useEntitySuite } from '../entities/entity-helper.ts'
import type { Route, Sent } from './matrix.ts'
import {
  NUL,
  badParams,
  changedTables,
  contractKeys,
  deepJson,
  describeSent,
  entityQueryKeys,
  fill,
  fingerprint,
  hasParams,
  malformedMultipart,
  readsMultipart,
  routesOf,
  send,
  takesBody,
} from './matrix.ts'

// Issue 10 item 1: the shapes a fuzzer sent to every route — NUL characters in paths, queries and bodies, ids past
// the integer range, JSON nested thousands deep, multipart bodies the parser cannot read — answer 4xx, never 5xx, and
// leave every table as it was. Sent as the demo administrator (every codename), so no permission check answers first.
const s = useEntitySuite()

// The database's own refusal answers 400 too, but only as a backstop: every value must be stopped before it.
afterAll(() => expect(databaseRefusals()).toBe(0))

const isClientError = (sent: Sent) => sent.response.statusCode >= 400 && sent.response.statusCode < 500
const isServerError = (sent: Sent) => sent.response.statusCode >= 500

const logoutsLast = (routes: Route[]) => [...routes].sort((a, b) => Number(a.url.includes('logout')) - Number(b.url.includes('logout')))

async function sendAll(routes: Route[], build: (route: Route) => Promise<Sent[]>): Promise<Sent[]> {
  const sent: Sent[] = []
  for (const route of routes) sent.push(...(await build(route)))
  return sent
}

describe('a NUL character', () => {
  it('in the sign-in of a stranger answers 400 with the field error, before any password work', async () => {
    const stranger = new TestClient(s.t.app)
    for (const path of ['/api/auth/login/', '/api/session/login/']) {
      const response = await stranger.post(path, { username: 'ad\u0000min', password: 'x' })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ username: ['Caracteres nulos não são permitidos.'] })
    }
  })

  it('in a search, a filter or a settings field answers that field, in the caller language', async () => {
    const client = s.admin.client
    const search = await client.get('/api/v1/service/pauses/?search=a%00b&description=x%00', { headers: { 'accept-language': 'en-US' } })
    expect(search.statusCode).toBe(400)
    expect(search.json()).toEqual({ search: ['Null characters are not allowed.'], description: ['Null characters are not allowed.'] })
    const body = await client.post('/api/v1/service/pauses/', { description: 'Almo\u0000ço' })
    expect(body.json()).toEqual({ description: ['Caracteres nulos não são permitidos.'] })
    const lone = await client.post('/api/v1/service/pauses/', { description: 'x\ud800' })
    expect(lone.json()).toEqual({ description: ['Valor inválido'] })
  })
})

describe('an integer past its column', () => {
  it('in a filter, a reference or a number field answers 400 with the field error', async () => {
    const client = s.admin.client
    const filter = await client.get('/api/v1/service/pauses/?maximum_duration=99999999999')
    expect(filter.statusCode).toBe(400)
    expect(filter.json()).toEqual({ maximum_duration: ['Valor inválido'] })
    expect((await client.get('/api/v1/service/pauses/?maximum_duration__gte=1.5')).statusCode).toBe(400)
    const id = await s.admin.ensure('service.pauses')
    const number = await client.patch(`/api/v1/service/pauses/${id}/`, { maximum_duration: 2_147_483_648 })
    expect(number.statusCode).toBe(400)
    expect(number.json()).toEqual({ maximum_duration: ['Este valor é maior do que o máximo permitido que é 2147483647'] })
    const reference = await client.get('/api/v1/service/sub-classifications/?classification_id=2147483648')
    expect(reference.json()).toEqual({ classification_id: ['Valor inválido'] })
  })
})

// Last: its final requests sign the administrator out.
describe('bad input on every route', () => {
  it('is refused with 4xx (never 5xx) and changes nothing', async () => {
    const client = s.admin.client
    const routes = routesOf(s.t.app)
    expect(routes.length).toBeGreaterThan(300)
    const keys = await contractKeys()
    const keysOf = (route: Route) => (route.entity ? entityQueryKeys(route.entity) : keys)
    const before = await fingerprint(s.t.database.db)

    // Must be refused: a NUL anywhere, a nesting no form has, a multipart body no parser reads.
    const refused = await sendAll(routes, async (route) => {
      const url = fill(route.url, '1')
      const out: Sent[] = []
      if (hasParams(route)) out.push(await send(client, route, 'NUL in the path', fill(route.url, '%00')))
      const query = keysOf(route)
        .map((k) => `${k}=${encodeURIComponent(NUL)}`)
        .join('&')
      out.push(await send(client, route, 'NUL in the query', `${url}?${query}`))
      if (!takesBody(route)) return out
      out.push(await send(client, route, 'NUL in the body', url, { payload: Object.fromEntries(keysOf(route).map((k) => [k, NUL])) }))
      out.push(await send(client, route, 'NUL in a nested key', url, { payload: { params: { [NUL]: 1 } } }))
      for (const [i, deep] of deepJson(5000).entries()) {
        out.push(await send(client, route, `JSON 5000 deep #${i}`, url, { payload: deep, headers: { 'content-type': 'application/json' } }))
      }
      if (readsMultipart(route)) {
        for (const bad of [...malformedMultipart().filter((m) => m.refused), ...(route.entity ? badParams() : [])]) {
          out.push(await send(client, route, `multipart: ${bad.name}`, url, { payload: bad.payload, headers: { 'content-type': bad.contentType } }))
        }
      }
      return out
    })
    // Harmless or refused, never a server error: ids past the integer range and other odd path values.
    const odd = await sendAll(routes.filter(hasParams), async (route) => {
      const out: Sent[] = []
      for (const value of ['2147483648', '99999999999999999999', '-1', '1.5', '0x10', 'x'.repeat(2000)]) {
        out.push(await send(client, route, `path ${value.slice(0, 20)}`, fill(route.url, value)))
      }
      return out
    })

    expect(refused.filter((sent) => !isClientError(sent)).map(describeSent)).toEqual([])
    expect(refused.length).toBeGreaterThan(1000)
    expect(odd.filter(isServerError).map(describeSent)).toEqual([])
    expect(odd.filter((sent) => sent.response.statusCode < 400 && sent.route.method !== 'GET').map(describeSent)).toEqual([])
    expect(changedTables(before, await fingerprint(s.t.database.db))).toEqual([])

    // Multipart bodies elsewhere, or ones the parser skips: whatever the route makes of them (a PATCH of nothing, a
    // logout: those last), never a server error.
    const multipart = await sendAll(logoutsLast(routes.filter(takesBody)), async (route) => {
      const out: Sent[] = []
      for (const bad of malformedMultipart().filter((m) => !readsMultipart(route) || !m.refused)) {
        out.push(
          await send(client, route, `multipart: ${bad.name}`, fill(route.url, '1'), { payload: bad.payload, headers: { 'content-type': bad.contentType } }),
        )
      }
      return out
    })
    expect(multipart.filter(isServerError).map(describeSent)).toEqual([])
  }, 600_000)
})
