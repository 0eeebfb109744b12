import { describe, expect, it } from 'vitest'
import { recordChanged } from '../../../server/entities/audit.ts'
import { useEntitySuite } from './entity-helper.ts'

// A save that changes nothing writes no audit entry; a real change, or a secret sent again, still does.
const s = useEntitySuite()

const auditOf = async (entity: string, id: number) =>
  (await s.admin.client.get(`/api/v1/system/audit-log/?entity=${entity}&object_id=${id}&ordering=id`)).json().results.map((e: { action: string }) => e.action)

describe('audit entries of saves that change nothing', () => {
  it('compares records as the API shows them, ignoring updated_at', () => {
    const before = { id: 1, name: 'A', teams: [1, 2], updated_at: '2026-01-01T00:00:00Z' }
    expect(recordChanged(before, { ...before, updated_at: '2026-02-01T00:00:00Z' })).toBe(false)
    expect(recordChanged(before, { ...before, teams: [2, 1] })).toBe(true)
    expect(recordChanged(before, { ...before, name: 'B' })).toBe(true)
  })

  it('writes no entry for a PUT or PATCH that sends the record back unchanged', async () => {
    const created = await s.admin.client.post('/api/v1/service/pauses/', { description: 'Pausa sem mudança', maximum_duration: 300 })
    expect(created.statusCode, created.body).toBe(201)
    const record = created.json()
    const put = await s.admin.client.put(`/api/v1/service/pauses/${record.id}/`, { description: 'Pausa sem mudança', maximum_duration: 300 })
    expect(put.statusCode, put.body).toBe(200)
    expect((await s.admin.client.patch(`/api/v1/service/pauses/${record.id}/`, { maximum_duration: 300 })).statusCode).toBe(200)
    expect(await auditOf('service.pauses', record.id)).toEqual(['create'])
    expect((await s.admin.client.patch(`/api/v1/service/pauses/${record.id}/`, { maximum_duration: 600 })).statusCode).toBe(200)
    expect(await auditOf('service.pauses', record.id)).toEqual(['create', 'update'])
  })

  it('audits a password sent again, which the redacted records cannot show', async () => {
    const user = await s.admin.create('business.users')
    expect(user.statusCode, user.body).toBe(201)
    const id = user.json().id as number
    const patch = await s.admin.client.patch(`/api/v1/business/users/${id}/`, { password: 'Outra-Senha-42!x' })
    expect(patch.statusCode, patch.body).toBe(200)
    expect(await auditOf('business.users', id)).toEqual(['create', 'update'])
  })
})
