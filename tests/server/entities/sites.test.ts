import { describe, expect, it } from 'vitest'
import { entityByKey } from '../../../contract/entities/index.ts'
import { findSiteByDomain } from '../../../server/sites/site-repo.ts'
import { TestClient } from '../helper.ts'
import { useEntitySuite } from './entity-helper.ts'

// A site is a tenant: its administrators see and change their own site only. Creating or deleting a site and
// changing its domain are the platform operator's acts (`npm run site`, tests/server/site-operator.test.ts): every
// site role gets 403, so no admin can claim another tenant's address or leave a site nobody can see.
const s = useEntitySuite()
const sites = entityByKey('business.sites')

async function ownSite() {
  return (await s.admin.client.get(sites.api)).json()
}

describe('business.sites', () => {
  it("lists only the caller's own site, with the public settings as fields", async () => {
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

  it('refuses creating a site to a site administrator (403), and nothing is created', async () => {
    const created = await s.admin.client.post(sites.api, { description: 'Filial', domain: 'filial.example' })
    expect(created.statusCode, created.body).toBe(403)
    expect((await s.otherSite.client.post(sites.api, { description: 'Tomada', domain: 'tomada.example' })).statusCode).toBe(403)
    expect(await findSiteByDomain(s.t.database.db, 'filial.example')).toBeNull()
    expect(await findSiteByDomain(s.t.database.db, 'tomada.example')).toBeNull()
  })

  it("refuses changing the own site's domain (403) but accepts it sent back unchanged", async () => {
    const id = (await ownSite()).results[0].id
    const moved = await s.admin.client.patch(`${sites.api}${id}/`, { domain: 'b2.example' }, { headers: { 'accept-language': 'en-US' } })
    expect(moved.statusCode).toBe(403)
    expect(moved.json()).toEqual({ detail: 'Only the platform operator can change the field Domain.' })
    const other = (await s.otherSite.client.get(sites.api)).json().results[0]
    expect((await s.otherSite.client.patch(`${sites.api}${other.id}/`, { domain: 'localhost' })).statusCode).toBe(403)
    const record = (await s.admin.client.get(`${sites.api}${id}/`)).json()
    expect((await s.admin.client.put(`${sites.api}${id}/`, { ...record, domain: 'outro.example' })).statusCode).toBe(403)
    const same = await s.admin.client.patch(`${sites.api}${id}/`, { domain: 'LOCALHOST', description: 'Atende Demo' })
    expect(same.statusCode, same.body).toBe(200)
    expect((await ownSite()).results[0].domain).toBe('localhost')
    expect((await s.otherSite.client.get(sites.api)).json().results[0].domain).toBe('b.example')
  })

  it('refuses a group holding a platform codename: no site role can carry one', async () => {
    const response = await s.admin.client.post('/api/v1/business/groups/', { name: 'Operadores', permissions: ['platform.add_site'] })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toHaveProperty('permissions')
    const listed = (await s.admin.client.get('/api/v1/business/permissions/?limit=99999')).json()
    expect(JSON.stringify(listed)).not.toContain('platform.')
  })

  it('refuses deleting a site (403) or deactivating the site in use; another site reads as missing', async () => {
    const id = (await ownSite()).results[0].id
    expect((await s.admin.client.delete(`${sites.api}${id}/`)).statusCode).toBe(403)
    expect((await s.admin.client.patch(`${sites.api}${id}/`, { is_active: false })).statusCode).toBe(400)
    expect((await s.otherSite.client.get(`${sites.api}${id}/`)).statusCode).toBe(404)
    expect((await s.otherSite.client.delete(`${sites.api}${id}/`)).statusCode).toBe(403)
    expect((await s.nobody.get(sites.api)).statusCode).toBe(403)
    expect((await ownSite()).count).toBe(1)
  })

  it('refuses a body without a domain, in the request language', async () => {
    const id = (await ownSite()).results[0].id
    const response = await s.admin.client.put(`${sites.api}${id}/`, { description: 'Sem domínio' }, { headers: { 'accept-language': 'en-US' } })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ domain: ['This field is required'] })
  })
})
