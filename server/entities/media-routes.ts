import type { FastifyInstance } from 'fastify'
import { ENTITIES } from '../../contract/entities/index.ts'
import { detailError } from '../http/errors.ts'
import { isFile, sendStoredFile } from '../http/files.ts'
import { mimeOfStoredName, storedPath } from './media-store.ts'
import { tablesOf } from './tables.ts'

// GET /media/<area>-<entity>/<name>: settings uploads. Like avatars, a name is random and unguessable and must match
// the pattern the store writes; the type comes from the sniffed bytes kept in its extension. Served as attachments,
// with nosniff and a sandboxing CSP, so an upload can never run as a page of this origin.

/** Every directory settings files are stored in (avatars have their own route). */
function mediaDirs(): Set<string> {
  const dirs = new Set<string>()
  for (const entity of ENTITIES) for (const field of tablesOf(entity.key).plan.fields) if (field.kind === 'file' && field.dir !== 'avatars') dirs.add(field.dir)
  return dirs
}

export async function settingsMediaRoutes(app: FastifyInstance): Promise<void> {
  const dirs = mediaDirs()
  app.get<{ Params: { dir: string; name: string } }>('/media/:dir/:name', { config: { permission: 'public', bare: true } }, async (request, reply) => {
    const { dir, name } = request.params
    const mime = mimeOfStoredName(name)
    const file = dirs.has(dir) ? storedPath(app.deps.config.mediaDir, dir, name) : null
    if (!mime || !file || !(await isFile(file))) throw detailError(404, 'notFound', request.lang)
    return sendStoredFile(reply, file, { type: mime, filename: name, immutable: true })
  })
}
