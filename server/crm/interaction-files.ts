import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, asc, count, eq, inArray } from 'drizzle-orm'
import * as v from 'valibot'
import { Id } from '../../contract/api/agent.ts'
import { INTERACTION_MAX_ATTACHMENTS, INTERACTION_MAX_FILES_PER_UPLOAD, INTERACTION_PATHS, InteractionAttachmentParams } from '../../contract/api/crm.ts'
import type { InteractionAttachment, InteractionAttachmentsResponse } from '../../contract/api/crm.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { entityMessage } from '../../contract/entities/messages.ts'
import type { Db } from '../db/client.ts'
import { crmClientInteractions, crmInteractionAttachments } from '../db/schema/index.ts'
import type { MediaKind } from '../entities/media-store.ts'
import { MEDIA_KINDS, removeMedia, saveMedia, sniff, storedPath } from '../entities/media-store.ts'
import { detailError, fieldErrors, HttpError } from '../http/errors.ts'
import { safeFileName, sendStoredFile } from '../http/files.ts'
import { readMultipart } from '../http/multipart.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import { parseInput } from '../http/validate.ts'

// The files kept with an interaction, several each (issue 17 item 4). Uploads are checked by their first bytes
// (images, audio, video, PDF, office documents) and size, stored under a random name in
// DATA_DIR/media/crm-interactions-<site>/, and read back only through the API — signed in, the interaction's site,
// as an attachment with nosniff and a sandboxing CSP, named by the uploaded name made safe. Reading needs the
// interactions' view codename; adding and removing their change codename. Another site's interaction is 404.

const MB = 1024 * 1024
const starts = (bytes: Buffer, signature: number[]) => bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte)

/** What an interaction keeps: the stored-files kinds (no icons) up to 25 MB, and office documents (zip or OLE). */
export const INTERACTION_KINDS: readonly MediaKind[] = [
  ...MEDIA_KINDS.filter((kind) => kind.ext !== 'ico').map((kind) => ({ ...kind, maxBytes: 25 * MB })),
  {
    mime: 'application/octet-stream',
    ext: 'bin',
    maxBytes: 25 * MB,
    matches: (b) => starts(b, [0x50, 0x4b, 0x03, 0x04]) || starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  },
]
const MAX_BYTES = Math.max(...INTERACTION_KINDS.map((kind) => kind.maxBytes))
const IdParams = v.object({ id: Id })

export function interactionMediaDir(siteId: number): string {
  return `crm-interactions-${siteId}`
}

const fileUrl = (interactionId: number, id: number) =>
  `/api${INTERACTION_PATHS.attachment.replace(':id', String(interactionId)).replace(':fileId', String(id))}`

type Row = typeof crmInteractionAttachments.$inferSelect

function asAttachment(row: Row): InteractionAttachment {
  return {
    id: row.id,
    name: row.name,
    mime: row.mime,
    size: row.size,
    created_at: row.createdAt.toISOString(),
    created_by: row.userId,
    url: fileUrl(row.interactionId, row.id),
  }
}

/** Every file of these interactions (the timeline's), by interaction, oldest first. */
export async function attachmentsOf(db: Db, siteId: number, interactionIds: readonly number[]): Promise<Map<number, InteractionAttachment[]>> {
  const byInteraction = new Map<number, InteractionAttachment[]>()
  if (interactionIds.length === 0) return byInteraction
  const rows = await db
    .select()
    .from(crmInteractionAttachments)
    .where(and(eq(crmInteractionAttachments.siteId, siteId), inArray(crmInteractionAttachments.interactionId, [...interactionIds])))
    .orderBy(asc(crmInteractionAttachments.id))
  for (const row of rows) {
    const list = byInteraction.get(row.interactionId) ?? []
    list.push(asAttachment(row))
    byInteraction.set(row.interactionId, list)
  }
  return byInteraction
}

/** Before an interaction's delete: its files' names, so they leave the disk once the delete is committed. */
export async function storedFilesOf(db: Db, siteId: number, interactionId: number): Promise<string[]> {
  const rows = await db
    .select({ stored: crmInteractionAttachments.stored })
    .from(crmInteractionAttachments)
    .where(and(eq(crmInteractionAttachments.siteId, siteId), eq(crmInteractionAttachments.interactionId, interactionId)))
  return rows.map((r) => r.stored)
}

export async function interactionFileRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app.deps
  const records = entityByKey('crm.client-interactions')
  const view = { config: { permission: records.permissions.view as RoutePermission } }
  const change = { config: { permission: records.permissions.change as RoutePermission } }
  const siteOf = (request: FastifyRequest) => request.auth!.user.siteId

  const interactionOf = async (request: FastifyRequest): Promise<number> => {
    const parsed = v.safeParse(IdParams, request.params)
    if (!parsed.success) throw detailError(404, 'notFound', request.lang)
    const [row] = await db
      .select({ id: crmClientInteractions.id })
      .from(crmClientInteractions)
      .where(and(eq(crmClientInteractions.id, parsed.output.id), eq(crmClientInteractions.siteId, siteOf(request))))
    if (!row) throw detailError(404, 'notFound', request.lang)
    return row.id
  }

  const fileOf = async (request: FastifyRequest): Promise<Row> => {
    const interactionId = await interactionOf(request)
    const parsed = v.safeParse(InteractionAttachmentParams, request.params)
    if (!parsed.success) throw detailError(404, 'notFound', request.lang)
    const [row] = await db
      .select()
      .from(crmInteractionAttachments)
      .where(
        and(
          eq(crmInteractionAttachments.id, parsed.output.fileId),
          eq(crmInteractionAttachments.interactionId, interactionId),
          eq(crmInteractionAttachments.siteId, siteOf(request)),
        ),
      )
    if (!row) throw detailError(404, 'notFound', request.lang)
    return row
  }

  app.get(INTERACTION_PATHS.attachments, view, async (request): Promise<InteractionAttachmentsResponse> => {
    const id = await interactionOf(request)
    return { results: (await attachmentsOf(db, siteOf(request), [id])).get(id) ?? [] }
  })

  // One or more `file` parts; every file is checked before any is kept, so a refused upload keeps nothing.
  app.post(INTERACTION_PATHS.attachments, change, async (request, reply): Promise<InteractionAttachmentsResponse> => {
    const lang = request.lang
    if (!request.isMultipart()) throw detailError(415, 'unsupportedMediaType', lang)
    const id = await interactionOf(request)
    const siteId = siteOf(request)
    const files: { name: string; bytes: Buffer }[] = []
    const tooLarge = () => new HttpError(413, { file: [entityMessage('fileTooLarge', lang, { n: MAX_BYTES / MB })] })
    await readMultipart(
      request,
      async () => {
        for await (const part of request.parts({ limits: { fileSize: MAX_BYTES, files: INTERACTION_MAX_FILES_PER_UPLOAD, fields: 5, fieldSize: 1024 } })) {
          if (part.type !== 'file') continue
          if (part.fieldname !== 'file') {
            part.file.resume()
            continue
          }
          const bytes = await part.toBuffer()
          if (part.file.truncated) throw tooLarge()
          files.push({ name: part.filename ?? '', bytes })
        }
      },
      tooLarge,
    )
    if (files.length === 0 || files.some((f) => f.bytes.length === 0)) throw fieldErrors({ file: [entityMessage('required', lang)] })
    const kinds = files.map((f) => sniff(f.bytes, INTERACTION_KINDS))
    const types = [...new Set(INTERACTION_KINDS.map((k) => (k.ext === 'bin' ? 'docx, xlsx, doc, xls' : k.ext)))].join(', ')
    if (kinds.some((k) => !k)) throw fieldErrors({ file: [entityMessage('invalidFileType', lang, { types })] })
    const over = files.findIndex((f, i) => f.bytes.length > kinds[i]!.maxBytes)
    if (over >= 0) throw new HttpError(413, { file: [entityMessage('fileTooLarge', lang, { n: kinds[over]!.maxBytes / MB })] })
    const [{ n }] = (await db.select({ n: count() }).from(crmInteractionAttachments).where(eq(crmInteractionAttachments.interactionId, id))) as [{ n: number }]
    if (Number(n) + files.length > INTERACTION_MAX_ATTACHMENTS) {
      throw fieldErrors({ file: [entityMessage('tooManyFiles', lang, { n: INTERACTION_MAX_ATTACHMENTS })] })
    }
    const dir = interactionMediaDir(siteId)
    const written: string[] = []
    try {
      for (const [i, file] of files.entries()) written.push(await saveMedia(config.mediaDir, dir, file.bytes, kinds[i]!))
      const rows = await db
        .insert(crmInteractionAttachments)
        .values(
          files.map((file, i) => ({
            siteId,
            interactionId: id,
            name: safeFileName(file.name, kinds[i]!.ext),
            stored: written[i]!,
            mime: kinds[i]!.mime,
            size: file.bytes.length,
            userId: request.auth!.user.id,
          })),
        )
        .returning()
      reply.code(201)
      return { results: rows.map(asAttachment) }
    } catch (error) {
      for (const name of written) await removeMedia(config.mediaDir, dir, name)
      throw error
    }
  })

  app.get(INTERACTION_PATHS.attachment, view, async (request, reply) => {
    const row = await fileOf(request)
    const file = storedPath(config.mediaDir, interactionMediaDir(row.siteId), row.stored)
    if (!file) throw detailError(404, 'notFound', request.lang)
    return sendStoredFile(reply, file, { type: row.mime, filename: downloadName(row.name) })
  })

  app.delete(INTERACTION_PATHS.attachment, change, async (request, reply) => {
    const row = await fileOf(request)
    await db.delete(crmInteractionAttachments).where(eq(crmInteractionAttachments.id, row.id))
    await removeMedia(config.mediaDir, interactionMediaDir(row.siteId), row.stored)
    return reply.code(204).send()
  })
}

/** The name inside Content-Disposition's quotes: printable ASCII without quotes or backslashes. */
function downloadName(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
}
