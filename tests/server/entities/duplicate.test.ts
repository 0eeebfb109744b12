import { describe, expect, it } from 'vitest'
import { copyCandidates } from '../../../server/entities/unique.ts'
import { useEntitySuite } from './entity-helper.ts'

// Duplicating a record (create?duplicate_id=) starts from `GET {api}{id}/?duplicate=true`: its unique values are made
// free, so the copy saves instead of always answering 'already exists'.
const s = useEntitySuite()

const copyOf = async (api: string, id: number) => {
  const response = await s.admin.client.get(`${api}${id}/?duplicate=true`)
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as Record<string, unknown>
}

describe('the values a copy may take', () => {
  it('counts a trailing number up, or adds one, within the maximum length', () => {
    expect([...copyCandidates('agent1')].slice(0, 2)).toEqual(['agent2', 'agent3'])
    expect(copyCandidates('10001', 5).next().value).toBe('10002')
    expect(copyCandidates('0099').next().value).toBe('0100')
    expect([...copyCandidates('Equipe Demo')].slice(0, 2)).toEqual(['Equipe Demo 2', 'Equipe Demo 3'])
    expect(copyCandidates('maria').next().value).toBe('maria-2')
    expect(copyCandidates('x'.repeat(10), 10).next().value).toBe(`${'x'.repeat(8)}-2`)
    expect([...copyCandidates('99999', 5)]).toEqual([])
  })
})

describe('duplicating a record with unique values', () => {
  it('suggests the first free name, and the copy saves', async () => {
    const api = '/api/v1/crm/tags/'
    const first = (await s.admin.client.post(api, { description: 'Urgente' })).json()
    expect((await s.admin.client.post(api, { description: 'Urgente-2' })).statusCode).toBe(201)
    const copy = await copyOf(api, first.id)
    expect(copy.description).toBe('Urgente-3')
    const { id: _id, created_at: _c, updated_at: _u, ...body } = copy
    const saved = await s.admin.client.post(api, body)
    expect(saved.statusCode, saved.body).toBe(201)
    // The plain detail is untouched.
    expect((await s.admin.client.get(`${api}${first.id}/`)).json().description).toBe('Urgente')
  })

  it('counts a username up and leaves the unique device empty for the person to choose', async () => {
    const users = (await s.admin.client.get('/api/v1/business/users/?username=agent1')).json().results
    const agent1 = users[0] as { id: number; device: number | null }
    expect(agent1.device).not.toBeNull()
    const copy = await copyOf('/api/v1/business/users/', agent1.id)
    expect(copy.username).toBe('agent3')
    expect(copy.device).toBeNull()
    expect(copy).not.toHaveProperty('device_description')
  })

  it('leaves records without unique values as they are', async () => {
    const api = '/api/v1/service/pauses/'
    const pause = (await s.admin.client.post(api, { description: 'Almoço E2E' })).json()
    expect((await copyOf(api, pause.id)).description).toBe('Almoço E2E')
  })
})
