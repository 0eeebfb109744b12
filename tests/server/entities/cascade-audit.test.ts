import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { EntityKey } from '../../../contract/entities/index.ts'
import { entityByKey } from '../../../contract/entities/index.ts'
import { send, useEntitySuite } from './entity-helper.ts'
import { validBody } from './valid-body.ts'

// A delete's cascades in the audit log: rows the database removes (ON DELETE CASCADE, a level down too) get a delete
// entry, rows it clears or unlinks (SET NULL, m2m links, datatable rows) an update entry with what it left; each names
// the delete it followed from, and all of it is one transaction with the delete.
const s = useEntitySuite()

type Entry = {
  entity: string
  object_id: number
  action: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  cascade_of: unknown
}
type Row = Record<string, unknown> & { id: number }

async function created(key: EntityKey, values: Record<string, unknown> = {}): Promise<Row> {
  const entity = entityByKey(key)
  const body = await validBody(entity, s.admin.ensure)
  const response = await send(s.admin.client, 'POST', entity.api, { values: { ...body.values, ...values }, files: body.files })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

async function deleted(key: EntityKey, id: number) {
  const response = await s.admin.client.delete(`${entityByKey(key).api}${id}/`)
  expect(response.statusCode, response.body).toBe(204)
}

async function history(key: EntityKey, id: number): Promise<Entry[]> {
  return (await s.admin.client.get(`/api/v1/system/audit-log/?entity=${key}&object_id=${id}&ordering=id`)).json().results
}

/** Every entry caused by deleting `id` of `key`, as "entity#id action". */
async function causedBy(key: EntityKey, id: number): Promise<string[]> {
  const recent: Entry[] = (await s.admin.client.get('/api/v1/system/audit-log/?limit=200')).json().results
  return recent
    .filter((e) => JSON.stringify(e.cascade_of) === JSON.stringify({ entity: key, object_id: id }))
    .map((e) => `${e.entity}#${e.object_id} ${e.action}`)
    .sort()
}

describe('the audit log of a delete', () => {
  it("keeps a device's forwardings and call group memberships removed with it, and the user it is cleared from", async () => {
    const device = await created('pabx.devices')
    const detour = await created('pabx.detours', { device: device.id })
    const member = await created('pabx.call-group-members', { device: device.id })
    const user = await created('business.users', { device: device.id })
    await deleted('pabx.devices', device.id)

    const origin = { entity: 'pabx.devices', object_id: device.id }
    expect((await history('pabx.devices', device.id)).at(-1)).toMatchObject({ action: 'delete', cascade_of: null })
    expect((await history('pabx.detours', detour.id)).at(-1)).toMatchObject({
      action: 'delete',
      before: { id: detour.id, device: device.id },
      after: null,
      cascade_of: origin,
    })
    expect((await history('pabx.call-group-members', member.id)).at(-1)).toMatchObject({
      action: 'delete',
      before: { device: device.id },
      after: null,
      cascade_of: origin,
    })
    expect((await history('business.users', user.id)).at(-1)).toMatchObject({
      action: 'update',
      before: { device: device.id },
      after: { device: null, device_description: null, username: user.username },
      cascade_of: origin,
    })
    expect(await causedBy('pabx.devices', device.id)).toEqual(
      [`pabx.detours#${detour.id} delete`, `pabx.call-group-members#${member.id} delete`, `business.users#${user.id} update`].sort(),
    )
  })

  it("follows a cascade down a level: a sound folder's entries go, and the queue announcing one loses it", async () => {
    const folder = await created('pabx.sounds')
    const entry = await created('pabx.sounds-entries', { sound: folder.id })
    const queue = await created('pabx.queues', { announce_entry: entry.id })
    await deleted('pabx.sounds', folder.id)

    const origin = { entity: 'pabx.sounds', object_id: folder.id }
    expect((await history('pabx.sounds-entries', entry.id)).at(-1)).toMatchObject({ action: 'delete', before: { sound: folder.id }, cascade_of: origin })
    expect((await history('pabx.queues', queue.id)).at(-1)).toMatchObject({
      action: 'update',
      before: { announce_entry: entry.id },
      after: { announce_entry: null },
      cascade_of: origin,
    })
    expect(await causedBy('pabx.sounds', folder.id)).toEqual([`pabx.queues#${queue.id} update`, `pabx.sounds-entries#${entry.id} delete`])
  })

  it('keeps the m2m links a deleted team leaves behind, and leaves unrelated rows out', async () => {
    const team = await created('service.teams')
    const linked = await created('pabx.queues', { teams: [team.id] })
    await created('pabx.queues', { teams: [] })
    await deleted('service.teams', team.id)

    expect((await history('pabx.queues', linked.id)).at(-1)).toMatchObject({
      action: 'update',
      before: { teams: [team.id] },
      after: { teams: [], teams_description: [] },
      cascade_of: { entity: 'service.teams', object_id: team.id },
    })
    expect(await causedBy('service.teams', team.id)).toEqual([`pabx.queues#${linked.id} update`])
  })

  it("keeps a queue's member rows removed with the user they named", async () => {
    const user = await created('business.users')
    const queue = await created('pabx.queues', { members: [{ user: user.id, penalty: 1 }, { user: 3 }] })
    await deleted('business.users', user.id)

    const [entry] = (await history('pabx.queues', queue.id)).slice(-1)
    expect(entry).toMatchObject({ action: 'update', cascade_of: { entity: 'business.users', object_id: user.id } })
    expect(entry!.before!.members).toEqual([
      { user: user.id, user_description: user.username, penalty: 1 },
      { user: 3, user_description: 'agent1', penalty: 0 },
    ])
    expect(entry!.after!.members).toEqual([{ user: 3, user_description: 'agent1', penalty: 0 }])
  })

  it('writes nothing when the delete fails part-way: the row, its cascades and the log stay as they were', async () => {
    const device = await created('pabx.devices')
    const detour = await created('pabx.detours', { device: device.id })
    const user = await created('business.users', { device: device.id })
    const db = s.t.database.db
    // The log itself refuses the user's cascade entry, written after the device's and the forwarding's.
    await db.execute(
      sql.raw(`CREATE FUNCTION refuse_user_cascade() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.entity = 'business.users' AND NEW.cascade_of IS NOT NULL THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`),
    )
    await db.execute(sql.raw('CREATE TRIGGER refuse_user_cascade BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_user_cascade()'))
    try {
      const response = await s.admin.client.delete(`/api/v1/pabx/devices/${device.id}/`)
      expect(response.statusCode).toBe(500)
    } finally {
      await db.execute(sql.raw('DROP TRIGGER refuse_user_cascade ON audit_log'))
      await db.execute(sql.raw('DROP FUNCTION refuse_user_cascade()'))
    }

    expect((await s.admin.client.get(`/api/v1/pabx/devices/${device.id}/`)).statusCode).toBe(200)
    expect((await s.admin.client.get(`/api/v1/pabx/detours/${detour.id}/`)).statusCode).toBe(200)
    expect((await s.admin.client.get(`/api/v1/business/users/${user.id}/`)).json().device).toBe(device.id)
    expect((await history('pabx.devices', device.id)).map((e) => e.action)).toEqual(['create'])
    expect((await history('pabx.detours', detour.id)).map((e) => e.action)).toEqual(['create'])
    expect(await causedBy('pabx.devices', device.id)).toEqual([])
  })
})
