import { describe, expect, it } from 'vitest'
import { entityByKey } from '../../../contract/entities/index.ts'
import { TestClient } from '../helper.ts'
import { useEntitySuite } from './entity-helper.ts'

// A site is a tenant: its administrators see and change their own site only. A new site is another tenant (its
// creator cannot see it), and the site in use cannot be deleted or deactivated.
const s = useEntitySuite()
const sites = entityByKey('business.sites')

async function ownSite() {
  return (await s.admin.client.get(sites.api)).json()
}

describe('business.sites', () => {
  it('lists only the caller\'s own site, with the public settings as fields', async () => {
    const list = await ownSite()
    expect(list.count).toBe(1)
    expect(list.results[0]).toMatchObject({ description: 'Atende Demo', domain: 'localhost', is_active: true, header_color: null })
    const other = (await s.otherSite.client.get(sites.api)).json()
    expect(other.results.map((r: { domain: string }) => r.domain)).toEqual(['b.example'])
  })

  it('changes the own site; the sign-in page reads the new name and colours, other settings kept', async () => {
    const id = (await ownSite()).results[0].id
    const response = await s.admin.client.patch(`${sites.api}${id}/`, { description: 'Central Demo', header_color: '#112233' })
    expect(response.statusCode, response.body).toBe(200)
    const publicSite = (await new TestClient(s.t.app).get('/api/v1/business/site-settings/')).json()
    expect(publicSite).toMatchObject({ name: 'Central Demo', settings: { header_color: '#112233', menu_primary_color: null } })
    const cleared = await s.admin.client.patch(`${sites.api}${id}/`, { header_color: '' })
    expect(cleared.json().header_color).toBeNull()
  })

  it('creates a new tenant, invisible to its creator; a repeated domain is refused', async () => {
    const created = await s.admin.client.post(sites.api, { description: 'Filial', domain: 'Filial.Example' })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json()).toMatchObject({ domain: 'filial.example', description: 'Filial' })
    expect((await s.admin.client.get(`${sites.api}${created.json().id}/`)).statusCode).toBe(404)
    const again = await s.admin.client.post(sites.api, { description: 'Outra', domain: 'filial.example' })
    expect(again.statusCode).toBe(400)
    expect(again.json()).toHaveProperty('domain')
  })

  it('refuses deleting or deactivating the site in use, and another site\'s id reads as missing', async () => {
    const id = (await ownSite()).results[0].id
    const deleted = await s.admin.client.delete(`${sites.api}${id}/`)
    expect(deleted.statusCode).toBe(400)
    expect(deleted.json().detail).toMatch(/site/)
    expect((await s.admin.client.patch(`${sites.api}${id}/`, { is_active: false })).statusCode).toBe(400)
    expect((await s.otherSite.client.get(`${sites.api}${id}/`)).statusCode).toBe(404)
    expect((await s.otherSite.client.delete(`${sites.api}${id}/`)).statusCode).toBe(404)
    expect((await s.nobody.get(sites.api)).statusCode).toBe(403)
    expect((await ownSite()).count).toBe(1)
  })

  it('refuses a body without a domain, in the request language', async () => {
    const response = await s.admin.client.post(sites.api, { description: 'Sem domínio' }, { headers: { 'accept-language': 'en-US' } })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ domain: ['This field is required'] })
  })
})
