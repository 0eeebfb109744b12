import type { FastifyInstance } from 'fastify'
import type { Entity } from '../../../contract/entities/index.ts'
import { ENTITIES, entityMessage } from '../../../contract/entities/index.ts'
import { fieldErrors } from '../../http/errors.ts'
import type { RoutePermission } from '../../http/permission-guard.ts'
import { below, entityContext } from '../entity-routes.ts'
import { readCsvUpload } from './csv-upload.ts'
import { importRows } from './import-rows.ts'
import { suggestMapping } from './mapping.ts'

// CSV import for the entities with `importable` columns (blocklists, CRM organizations and products):
//   POST <api>import/preview/  file → {columns, rows (first 10), count, mapping (column → field, suggested)}
//   POST <api>import/          file + mapping → {created: n}, or 400 {errors: [{row, field, messages}]} and nothing
//                              written when any row fails (row = the line in the file, the header being line 1)
// Both need the entity's add permission.

const PREVIEW_ROWS = 10

function parseMapping(entity: Entity, fields: Record<string, string>, header: string[], lang: string): Record<string, string> {
  const invalid = () => fieldErrors({ mapping: [entityMessage('invalidValue', lang)] })
  const json = (text: string): unknown => {
    try {
      return JSON.parse(text)
    } catch {
      throw invalid()
    }
  }
  const mapping =
    fields.mapping !== undefined
      ? json(fields.mapping)
      : fields.params !== undefined
        ? (json(fields.params) as { mapping?: unknown } | null)?.mapping
        : undefined
  if (mapping === undefined || mapping === null) return suggestMapping(entity, header)
  if (typeof mapping !== 'object' || Array.isArray(mapping)) throw invalid()
  const allowed = new Set(entity.importable!.columns)
  const out: Record<string, string> = {}
  for (const [column, field] of Object.entries(mapping as Record<string, unknown>)) {
    if (field === null || field === '') continue
    if (!header.includes(column)) throw fieldErrors({ mapping: [entityMessage('csvUnknownColumn', lang, { column })] })
    if (typeof field !== 'string' || !allowed.has(field)) throw fieldErrors({ mapping: [entityMessage('csvUnknownColumn', lang, { column: String(field) })] })
    out[column] = field
  }
  return out
}

export async function importRoutes(app: FastifyInstance): Promise<void> {
  for (const entity of ENTITIES.filter((e) => e.importable)) {
    const config = { config: { permission: entity.permissions.add as RoutePermission } }
    const base = below(entity.api)

    app.post(`${base}import/preview/`, config, async (request) => {
      const { header, rows } = await readCsvUpload(request)
      return { columns: header, rows: rows.slice(0, PREVIEW_ROWS), count: rows.length, mapping: suggestMapping(entity, header) }
    })

    app.post(`${base}import/`, config, async (request, reply) => {
      const { header, rows, fields } = await readCsvUpload(request)
      const mapping = parseMapping(entity, fields, header, request.lang)
      if (Object.keys(mapping).length === 0) throw fieldErrors({ mapping: [entityMessage('csvNoColumns', request.lang)] })
      const result = await importRows(entityContext(app, request), entity, header, rows, mapping)
      if ('errors' in result) return reply.code(400).send(result)
      return reply.code(201).send(result)
    })
  }
}
