import { or, sql } from 'drizzle-orm'
import { documentKey } from '../../contract/entities/validators.ts'
import { crmClientKeys, crmClients } from '../db/schema/index.ts'
import { registerEntityHooks } from '../entities/hooks.ts'
import { registerSearchKeys } from '../entities/list-query.ts'
import { removeMedia } from '../entities/media-store.ts'
import { interactionMediaDir, storedFilesOf } from './interaction-files.ts'
import { interactionFormErrors } from './interactions.ts'
import { linkOpenRooms, normaliseDocuments, normalisePhones, phoneKey, writeClientKeys } from './keys.ts'

// Clients on the settings write path (form, API, CSV import, seed): phones stored in E.164 through the product's one
// normaliser, documents as bare digits, and the lookup keys rewritten in the same transaction.
registerEntityHooks('crm.clients', {
  normalise(values) {
    if ('phones' in values) values.phones = normalisePhones(values.phones)
    if ('documents' in values) values.documents = normaliseDocuments(values.documents)
  },
  afterWrite: async (ctx, id) => {
    await writeClientKeys(ctx.db, ctx.site.id, id)
    await linkOpenRooms(ctx.db, ctx.site.id, id)
  },
})

registerEntityHooks('crm.leads', {
  normalise(values) {
    if ('phones' in values) values.phones = normalisePhones(values.phones)
  },
})

// The clients list's search (issue 17: "search by name, document, phone; fast at 1,000,000 clients"): a term written
// as a whole phone number (10 or more digits, with any of + ( ) - . and spaces) is read as its E.164 key, and a term
// written as a CPF/CNPJ (11 or 14 digits with its punctuation) as its document key — one probe of crm_client_keys
// each, so a number typed as the agent reads it ('(11) 90042-4242') finds the stored '+5511900424242', and the phones
// column is not scanned by ILIKE for it (every stored phone shares '+55…' trigrams). Shorter digits ('4242') stay a
// substring search.
const PHONE_TERM = /^[+\d\s().-]+$/

registerSearchKeys('crm.clients', (ctx, term) => {
  if (!PHONE_TERM.test(term)) return undefined
  const digits = term.replace(/\D/g, '')
  const keys: { kind: string; value: string }[] = []
  const phone = digits.length >= 10 ? phoneKey(term) : ''
  if (phone) keys.push({ kind: 'phone', value: phone })
  if (digits.length === 11 || digits.length === 14) keys.push({ kind: 'document', value: documentKey(term) })
  if (!keys.length) return undefined
  const match = or(
    ...keys.map(
      (k) =>
        // = ANY(ARRAY(…)), not IN (…): an array is an index condition the planner ORs with the trigram indexes of
        // the other fields (a bitmap of the primary key); IN inside an OR is a filter on every row (1.3 s at 1M).
        sql`${crmClients.id} = ANY(ARRAY(SELECT ${crmClientKeys.clientId} FROM ${crmClientKeys} WHERE ${crmClientKeys.siteId} = ${ctx.site.id} AND ${crmClientKeys.kind} = ${k.kind} AND ${crmClientKeys.value} = ${k.value}))`,
    ),
  )!
  return { match, skip: phone ? ['phones'] : [] }
})

// An interaction's custom fields: the required answers of its type's form (crm.interactions → service.forms).
// Its files leave the disk once its delete is committed (the rows go with it in cascade).
const doomedFiles = new Map<string, string[]>()
registerEntityHooks('crm.client-interactions', {
  validate: interactionFormErrors,
  async beforeDelete(ctx, id) {
    doomedFiles.set(`${ctx.site.id}:${id}`, await storedFilesOf(ctx.db, ctx.site.id, id))
  },
  async afterCommit(ctx, id, after) {
    const key = `${ctx.site.id}:${id}`
    const doomed = doomedFiles.get(key)
    doomedFiles.delete(key)
    if (after !== null || !doomed) return
    for (const name of doomed) await removeMedia(ctx.mediaDir, interactionMediaDir(ctx.site.id), name)
  },
})
