import { describe, expect, it } from 'vitest'
import { LOOKUPS } from '../../../server/entities/lookup-routes.ts'
import { TestClient } from '../helper.ts'
import { useEntitySuite } from './entity-helper.ts'

// The filters the spec's lookups send (queues by team and type, classifications by queue, sub-classifications by
// classification, children by parent), the /service/apps lookups, the permission list and the audit log — over the
// demo contact centre.
const s = useEntitySuite()

const ids = (body: { results: { id: number }[] }) => body.results.map((r) => r.id)
const get = async (path: string) => {
  const response = await s.admin.client.get(path)
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

describe('list filters', () => {
  it('find queues by team_id and queue_type, and default to -is_active, id', async () => {
    const all = await get('/api/v1/pabx/queues/')
    expect(all.results.map((q: { description: string }) => q.description)).toEqual(['Suporte', 'Vendas'])
    const sales = await get('/api/v1/service/teams/?search=Vendas')
    const salesQueues = await get(`/api/v1/pabx/queues/?team_id=${sales.results[0].id}&queue_type=inbound&limit=999999`)
    expect(salesQueues.results.map((q: { description: string }) => q.description)).toEqual(['Vendas'])
    expect((await get('/api/v1/pabx/queues/?queue_type=outbound')).count).toBe(0)
    expect((await get('/api/v1/chat/queues/?team_id=1')).results.map((q: { description: string }) => q.description)).toEqual(['Atendimento Chat'])
    await s.admin.client.patch(`/api/v1/pabx/queues/${all.results[0].id}/`, { is_active: false })
    expect((await get('/api/v1/pabx/queues/')).results.map((q: { description: string }) => q.description)).toEqual(['Vendas', 'Suporte'])
    expect((await get('/api/v1/pabx/queues/?is_active=true')).count).toBe(1)
    await s.admin.client.patch(`/api/v1/pabx/queues/${all.results[0].id}/`, { is_active: true })
  })

  it('follow the classification chain: queue → classifications → sub-classifications through unions', async () => {
    const support = (await get('/api/v1/pabx/queues/?search=Suporte')).results[0].id
    const classifications = await get(`/api/v1/service/classifications/?queue_id=${support}&limit=999999`)
    expect(classifications.results.map((c: { description: string }) => c.description)).toEqual(['Dúvida', 'Reclamação'])
    const doubt = classifications.results[0].id
    const subs = await get(`/api/v1/service/sub-classifications/?classification_id=${doubt}`)
    expect(subs.results.map((c: { description: string }) => c.description)).toEqual(['Resolvido', 'Não resolvido', 'Retornar depois'])
    expect((await s.admin.client.get('/api/v1/service/sub-classifications/?classification_id=x')).statusCode).toBe(400)
  })

  it('list children under their parent, and take __in, exclude_id and ordering', async () => {
    const route = (await get('/api/v1/pabx/outbound-routes/')).results[0]
    const trunks = await get(`/api/v1/pabx/outbound-route-trunks/?outbound_route=${route.id}`)
    expect(trunks.results).toEqual([expect.objectContaining({ outbound_route: route.id, trunk_description: 'Tronco de teste (baresip)' })])
    expect((await get('/api/v1/pabx/outbound-route-trunks/?outbound_route_id=999999')).count).toBe(0)
    const pauses = await get('/api/v1/service/pauses/?ordering=-maximum_duration')
    expect(pauses.results.map((p: { description: string }) => p.description)).toEqual(['Almoço', 'Café', 'Banheiro', 'Treinamento'])
    const some = ids(pauses).slice(0, 2)
    expect(ids(await get(`/api/v1/service/pauses/?id__in=${some.join(',')}`)).sort()).toEqual([...some].sort())
    expect(ids(await get(`/api/v1/service/pauses/?exclude_id=${some.join(',')}`))).toHaveLength(2)
    const paged = await get('/api/v1/service/pauses/?ordering=description&offset=1&limit=2')
    expect(paged.count).toBe(4)
    expect(paged.results.map((p: { description: string }) => p.description)).toEqual(['Banheiro', 'Café'])
    expect((await s.admin.client.get('/api/v1/service/pauses/?productive=maybe')).statusCode).toBe(400)
  })

  it('search the searchable fields, ignoring case, accents left as typed', async () => {
    expect((await get('/api/v1/crm/organizations/?search=acme')).count).toBe(1)
    expect((await get('/api/v1/crm/organizations/?search=11.222')).count).toBe(1)
    expect((await get('/api/v1/crm/organizations/?search=%25')).count).toBe(0)
  })
})

describe('lookups under /api/v1/service/apps/', () => {
  it('answer {count, results: [{id, description}]} for every destination app and the users', async () => {
    expect([...LOOKUPS.keys()].sort()).toEqual(
      [
        'business/users',
        'chat/bots',
        'chat/flows',
        'chat/nps',
        'chat/queues',
        'chat/text-messages',
        'pabx/call-groups',
        'pabx/endpoints',
        'pabx/ivrs',
        'pabx/nps',
        'pabx/queues',
        'pabx/sounds-entries',
        'pabx/voicemails',
      ].map((p) => `/api/v1/service/apps/${p}/`),
    )
    const agent = new TestClient(s.t.app)
    await agent.login('agent1', 'ramal1001')
    for (const path of LOOKUPS.keys()) {
      const response = await agent.get(`${path}?limit=999999`)
      expect(response.statusCode, path).toBe(200)
      // The users' lookup adds the extension a transfer picker shows (tests/server/user-lookup.test.ts).
      const keys = path.endsWith('/business/users/') ? ['id', 'description', 'extension'] : ['id', 'description']
      for (const row of response.json().results) expect(Object.keys(row)).toEqual(keys)
    }
    expect((await agent.get('/api/v1/service/apps/pabx/queues/?search=sup')).json()).toEqual({
      count: 1,
      results: [{ id: expect.any(Number), description: 'Suporte' }],
    })
    expect((await agent.get('/api/v1/service/apps/pabx/endpoints/')).json().results.map((r: { description: string }) => r.description)).toEqual([
      'Ramal 10001 (Ana Agente)',
      'Ramal 10002 (Bruno Agente)',
    ])
    // The demo's four users and the suite's nobody and restricted (entity-helper.ts), by name.
    expect((await agent.get('/api/v1/service/apps/business/users/?limit=2&search=agente')).json()).toMatchObject({
      count: 2,
      results: [
        { description: 'Ana Agente', extension: '10001' },
        { description: 'Bruno Agente', extension: '10002' },
      ],
    })
  })

  it('need a signed-in user and show only their site', async () => {
    expect((await new TestClient(s.t.app).get('/api/v1/service/apps/pabx/queues/')).statusCode).toBe(401)
    expect((await s.otherSite.client.get('/api/v1/service/apps/pabx/queues/')).json()).toEqual({ count: 0, results: [] })
  })

  it('include the permission list the groups form picks from', async () => {
    const list = await get('/api/v1/business/permissions/?search=view_queue')
    expect(list.results).toEqual([
      { codename: 'pabx.view_queue', name: 'Filas de telefonia: ver' },
      { codename: 'chat.view_queue', name: 'Filas de chat: ver' },
    ])
    expect((await s.nobody.get('/api/v1/business/permissions/')).statusCode).toBe(403)
  })
})

describe('the audit log', () => {
  it('records who created, changed and deleted what, with secrets redacted, filtered and paged', async () => {
    const created = (
      await s.admin.client.post('/api/v1/pabx/trunks/', {
        description: 'Auditado',
        host: 'sip.example.com',
        register: true,
        auth_username: 'u',
        auth_secret: 'segredo',
      })
    ).json()
    await s.admin.client.patch(`/api/v1/pabx/trunks/${created.id}/`, { description: 'Auditado 2' })
    await s.admin.client.delete(`/api/v1/pabx/trunks/${created.id}/`)
    const log = await get(`/api/v1/system/audit-log/?entity=pabx.trunks&object_id=${created.id}`)
    expect(log.results.map((e: { action: string }) => e.action)).toEqual(['delete', 'update', 'create'])
    expect(log.results[2]).toMatchObject({ user: 1, user_description: 'admin', before: null, after: { description: 'Auditado', auth_secret: '[redacted]' } })
    expect(log.results[1]).toMatchObject({ before: { description: 'Auditado' }, after: { description: 'Auditado 2' } })
    expect(JSON.stringify(log)).not.toContain('segredo')
    const updates = await get(`/api/v1/system/audit-log/?action=update&user=1&at__gte=2000-01-01&limit=1`)
    expect(updates.results).toHaveLength(1)
    expect(updates.count).toBeGreaterThanOrEqual(1)
    expect((await get('/api/v1/system/audit-log/?at__lte=2000-01-01')).count).toBe(0)
    expect((await s.admin.client.get('/api/v1/system/audit-log/?object_id=x')).statusCode).toBe(400)
  })

  it('is for holders of system.view_auditlog, each site seeing its own', async () => {
    expect((await s.nobody.get('/api/v1/system/audit-log/')).statusCode).toBe(403)
    const theirs = (await s.otherSite.client.get('/api/v1/system/audit-log/')).json()
    expect(theirs.results.every((e: { entity: string }) => e.entity !== 'pabx.trunks')).toBe(true)
  })
})
