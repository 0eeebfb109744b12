import { describe, expect, it } from 'vitest'
import { useEntitySuite } from '../entities/entity-helper.ts'

// /interactions/:interaction_id and /interactions/:form (issue 17): a type by id or slug with its form's fields, and an
// interaction's custom fields checked against that form (required answers) on every write.
const s = useEntitySuite()
const API = '/api/v1/crm/client-interactions/'
const TYPE = (key: string | number) => `/api/v1/crm/interaction-types/${key}/`

async function complaintType(slug: string) {
  const form = await s.admin.client.post('/api/v1/service/forms/', {
    description: 'Reclamação',
    fields: [
      { name: 'pedido', label: 'Número do pedido', type: 'text', required: true },
      { name: 'canal', label: 'Canal', type: 'select', options: 'loja=Loja;site=Site' },
    ],
  })
  expect(form.statusCode, form.body).toBe(201)
  const type = await s.admin.client.post('/api/v1/crm/interactions/', { description: 'Reclamação', slug, form: form.json().id })
  expect(type.statusCode, type.body).toBe(201)
  return { type: type.json().id as number, form: form.json().id as number }
}

describe('interaction types and their forms', () => {
  it('answers a type by id and by slug with its form definition', async () => {
    const { type, form } = await complaintType('reclamacao')
    const byId = await s.admin.client.get(TYPE(type))
    expect(byId.statusCode, byId.body).toBe(200)
    expect(byId.json()).toMatchObject({ id: type, slug: 'reclamacao', description: 'Reclamação', form })
    expect(byId.json().form_definition.fields.map((f: { name: string }) => f.name)).toEqual(['pedido', 'canal'])
    expect((await s.admin.client.get(TYPE('reclamacao'))).json().id).toBe(type)
    expect((await s.admin.client.get(TYPE('nao-existe'))).statusCode).toBe(404)
    expect((await s.admin.client.get(TYPE('Não%20é%20slug'))).statusCode).toBe(400)
  })

  it('refuses an interaction missing a required answer of its type form, and keeps the answers', async () => {
    const { type } = await complaintType('reclamacao-2')
    const missing = await s.admin.client.post(API, { interaction: type, subject: 'Sem pedido', form_data: { canal: 'loja' } })
    expect(missing.statusCode).toBe(400)
    expect(Object.keys(missing.json())).toEqual(['form_data.pedido'])
    const ok = await s.admin.client.post(API, { interaction: type, subject: 'Com pedido', form_data: { pedido: '123', canal: 'site' } })
    expect(ok.statusCode, ok.body).toBe(201)
    expect(ok.json().form_data).toEqual({ pedido: '123', canal: 'site' })
    // A later edit that empties the answer is refused too.
    const emptied = await s.admin.client.patch(`${API}${ok.json().id}/`, { form_data: { pedido: ' ' } })
    expect(emptied.statusCode).toBe(400)
    expect((await s.admin.client.get(`${API}${ok.json().id}/`)).json().form_data.pedido).toBe('123')
  })

  it('keeps each site to its own types and needs the interactions codename', async () => {
    const { type } = await complaintType('reclamacao-3')
    expect((await s.otherSite.client.get(TYPE(type))).statusCode).toBe(404)
    expect((await s.otherSite.client.get(TYPE('reclamacao-3'))).statusCode).toBe(404)
    expect((await s.nobody.get(TYPE(type))).statusCode).toBe(403)
    await s.restricted.grant(['crm.view_clientinteraction'])
    expect((await s.restricted.client.get(TYPE(type))).statusCode).toBe(200)
    // The record form's Tipo: whoever keeps interactions reads the types, never changes them.
    expect((await s.restricted.client.get('/api/v1/crm/interactions/')).statusCode).toBe(200)
    expect((await s.restricted.client.post('/api/v1/crm/interactions/', { description: 'Nova', slug: 'nova', form: 1 })).statusCode).toBe(403)
  })

  it("lets whoever sees clients read what a client's form picks from (organizations, status, tags)", async () => {
    await s.restricted.grant(['sites.view_client'])
    for (const path of ['/api/v1/crm/organizations/', '/api/v1/crm/status/', '/api/v1/crm/tags/']) {
      expect((await s.restricted.client.get(path)).statusCode, path).toBe(200)
      expect((await s.restricted.client.post(path, { description: 'x' })).statusCode, path).toBe(403)
    }
    await s.restricted.grant([])
    expect((await s.restricted.client.get('/api/v1/crm/status/')).statusCode).toBe(403)
  })

  it('lists the active types shown in the menu, by name, for the site, under the interactions codename', async () => {
    const MENU = '/api/v1/crm/interaction-types/'
    const a = await complaintType('menu-zeta')
    await s.admin.client.patch(`/api/v1/crm/interactions/${a.type}/`, { description: 'Zeta atendimento' })
    const b = await complaintType('menu-alfa')
    await s.admin.client.patch(`/api/v1/crm/interactions/${b.type}/`, { description: 'Alfa atendimento' })
    const hidden = await complaintType('menu-oculta')
    await s.admin.client.patch(`/api/v1/crm/interactions/${hidden.type}/`, { show_in_menu: false })
    const inactive = await complaintType('menu-inativa')
    await s.admin.client.patch(`/api/v1/crm/interactions/${inactive.type}/`, { is_active: false })
    const listed = await s.admin.client.get(MENU)
    expect(listed.statusCode, listed.body).toBe(200)
    const mine = listed.json().results.filter((r: { slug: string }) => r.slug.startsWith('menu-'))
    expect(mine.map((r: { id: number; description: string; slug: string }) => [r.id, r.description, r.slug])).toEqual([
      [b.type, 'Alfa atendimento', 'menu-alfa'],
      [a.type, 'Zeta atendimento', 'menu-zeta'],
    ])
    const theirs = (await s.otherSite.client.get(MENU)).json().results.map((r: { id: number }) => r.id)
    expect(theirs).not.toContain(a.type)
    expect((await s.nobody.get(MENU)).statusCode).toBe(403)
    await s.restricted.grant(['crm.view_clientinteraction'])
    expect((await s.restricted.client.get(MENU)).statusCode).toBe(200)
  })
})
