import type { FastifyRequest } from 'fastify'
import type { Entity } from '../../contract/entities/index.ts'
import { entityMessage } from '../../contract/entities/index.ts'
import { HttpError, fieldErrors } from '../http/errors.ts'
import { refuseUnstorableText } from '../http/input-guard.ts'
import { parseJsonText } from '../http/json-body.ts'
import { readMultipart } from '../http/multipart.ts'
import type { MediaKind } from './media-store.ts'
import { acceptedKinds, sniff } from './media-store.ts'

// A settings body arrives as JSON, or as multipart (spec 001 §5 payload rules): a `params` part holding the other
// values as JSON, then one part per new file, named after its field. Files are read into memory within their
// field's limit and typed by their first bytes before anything is validated or written.

export type Upload = { readonly bytes: Buffer; readonly kind: MediaKind }
export type EntityInput = { readonly values: Record<string, unknown>; readonly uploads: ReadonlyMap<string, Upload> }

const MB = 1024 * 1024
const PARAMS_MAX_BYTES = MB

export async function readEntityInput(request: FastifyRequest, entity: Entity): Promise<EntityInput> {
  if (!request.isMultipart()) return { values: objectBody(request.body, request.lang), uploads: new Map() }
  const lang = request.lang
  const files = new Map(entity.fields.filter((f) => f.storage === 'file').map((f) => [f.name, acceptedKinds(f.accept)]))
  const largest = Math.max(1, ...[...files.values()].flat().map((k) => k.maxBytes))
  let values: Record<string, unknown> = {}
  const uploads = new Map<string, Upload>()
  let reading = ''
  // Too large is 413 (the body's size, not its content), said on the field so the form shows it there.
  const tooLarge = () => new HttpError(413, { [reading]: [entityMessage('fileTooLarge', lang, { n: Math.round(largest / MB) })] })
  await readMultipart(
    request,
    async () => {
      for await (const part of request.parts({ limits: { fileSize: largest, files: files.size + 1, fields: 20, fieldSize: PARAMS_MAX_BYTES } })) {
        if (part.type === 'field') {
          if (part.fieldname === 'params') values = objectBody(parseParams(String(part.value), lang), lang)
          continue
        }
        const kinds = files.get(part.fieldname)
        if (!kinds) {
          part.file.resume()
          continue
        }
        reading = part.fieldname
        const bytes = await part.toBuffer()
        if (bytes.length === 0) continue
        const kind = sniff(bytes, kinds)
        if (!kind) throw fieldErrors({ [part.fieldname]: [entityMessage('invalidFileType', lang, { types: kinds.map((k) => k.ext).join(', ') || '—' })] })
        if (bytes.length > kind.maxBytes) throw new HttpError(413, { [part.fieldname]: [entityMessage('fileTooLarge', lang, { n: kind.maxBytes / MB })] })
        uploads.set(part.fieldname, { bytes, kind })
      }
    },
    tooLarge,
  )
  return { values, uploads }
}

/** The `params` part: JSON (as deep as a JSON body may be) holding only text PostgreSQL can store. */
function parseParams(text: string, lang: string): unknown {
  const parsed = parseJsonText(text)
  if (!parsed) throw fieldErrors({ params: [entityMessage('invalidValue', lang)] })
  refuseUnstorableText(parsed.value, lang)
  return parsed.value
}

/** A body must be a JSON object; an empty body is an empty object. */
export function objectBody(body: unknown, lang: string): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, { non_field_errors: [entityMessage('invalidValue', lang)] })
  return body as Record<string, unknown>
}
