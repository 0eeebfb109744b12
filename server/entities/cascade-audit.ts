import { and, eq, inArray } from 'drizzle-orm'
import type { EntityKey, Reference } from '../../contract/entities/index.ts'
import { referencesTo } from '../../contract/entities/index.ts'
import type { CascadeOf } from '../db/schema/index.ts'
import { writeAuditEntries } from './audit.ts'
import type { AuditEntry } from './audit.ts'
import type { EntityContext } from './context.ts'
import { referrers } from './protect.ts'
import type { ApiRecord, RawRow } from './serialize.ts'
import { selectRecords, toRecords } from './serialize.ts'
import { tablesOf } from './tables.ts'

// A delete reaches past its row: the foreign keys the registry's rules became (plan.ts) make the database remove the
// rows that belong to it (a device's forwardings, a folder's sound entries — and in turn what belongs to those) and
// clear or unlink others (a user's device, a queue's teams, a queue's member rows). None of that passes through the
// CRUD layer, so the audit log would miss it. Inside the delete's transaction, before the row goes, this follows the
// same references through the site's rows and keeps what they are now; once the delete is done it writes a delete
// entry for every removed row and an update entry for every changed one (read again, so `after` is what the database
// left), each naming the delete it followed from.

type Found = Map<EntityKey, Set<number>>
type Records = Map<EntityKey, Map<number, ApiRecord>>

export type CascadeEffects = { readonly origin: CascadeOf; readonly removed: Records; readonly changed: Records }

/** Only a plain reference with ON DELETE CASCADE removes its row; a cleared reference, a link or a list row changes it. */
function removesReferrer(ref: Reference): boolean {
  return ref.kind === 'fk' && ref.path.length === 1 && ref.onDelete === 'cascade'
}

function add(found: Found, key: EntityKey, id: number): boolean {
  const ids = found.get(key) ?? new Set<number>()
  found.set(key, ids)
  if (ids.has(id)) return false
  ids.add(id)
  return true
}

async function readRecords(ctx: EntityContext, key: EntityKey, ids: readonly number[]): Promise<Map<number, ApiRecord>> {
  const tables = tablesOf(key)
  const { main, plan } = tables
  const raws = (await selectRecords(ctx, tables).where(and(inArray(main.col('id'), [...ids]), eq(main.col(plan.scope), ctx.site.id)))) as RawRow[]
  const records = await toRecords(ctx, key, raws, { redact: true })
  return new Map(records.map((record) => [record.id as number, record]))
}

async function readAll(ctx: EntityContext, found: Found): Promise<Records> {
  const records: Records = new Map()
  for (const [key, ids] of found) if (ids.size) records.set(key, await readRecords(ctx, key, [...ids]))
  return records
}

/** What deleting `id` of `key` will do to the site's other rows, as they are before it. Call inside the transaction. */
export async function cascadeEffects(ctx: EntityContext, key: EntityKey, id: number): Promise<CascadeEffects> {
  const removed: Found = new Map([[key, new Set([id])]])
  const changed: Found = new Map()
  const pending: [EntityKey, number][] = [[key, id]]
  for (let next = pending.shift(); next; next = pending.shift()) {
    const [target, targetId] = next
    for (const ref of referencesTo(target)) {
      // Protecting references were refused before (protect.ts); destinations always protect.
      if (ref.onDelete === 'protect' || ref.kind === 'app') continue
      for (const referrer of await referrers(ctx, ref, target, targetId)) {
        if (!removesReferrer(ref)) add(changed, ref.entity.key, referrer)
        else if (add(removed, ref.entity.key, referrer)) pending.push([ref.entity.key, referrer])
      }
    }
  }
  // A row both cleared and removed is only removed; the deleted row itself has its own entry.
  for (const [entity, ids] of removed) for (const gone of ids) changed.get(entity)?.delete(gone)
  removed.get(key)!.delete(id)
  return { origin: { entity: key, object_id: id }, removed: await readAll(ctx, removed), changed: await readAll(ctx, changed) }
}

/** The audit entries of the effects, once the delete has run in the same transaction. */
export async function auditCascade(ctx: EntityContext, effects: CascadeEffects): Promise<void> {
  const cascadeOf = effects.origin
  const entries: AuditEntry[] = []
  for (const [entity, records] of effects.removed) {
    for (const [objectId, before] of records) entries.push({ entity, objectId, action: 'delete', before, after: null, cascadeOf })
  }
  for (const [entity, records] of effects.changed) {
    const now = await readRecords(ctx, entity, [...records.keys()])
    for (const [objectId, before] of records) {
      // Gone rather than changed: the database knows better than the registry walk; say what it did.
      const after = now.get(objectId) ?? null
      entries.push({ entity, objectId, action: after ? 'update' : 'delete', before, after, cascadeOf })
    }
  }
  await writeAuditEntries(ctx, entries)
}
