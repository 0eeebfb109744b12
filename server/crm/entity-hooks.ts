import { registerEntityHooks } from '../entities/hooks.ts'
import { normaliseDocuments, normalisePhones, writeClientKeys } from './keys.ts'

// Clients on the settings write path (form, API, CSV import, seed): phones stored in E.164 through the product's one
// normaliser, documents as bare digits, and the lookup keys rewritten in the same transaction.
registerEntityHooks('crm.clients', {
  normalise(values) {
    if ('phones' in values) values.phones = normalisePhones(values.phones)
    if ('documents' in values) values.documents = normaliseDocuments(values.documents)
  },
  afterWrite: (ctx, id) => writeClientKeys(ctx.db, ctx.site.id, id),
})

registerEntityHooks('crm.leads', {
  normalise(values) {
    if ('phones' in values) values.phones = normalisePhones(values.phones)
  },
})
