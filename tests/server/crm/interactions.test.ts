import { describe, expect, it } from 'vitest'
import { useEntitySuite } from '../entities/entity-helper.ts'

// Interactions (issue 17): records of one type, subject and text, linked to a client, listed by type; each site its own.
const s = useEntitySuite()
const API = '/api/v1/crm/client-interactions/'

describe('interactions', () => {
  it('creates, lists by type, edits and deletes, linked to a client', async () => {
    const client = await s.admin.client.post('/api/v1/crm/clients/', { name: 'Maria Cliente' })
    expect(client.statusCode, client.body).toBe(201)
    const complaint = await s.admin.ensure('crm.interactions')
    const visit = (await s.admin.create('crm.interactions')).json().id
    const created = await s.admin.client.post(API, { interaction: complaint, subject: 'Cobrança em dobro', text: 'Pediu estorno', client: client.json().id })
    expect(created.statusCode, created.body).toBe(201)
    await s.admin.client.post(API, { interaction: visit, subject: 'Visita técnica' })
    const ofType = (await s.admin.client.get(`${API}?interaction=${complaint}`)).json()
    expect(ofType.results.map((r: { subject: string }) => r.subject)).toEqual(['Cobrança em dobro'])
    expect(ofType.results[0].client).toBe(client.json().id)
    const id = created.json().id
    expect((await s.admin.client.patch(`${API}${id}/`, { subject: 'Cobrança resolvida' })).json().subject).toBe('Cobrança resolvida')
    expect((await s.admin.client.delete(`${API}${id}/`)).statusCode).toBe(204)
    expect((await s.admin.client.get(`${API}${id}/`)).statusCode).toBe(404)
  })

  it('needs a type and a subject, and keeps each site to its own', async () => {
    const missing = await s.admin.client.post(API, { text: 'sem tipo' })
    expect(missing.statusCode).toBe(400)
    expect(Object.keys(missing.json())).toEqual(expect.arrayContaining(['interaction', 'subject']))
    const type = await s.admin.ensure('crm.interactions')
    const mine = (await s.admin.client.post(API, { interaction: type, subject: 'Só do site A' })).json().id
    expect((await s.otherSite.client.get(`${API}${mine}/`)).statusCode).toBe(404)
    expect((await s.otherSite.client.get(API)).json().results).toEqual([])
    expect((await s.nobody.get(API)).statusCode).toBe(403)
  })
})
