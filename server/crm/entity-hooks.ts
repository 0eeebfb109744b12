import { registerEntityHooks } from '../entities/hooks.ts'
import { removeMedia } from '../entities/media-store.ts'
import { interactionMediaDir, storedFilesOf } from './interaction-files.ts'
import { interactionFormErrors } from './interactions.ts'
import { linkOpenRooms, normaliseDocuments, normalisePhones, writeClientKeys } from './keys.ts'

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
