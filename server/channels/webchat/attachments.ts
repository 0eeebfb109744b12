import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ATTACHMENT_NAME } from '../../../contract/realtime/visitor-socket.ts'
import type { VisitorMessageType } from '../../../contract/realtime/visitor-socket.ts'
import type { VisitorFile } from './conversations.ts'

// What a visitor may attach, decided by the file's first bytes (never its name or the browser's Content-Type):
// JPEG, PNG, WebP and GIF images, PDF, MP3/OGG/M4A audio and MP4 video. Stored under
// DATA_DIR/media/webchat/<channel>/<visitor>/<32 random hex>.<ext> with a small `.json` beside it (the cleaned
// original name, type, size), served by GET /widget/files/... as an attachment with nosniff and a sandboxing CSP.

type Kind = { mime: string; ext: string; type: VisitorMessageType; matches(bytes: Buffer): boolean }

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1')
const startsWith = (bytes: Buffer, signature: number[]) => bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte)
const isFtyp = (b: Buffer) => b.length >= 12 && ascii(b, 4, 8) === 'ftyp'
const brand = (b: Buffer) => ascii(b, 8, 12)

export const VISITOR_FILE_KINDS: readonly Kind[] = [
  { mime: 'image/jpeg', ext: 'jpg', type: 'photo', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/png', ext: 'png', type: 'photo', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/webp', ext: 'webp', type: 'photo', matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  { mime: 'image/gif', ext: 'gif', type: 'photo', matches: (b) => ['GIF87a', 'GIF89a'].includes(ascii(b, 0, 6)) },
  { mime: 'application/pdf', ext: 'pdf', type: 'document', matches: (b) => ascii(b, 0, 5) === '%PDF-' },
  // MP3: an ID3 tag, or an MPEG audio frame header straight away (11 sync bits, a valid layer).
  {
    mime: 'audio/mpeg',
    ext: 'mp3',
    type: 'audio',
    matches: (b) => ascii(b, 0, 3) === 'ID3' || (b.length > 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0 && (b[1]! & 0x06) !== 0),
  },
  { mime: 'audio/ogg', ext: 'ogg', type: 'audio', matches: (b) => ascii(b, 0, 4) === 'OggS' },
  { mime: 'audio/mp4', ext: 'm4a', type: 'audio', matches: (b) => isFtyp(b) && ['M4A ', 'M4B '].includes(brand(b)) },
  { mime: 'video/mp4', ext: 'mp4', type: 'video', matches: (b) => isFtyp(b) && !['M4A ', 'M4B ', 'qt  ', 'heic', 'heix', 'avif', 'mif1'].includes(brand(b)) },
]

export function sniffVisitorFile(bytes: Buffer): Kind | null {
  return VISITOR_FILE_KINDS.find((kind) => kind.matches(bytes)) ?? null
}

export function kindOfName(name: string): Kind | null {
  if (!ATTACHMENT_NAME.test(name)) return null
  const ext = name.slice(name.lastIndexOf('.') + 1)
  return VISITOR_FILE_KINDS.find((kind) => kind.ext === ext) ?? null
}

const VISITOR = /^[0-9a-f-]{36}$/

export function visitorDir(mediaDir: string, channelId: number, visitorId: string): string {
  if (!Number.isInteger(channelId) || !VISITOR.test(visitorId)) throw new Error('bad visitor dir')
  return path.join(mediaDir, 'webchat', String(channelId), visitorId)
}

/** Relative to the server; the socket and the upload answer make it absolute (the widget runs on another site). */
export function fileUrl(channelId: number, visitorId: string, name: string): string {
  return `/widget/files/${channelId}/${visitorId}/${name}`
}

/** A display name: no path, no control or quoting characters, at most 100 characters. */
export function cleanName(name: string | undefined, ext: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? ''
  const clean = base
    .replace(/[\u0000-\u001f\u007f"<>\\|*?:;%]/g, '')
    .trim()
    .slice(-100)
  return clean || `arquivo.${ext}`
}

export async function storeVisitorFile(dir: string, bytes: Buffer, kind: Kind, original: string | undefined): Promise<{ id: string; name: string }> {
  await mkdir(dir, { recursive: true })
  const id = `${randomBytes(16).toString('hex')}.${kind.ext}`
  const name = cleanName(original, kind.ext)
  const partial = path.join(dir, `.${id}.part`)
  await writeFile(partial, bytes)
  await writeFile(path.join(dir, `${id}.json`), JSON.stringify({ name, mime: kind.mime, size: bytes.length }))
  await rename(partial, path.join(dir, id))
  return { id, name }
}

/** The file a message names, if this visitor uploaded it. */
export async function visitorFile(dir: string, channelId: number, visitorId: string, id: string): Promise<VisitorFile | null> {
  const kind = kindOfName(id)
  if (!kind) return null
  try {
    const meta = JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as { name: string; size: number }
    return { id, path: path.join(dir, id), url: fileUrl(channelId, visitorId, id), name: meta.name, type: kind.type, mime: kind.mime, size: meta.size }
  } catch {
    return null
  }
}
