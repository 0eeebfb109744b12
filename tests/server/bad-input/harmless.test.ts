import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { databaseRefusals } from '../../../server/http/errors.ts'
import { useEntitySuite } from '../entities/entity-helper.ts'
import type { Route, Sent } from './matrix.ts'
import { OVERFLOW, contractKeys, describeSent, entityNumericQueryKeys, fill, holdsInteger, overflowFor, routesOf, send, takesBody } from './matrix.ts'

// Issue 10 item 1, the other half of the matrix: values that are only sometimes wrong — numbers past the integer
// range, huge strings — in every query key of every route and in every field of every settings entity (a PATCH of
// one field of a real row, so nothing else stops it before the database). A text field may take "2147483648"; an
// integer column may not, and must answer 400 with the field's error. Nothing answers 5xx.
const s = useEntitySuite()

// The database's own refusal answers 400 too, but only as a backstop: every value must be stopped before it.
afterAll(() => expect(databaseRefusals()).toBe(0))

// One value per key and per field: every key of every route is the coverage that matters, and each request costs.
const QUERY_VALUES = ['2147483648', '99999999999999999999', '-2147483649', '1.5']

const isServerError = (sent: Sent) => sent.response.statusCode >= 500

describe('values past a column on every route', () => {
  it('in any query key answer 4xx or the normal page, never 5xx', async () => {
    const client = s.admin.client
    const keys = await contractKeys()
    const sent: Sent[] = []
    for (const route of routesOf(s.t.app).filter((r) => r.method === 'GET')) {
      const url = fill(route.url, '1')
      // A list's filters one by one (each reaches the database alone); other routes parse their query with one schema.
      if (route.entity && !route.detail) {
        for (const key of entityNumericQueryKeys(route.entity)) sent.push(await send(client, route, `?${key}=${OVERFLOW}`, `${url}?${key}=${OVERFLOW}`))
      }
      for (const value of QUERY_VALUES) {
        const query = keys.map((k) => `${k}=${value}`).join('&')
        sent.push(await send(client, route, `every key=${value}`, `${url}?${query}`))
      }
    }
    expect(sent.length).toBeGreaterThan(1000)
    expect(sent.filter(isServerError).map(describeSent)).toEqual([])
  }, 600_000)

  it('in any field of a settings row answer 400 where the column is an integer, never 5xx', async () => {
    const client = s.admin.client
    const sent: Sent[] = []
    const integerAccepted: Sent[] = []
    for (const route of routesOf(s.t.app).filter((r) => r.entity && r.detail && r.method === 'PATCH')) {
      const entity = route.entity!
      const url = fill(route.url, String(await s.admin.ensure(entity.key)))
      for (const field of entity.fields.filter((f) => f.storage !== 'none' && !f.readonly)) {
        const one = await send(client, route, `${field.name} past the range`, url, { payload: { [field.name]: overflowFor(field) } })
        sent.push(one)
        if (holdsInteger(field) && one.response.statusCode < 400) integerAccepted.push(one)
      }
    }
    expect(sent.length).toBeGreaterThan(400)
    expect(sent.filter(isServerError).map(describeSent)).toEqual([])
    expect(integerAccepted.map(describeSent)).toEqual([])
  }, 600_000)

  it('in generated bodies of the other routes answer 4xx or the normal answer, never 5xx', async () => {
    const client = s.admin.client
    const keys = await contractKeys()
    const value = fc.oneof(
      fc.constantFrom<unknown>(OVERFLOW, String(OVERFLOW), -OVERFLOW - 1, 1e308, '1.5', 'x'.repeat(100_000), [OVERFLOW], { id: OVERFLOW }),
      fc.integer(),
      fc.string(),
    )
    const failures: string[] = []
    // Logouts last: they end the administrator's session.
    const routes: Route[] = routesOf(s.t.app)
      .filter((r) => !r.entity && takesBody(r))
      .sort((a, b) => Number(a.url.includes('logout')) - Number(b.url.includes('logout')))
    for (const route of routes) {
      const url = fill(route.url, '1')
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }), async (body) => {
          const one = await send(client, route, JSON.stringify(body).slice(0, 120), url, { payload: body })
          if (isServerError(one)) failures.push(describeSent(one))
        }),
        { numRuns: 20 },
      )
    }
    expect(failures).toEqual([])
  }, 600_000)
})
