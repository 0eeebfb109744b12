import type { FastifyInstance } from 'fastify'
import { AUDIO_FIELDS } from '../../contract/api/sounds.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import { detailError } from '../http/errors.ts'
import { isFile, sendStoredFile } from '../http/files.ts'
import { entityContext, rowId } from '../entities/entity-routes.ts'
import { mimeOfStoredName, storedPath } from '../entities/media-store.ts'
import { getRecord } from '../entities/service.ts'
import { tablesOf } from '../entities/tables.ts'
import { ensureRendition } from './convert.ts'
import { soundRendition } from './sound-files.ts'

// GET /api/v1/pabx/sounds-entries/{id}/audio/ and /moh-entries/{id}/audio/: the settings form's player. Unlike
// /media/ (public, unguessable names, downloads), this asks for the entity's view codename and the row of the caller's
// site, and plays inline: the mp3 rendition of the telephony WAV (made on the first play), or the stored file itself
// (one uploaded before conversions existed, or a machine without lame).

export async function soundAudioRoutes(app: FastifyInstance): Promise<void> {
  for (const audio of AUDIO_FIELDS) {
    const entity = entityByKey(audio.entity)
    const plan = tablesOf(audio.entity).plan.fields.find((f) => f.kind === 'file' && f.field.name === audio.field)
    if (plan?.kind !== 'file') throw new Error(`no file field ${audio.entity}.${audio.field}`)
    const dir = plan.dir
    const permission = entity.permissions.view as RoutePermission
    app.get(audio.path, { config: { permission } }, async (request, reply) => {
      const record = await getRecord(entityContext(app, request), entity, rowId(request))
      const url = record[audio.field]
      const name = typeof url === 'string' ? url.slice(url.lastIndexOf('/') + 1) : ''
      const mediaDir = app.deps.config.mediaDir
      const rendition = name ? soundRendition(mediaDir, dir, name) : null
      const stored = name ? storedPath(mediaDir, dir, name) : null
      const send = (file: string, type: string, ext: string) =>
        sendStoredFile(reply, file, { type, filename: `${audio.entity.split('.')[1]}-${record.id}.${ext}`, disposition: 'inline' }).header(
          'Cache-Control',
          'private, max-age=86400',
        )
      const mime = mimeOfStoredName(name)
      if (!stored || !mime || !(await isFile(stored))) throw detailError(404, 'notFound', request.lang)
      if (rendition && mime === 'audio/wav') {
        try {
          await ensureRendition(stored, rendition)
          return send(rendition, 'audio/mpeg', 'mp3')
        } catch (error) {
          // Without lame the browser still plays the WAV itself.
          request.log.warn({ err: error }, 'no mp3 rendition of a sound')
        }
      }
      return send(stored, mime, name.split('.').pop()!)
    })
  }
}
