import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, desc, eq } from 'drizzle-orm'
import type { LeadImport, LeadImportListResponse } from '../../../contract/api/lead-import.ts'
import { LEAD_IMPORT_MAX_BYTES, LEAD_IMPORT_PATHS, LeadImportFields, LeadImportParams } from '../../../contract/api/lead-import.ts'
import { leads } from '../../../contract/entities/crm-records.ts'
import { entityMessage } from '../../../contract/entities/index.ts'
import { crmLeadImports, crmMailings, serviceShipmentsLayouts } from '../../db/schema/index.ts'
import { MEDIA_KINDS } from '../../entities/media-store.ts'
import { detailError, fieldErrors } from '../../http/errors.ts'
import { readMultipart } from '../../http/multipart.ts'
import { isFile, sendStoredFile } from '../../http/files.ts'
import type { RoutePermission } from '../../http/permission-guard.ts'
import { parseInput } from '../../http/validate.ts'
import { startImportRunner } from '../../crm/lead-import/runner.ts'
import type { ImportRunner } from '../../crm/lead-import/runner.ts'
import { errorFile, importsDir, newStoredName, uploadFile } from '../../crm/lead-import/store.ts'

// Lead imports (contract/api/lead-import.ts): the upload is streamed to DATA_DIR/imports/ as it arrives (never held in
// memory), checked to be text, and queued; the runner (server/crm/lead-import/runner.ts) imports it. Everything needs
// the leads' add codename, sites.add_mailingclient, and sees only its own site's imports.

const ZIP = [0x50, 0x4b, 0x03, 0x04]
const HISTORY = 20

declare module 'fastify' {
  interface FastifyInstance {
    leadImports: ImportRunner
  }
}

type Row = typeof crmLeadImports.$inferSelect

function serialize(row: Row): LeadImport {
  const progress = row.status === 'done' ? 1 : row.totalBytes > 0 ? Math.min(1, row.readBytes / row.totalBytes) : 0
  return {
    id: row.id,
    mailing: row.mailingId,
    layout: row.layoutId,
    file_name: row.fileName,
    status: row.status,
    total_bytes: row.totalBytes,
    read_bytes: row.readBytes,
    rows_read: row.rowsRead,
    rows_imported: row.rowsImported,
    rows_failed: row.rowsFailed,
    progress,
    error: row.error?.text ?? null,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  }
}

function safeName(name: string): string {
  return name.replace(/[^\p{L}\p{N}._ -]/gu, '_').slice(0, 200)
}

/** Checks the first bytes and passes the file through: text, no NUL, not a spreadsheet or a known binary type. */
function textOnly(invalid: () => Error): Transform {
  let first = true
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if ((first && (ZIP.every((b, i) => chunk[i] === b) || MEDIA_KINDS.some((kind) => kind.matches(chunk)))) || chunk.includes(0)) return done(invalid())
      first = false
      done(null, chunk)
    },
  })
}

export async function leadImportRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps
  const dataDir = app.deps.config.dataDir
  const permission = { config: { permission: leads.permissions.add as RoutePermission } }
  const runner = startImportRunner(db, dataDir, app.log)
  app.decorate('leadImports', runner)
  app.addHook('onClose', () => runner.stop())

  const own = async (request: FastifyRequest): Promise<Row> => {
    const parsed = parseInput(LeadImportParams, request.params, request.lang)
    const [row] = await db
      .select()
      .from(crmLeadImports)
      .where(and(eq(crmLeadImports.id, parsed.id), eq(crmLeadImports.siteId, request.auth!.user.siteId)))
    if (!row) throw detailError(404, 'notFound', request.lang)
    return row
  }

  app.post(LEAD_IMPORT_PATHS.list, permission, async (request, reply): Promise<LeadImport> => {
    const lang = request.lang
    const siteId = request.auth!.user.siteId
    const invalid = () => fieldErrors({ file: [entityMessage('csvInvalid', lang)] })
    if (!request.isMultipart()) throw invalid()
    await mkdir(importsDir(dataDir), { recursive: true })
    const storedName = newStoredName()
    const file = uploadFile(dataDir, storedName)
    const fields: Record<string, string> = {}
    let fileName = ''
    let received = false
    try {
      await readMultipart(
        request,
        async () => {
          for await (const part of request.parts({ limits: { fileSize: LEAD_IMPORT_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024 } })) {
            if (part.type === 'field') {
              fields[part.fieldname] = String(part.value)
              continue
            }
            fileName = safeName(part.filename ?? '')
            await pipeline(part.file, textOnly(invalid), createWriteStream(file))
            if ((part.file as { truncated?: boolean }).truncated) throw fieldErrors({ file: [entityMessage('fileTooLarge', lang, { n: LEAD_IMPORT_MAX_BYTES / (1024 * 1024) })] })
            received = true
          }
        },
        () => fieldErrors({ file: [entityMessage('fileTooLarge', lang, { n: LEAD_IMPORT_MAX_BYTES / (1024 * 1024) })] }),
      )
      if (!received) throw fieldErrors({ file: [entityMessage('required', lang)] })
      const input = parseInput(LeadImportFields, fields, lang)
      const [mailing] = await db
        .select({ id: crmMailings.id })
        .from(crmMailings)
        .where(and(eq(crmMailings.id, input.mailing), eq(crmMailings.siteId, siteId)))
      if (!mailing) throw fieldErrors({ mailing: [entityMessage('invalidReference', lang)] })
      const [layout] = await db
        .select()
        .from(serviceShipmentsLayouts)
        .where(and(eq(serviceShipmentsLayouts.id, input.layout), eq(serviceShipmentsLayouts.siteId, siteId)))
      if (!layout) throw fieldErrors({ layout: [entityMessage('invalidReference', lang)] })
      const size = (await stat(file)).size
      if (size === 0) throw invalid()
      const [row] = await db
        .insert(crmLeadImports)
        .values({
          siteId,
          mailingId: mailing.id,
          layoutId: layout.id,
          layout: {
            name: layout.nameColumn,
            surname: layout.surnameColumn,
            phones: layout.phoneColumns
              .split(';')
              .map((c) => c.trim())
              .filter(Boolean),
          },
          userId: request.auth!.user.id,
          lang,
          fileName,
          storedName,
          totalBytes: size,
        })
        .returning()
      runner.wake()
      reply.code(202)
      return serialize(row!)
    } catch (error) {
      await rm(file, { force: true })
      throw error
    }
  })

  app.get(LEAD_IMPORT_PATHS.list, permission, async (request): Promise<LeadImportListResponse> => {
    const rows = await db
      .select()
      .from(crmLeadImports)
      .where(eq(crmLeadImports.siteId, request.auth!.user.siteId))
      .orderBy(desc(crmLeadImports.id))
      .limit(HISTORY)
    return { count: rows.length, results: rows.map(serialize) }
  })

  app.get(LEAD_IMPORT_PATHS.detail, permission, async (request): Promise<LeadImport> => serialize(await own(request)))

  app.get(LEAD_IMPORT_PATHS.errors, permission, async (request, reply) => {
    const row = await own(request)
    const path = errorFile(dataDir, row.storedName)
    if (row.status !== 'done' || !(await isFile(path))) throw detailError(404, 'notFound', request.lang)
    return sendStoredFile(reply, path, { type: 'text/csv; charset=utf-8', filename: `import-${row.id}-errors.csv` })
  })
}
