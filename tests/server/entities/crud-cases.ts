import { describe, expect, it } from 'vitest'
import type { EntityKey, Field } from '../../../contract/entities/index.ts'
import { destinationApp, entityByKey, holdsValue } from '../../../contract/entities/index.ts'
import type { EntitySuite } from './entity-helper.ts'
import { detailPath, send } from './entity-helper.ts'
import type { Body } from './valid-body.ts'
import { referenceField, requiredWithoutDefault, validBody } from './valid-body.ts'

// The same behaviour asked of every settings entity, generated from its definition: the DRF list shape, create,
// read, replace, patch and delete with a minimal valid body, validation, permission per action, site isolation
// (reads, writes and ids of the other site's rows) and the audit trail.

function withoutFiles(body: Body): Body {
  return { values: body.values, files: {} }
}

/** Site A's row where a site-B body names a row by id. */
async function foreignValue(field: Field, s: EntitySuite): Promise<unknown> {
  if (field.relation) {
    const id = await s.admin.ensure(field.relation.entity)
    return field.relation.many ? [id] : id
  }
  const family = field.family ?? 'pabx'
  const app = (field.apps ?? []).find((a) => destinationApp(family, a)?.entity)!
  return { app, appdata: await s.admin.ensure(destinationApp(family, app)!.entity!) }
}

export function describeEntityCrud(key: EntityKey, s: EntitySuite): void {
  const entity = entityByKey(key)
  const list = entity.api
  describe(`${key} (${entity.api})`, () => {
    let id = 0
    let body: Body
    /** The record and the list's count, as the administrator sees them: what a refused request must leave alone. */
    const snapshot = async () => ({
      record: (await s.admin.client.get(detailPath(entity, id))).json(),
      count: (await s.admin.client.get(`${list}?limit=1`)).json().count,
    })

    it('creates from a minimal valid body, answering the record without secrets', async () => {
      body = await validBody(entity, s.admin.ensure)
      const response = await send(s.admin.client, 'POST', list, body)
      expect(response.statusCode, response.body).toBe(201)
      const record = response.json()
      id = record.id
      expect(id).toBeGreaterThan(0)
      for (const field of entity.fields.filter(holdsValue)) {
        if (field.secret) expect(record).not.toHaveProperty(field.name)
        else expect(record).toHaveProperty(field.name)
        if (field.relation || field.storage === 'app') expect(record).toHaveProperty(`${field.name}_description`)
      }
      expect(record).toHaveProperty('created_at')
    })

    it('lists as {count, results}: filtered by id, excluded, ordered, paged and searched', async () => {
      const byId = (await s.admin.client.get(`${list}?id=${id}`)).json()
      expect(byId).toMatchObject({ count: 1, results: [{ id }] })
      const newest = await s.admin.client.get(`${list}?ordering=-id&limit=1&offset=0`)
      expect(newest.statusCode).toBe(200)
      expect(newest.json().results).toHaveLength(1)
      expect(newest.json().results[0].id).toBeGreaterThanOrEqual(id)
      expect(newest.json().count).toBeGreaterThanOrEqual(1)
      const excluded = (await s.admin.client.get(`${list}?exclude_id=${id}&limit=99999`)).json()
      expect(excluded.results.map((r: { id: number }) => r.id)).not.toContain(id)
      const searchable = entity.list.search.find((name) => typeof body.values[name] === 'string' && body.values[name] !== '')
      if (searchable) {
        const term = String(body.values[searchable]).split(',')[0]!
        const found = (await s.admin.client.get(`${list}?search=${encodeURIComponent(term)}`)).json()
        expect(found.results.map((r: { id: number }) => r.id)).toContain(id)
      }
      expect((await s.admin.client.get(`${list}?limit=abc`)).statusCode).toBe(400)
    })

    it('reads the detail, every value field present', async () => {
      const response = await s.admin.client.get(detailPath(entity, id))
      expect(response.statusCode).toBe(200)
      expect(response.json().id).toBe(id)
      for (const field of entity.fields.filter((f) => holdsValue(f) && !f.secret)) expect(response.json()).toHaveProperty(field.name)
    })

    it('replaces with PUT (files and secrets kept when absent) and changes one field with PATCH', async () => {
      const put = await send(s.admin.client, 'PUT', detailPath(entity, id), withoutFiles(body))
      expect(put.statusCode, put.body).toBe(200)
      for (const field of entity.fields.filter((f) => f.storage === 'file' && f.required)) expect(put.json()[field.name]).toMatch(/^\/media\//)
      if (entity.fields.some((f) => f.name === 'is_active')) {
        const patch = await s.admin.client.patch(detailPath(entity, id), { is_active: false })
        expect(patch.statusCode, patch.body).toBe(200)
        expect(patch.json().is_active).toBe(false)
      }
    })

    // Entities whose every required field has a default have no such body to refuse.
    const required = requiredWithoutDefault(entity)
    if (required)
      it(`refuses a body without ${required.name} (400 on that field), creating nothing`, async () => {
        const before = (await s.admin.client.get(`${list}?limit=1`)).json().count
        const values = { ...body.values }
        delete values[required.name]
        const response = await send(s.admin.client, 'POST', list, { values, files: body.files })
        expect(response.statusCode).toBe(400)
        expect(response.json()).toHaveProperty(required.name)
        expect((await s.admin.client.get(`${list}?limit=1`)).json().count).toBe(before)
      })

    it('denies every action to a user without its codename, changing nothing', async () => {
      const nobody = s.nobody
      expect((await nobody.get(list)).statusCode).toBe(403)
      expect((await nobody.get(detailPath(entity, id))).statusCode).toBe(403)
      expect((await nobody.post(list, body.values)).statusCode).toBe(403)
      expect((await nobody.put(detailPath(entity, id), body.values)).statusCode).toBe(403)
      expect((await nobody.patch(detailPath(entity, id), { is_active: true })).statusCode).toBe(403)
      expect((await nobody.delete(detailPath(entity, id))).statusCode).toBe(403)
      const still = await s.admin.client.get(detailPath(entity, id))
      expect(still.statusCode).toBe(200)
    })

    it('lets a holder of the view codename alone list and read, but refuses their POST, PUT, PATCH and DELETE, changing nothing', async () => {
      const viewer = s.restricted
      await viewer.grant([entity.permissions.view])
      const unchanged = await snapshot()
      expect((await viewer.client.get(`${list}?id=${id}`)).json()).toMatchObject({ count: 1, results: [{ id }] })
      expect((await viewer.client.get(detailPath(entity, id))).json()).toEqual(unchanged.record)
      expect((await viewer.client.post(list, body.values)).statusCode).toBe(403)
      expect((await viewer.client.put(detailPath(entity, id), body.values)).statusCode).toBe(403)
      expect((await viewer.client.patch(detailPath(entity, id), { is_active: false })).statusCode).toBe(403)
      expect((await viewer.client.delete(detailPath(entity, id))).statusCode).toBe(403)
      expect(await snapshot()).toEqual(unchanged)
    })

    it('refuses each write to a holder of every other codename of the entity (add without delete cannot delete)', async () => {
      const unchanged = await snapshot()
      const others = (action: keyof typeof entity.permissions) => Object.values(entity.permissions).filter((p) => p !== entity.permissions[action])
      await s.restricted.grant(others('delete'))
      expect((await s.restricted.client.delete(detailPath(entity, id))).statusCode).toBe(403)
      await s.restricted.grant(others('add'))
      expect((await s.restricted.client.post(list, body.values)).statusCode).toBe(403)
      await s.restricted.grant(others('change'))
      expect((await s.restricted.client.put(detailPath(entity, id), body.values)).statusCode).toBe(403)
      expect((await s.restricted.client.patch(detailPath(entity, id), { is_active: false })).statusCode).toBe(403)
      expect(await snapshot()).toEqual(unchanged)
    })

    it('keeps another site out: its admin cannot read, change or delete the row, and the list leaves it out', async () => {
      const other = s.otherSite.client
      expect((await other.get(detailPath(entity, id))).statusCode).toBe(404)
      expect((await send(other, 'PUT', detailPath(entity, id), withoutFiles(body))).statusCode).toBe(404)
      expect((await other.patch(detailPath(entity, id), { is_active: true })).statusCode).toBe(404)
      expect((await other.delete(detailPath(entity, id))).statusCode).toBe(404)
      const theirs = (await other.get(`${list}?limit=99999`)).json()
      expect(theirs.results.map((r: { id: number }) => r.id)).not.toContain(id)
      expect((await s.admin.client.get(detailPath(entity, id))).statusCode).toBe(200)
    })

    // Only entities that name other rows by id can be handed another site's ids.
    const reference = referenceField(entity)
    if (reference)
      it(`refuses site A's ids in a site B body (${reference.name}), creating nothing`, async () => {
        const theirs = await validBody(entity, s.otherSite.ensure, [reference.name])
        const before = (await s.otherSite.client.get(`${list}?limit=1`)).json().count
        theirs.values[reference.name] = await foreignValue(reference, s)
        const response = await send(s.otherSite.client, 'POST', list, theirs)
        expect(response.statusCode, response.body).toBe(400)
        expect(response.json()).toHaveProperty(reference.name)
        expect((await s.otherSite.client.get(`${list}?limit=1`)).json().count).toBe(before)
      })

    it('deletes (204, then 404), every change in the audit log', async () => {
      const response = await s.admin.client.delete(detailPath(entity, id))
      expect(response.statusCode, response.body).toBe(204)
      expect((await s.admin.client.get(detailPath(entity, id))).statusCode).toBe(404)
      const audit = (await s.admin.client.get(`/api/v1/system/audit-log/?entity=${key}&object_id=${id}&ordering=id`)).json()
      const actions = audit.results.map((e: { action: string }) => e.action)
      expect(actions[0]).toBe('create')
      // The PUT above sent the record back unchanged: only the PATCH (or a secret sent again) is an update.
      const changed = entity.fields.some((f) => f.name === 'is_active' || (f.secret && body.values[f.name]))
      if (changed) expect(actions).toContain('update')
      else expect(actions).not.toContain('update')
      expect(actions[actions.length - 1]).toBe('delete')
      for (const field of entity.fields.filter((f) => f.secret && body.values[f.name])) expect(audit.results[0].after[field.name]).toBe('[redacted]')
    })
  })
}
