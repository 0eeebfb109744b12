import { and, eq, sql } from 'drizzle-orm'
import type { MergeResponse } from '../../contract/api/crm.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import type { Db } from '../db/client.ts'
import { crmClientMerges } from '../db/schema/index.ts'
import type { EntityContext } from '../entities/context.ts'
import { within } from '../entities/context.ts'
import { HttpError } from '../http/errors.ts'
import { deleteRecord, getRecord, updateRecord } from '../entities/service.ts'

// Merging two clients keeps every record of both (spec issue: "merged, keeping every record of both"): the kept
// client gains the other's phones, documents, e-mails, tags and notes (and its organization, status, owner and form
// where it had none); calls, chats, activities, leads, interactions and earlier merges move to it; then the other
// row goes. One transaction; the audit log holds the update of the kept client and the delete of the other (with
// its full record), and crm_client_merges what moved.

/** Tables whose rows name a client, and the column that does. */
const POINTERS = [
  ['calls', 'call_records'],
  ['chats', 'chat_rooms'],
  ['activities', 'activities'],
  ['leads', 'crm_leads'],
  ['interactions', 'crm_client_interactions'],
] as const

const items = (...values: unknown[]) =>
  [
    ...new Set(
      values
        .flatMap((value) => String(value ?? '').split(';'))
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ].join(';')

const ids = (...values: unknown[]) => [...new Set(values.flatMap((value) => (Array.isArray(value) ? value : [])).map(Number))]

export async function mergeClients(ctx: EntityContext, keepId: number, mergeId: number): Promise<MergeResponse> {
  const entity = entityByKey('crm.clients')
  if (keepId === mergeId) throw new HttpError(400, { merge_id: [sameClient[ctx.lang]] })
  return ctx.db.transaction(async (tx) => {
    const t = within(ctx, tx as unknown as Db)
    const keep = await getRecord(t, entity, keepId)
    const gone = await getRecord(t, entity, mergeId)
    const moved: Record<string, number> = {}
    for (const [name, table] of POINTERS) {
      const result = (await t.db.execute(
        sql`update ${sql.identifier(table)} set client_id = ${keepId} where client_id = ${mergeId} and site_id = ${ctx.site.id} returning 1`,
      )) as unknown as { rows: unknown[] }
      moved[name] = result.rows.length
    }
    await t.db
      .update(crmClientMerges)
      .set({ clientId: keepId })
      .where(and(eq(crmClientMerges.clientId, mergeId), eq(crmClientMerges.siteId, ctx.site.id)))
    const notes = [keep.notes, gone.notes].filter((n) => typeof n === 'string' && n.trim() !== '').join('\n\n')
    await updateRecord(
      t,
      entity,
      keepId,
      {
        values: {
          phones: items(keep.phones, gone.phones),
          documents: items(keep.documents, gone.documents),
          emails: items(keep.emails, gone.emails),
          tags: ids(keep.tags, gone.tags),
          notes: notes.slice(0, 4096),
          organization: keep.organization ?? gone.organization ?? null,
          status: keep.status ?? gone.status ?? null,
          owner: keep.owner ?? gone.owner ?? null,
          form: keep.form ?? gone.form ?? null,
          form_data: { ...(gone.form_data as Record<string, unknown>), ...(keep.form_data as Record<string, unknown>) },
        },
        uploads: new Map(),
      },
      true,
    )
    await t.db.insert(crmClientMerges).values({ siteId: ctx.site.id, clientId: keepId, mergedClientId: mergeId, mergedRecord: gone, moved, userId: ctx.userId })
    await deleteRecord(t, entity, mergeId)
    return { id: keepId, merged_id: mergeId, moved }
  })
}

const sameClient = {
  'pt-BR': 'Escolha outro cliente para mesclar',
  'en-US': 'Choose another client to merge',
  'es-ES': 'Elija otro cliente para fusionar',
} as const
