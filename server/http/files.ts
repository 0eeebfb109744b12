import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyReply } from 'fastify'

/** True when the path names a regular file (missing paths and directories are false). */
export async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}

export type StoredFileOptions = {
  /** The type the server decided (sniffed at upload, or the format it wrote), never the uploader's. */
  type: string
  /** The download name: already safe (the store's random name, or one the caller cleaned). */
  filename: string
  /** `attachment` (the default) saves it; `inline` lets an <audio> element or the browser play it. */
  disposition?: 'attachment' | 'inline'
  /** The name changes whenever the content does (random upload names): cache for a year. */
  immutable?: boolean
}

/**
 * Streams a file the server stored (uploads, recordings) with the headers that keep it from ever running as a page of
 * this origin: its own type with nosniff, a Content-Disposition, and a CSP that sandboxes it and allows nothing.
 */
export function sendStoredFile(reply: FastifyReply, file: string, options: StoredFileOptions): FastifyReply {
  reply
    .type(options.type)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', `${options.disposition ?? 'attachment'}; filename="${options.filename}"`)
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
  if (options.immutable) reply.header('Cache-Control', 'public, max-age=31536000, immutable')
  return reply.send(createReadStream(file))
}

/** A name safe for Content-Disposition and for the customer's phone: no path, no control characters. */
export function safeFileName(name: string, fallbackExt: string): string {
  const cleaned = path
    .basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 200)
  return cleaned || `arquivo.${fallbackExt}`
}
