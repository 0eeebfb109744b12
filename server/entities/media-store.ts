import { randomBytes } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

// Settings uploads (prompts, music on hold, logos, attachments) under DATA_DIR/media/<area>-<entity>/. The type is
// decided by the file's first bytes, never by its name or the client's Content-Type; the stored name is random and
// carries the sniffed type's extension, so nothing the client sends reaches the file system. SVG is refused: it can
// carry script, and no field needs it.

export type MediaKind = { readonly mime: string; readonly ext: string; readonly maxBytes: number; matches(bytes: Buffer): boolean }

const MB = 1024 * 1024
const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1')
const startsWith = (bytes: Buffer, signature: number[]) => bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte)

export const MEDIA_KINDS: readonly MediaKind[] = [
  { mime: 'image/png', ext: 'png', maxBytes: 2 * MB, matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', ext: 'jpg', maxBytes: 2 * MB, matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', ext: 'gif', maxBytes: 2 * MB, matches: (b) => ['GIF87a', 'GIF89a'].includes(ascii(b, 0, 6)) },
  { mime: 'image/webp', ext: 'webp', maxBytes: 2 * MB, matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  { mime: 'image/x-icon', ext: 'ico', maxBytes: 1 * MB, matches: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) },
  { mime: 'audio/wav', ext: 'wav', maxBytes: 20 * MB, matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE' },
  // An MP3 starts with an ID3 tag or directly with an MPEG audio frame (11 set sync bits).
  { mime: 'audio/mpeg', ext: 'mp3', maxBytes: 20 * MB, matches: (b) => ascii(b, 0, 3) === 'ID3' || (b.length > 1 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0) },
  { mime: 'audio/ogg', ext: 'ogg', maxBytes: 20 * MB, matches: (b) => ascii(b, 0, 4) === 'OggS' },
  { mime: 'video/mp4', ext: 'mp4', maxBytes: 16 * MB, matches: (b) => ascii(b, 4, 8) === 'ftyp' },
  { mime: 'application/pdf', ext: 'pdf', maxBytes: 10 * MB, matches: (b) => ascii(b, 0, 5) === '%PDF-' },
]

const ALIASES: Record<string, string> = { 'audio/x-wav': 'audio/wav', 'audio/mp3': 'audio/mpeg', 'image/jpg': 'image/jpeg' }

/** The kinds a field's `accept` list allows ('image/*' is every image kind; unknown types, SVG included, none). */
export function acceptedKinds(accept: string | undefined): MediaKind[] {
  const wanted = (accept ?? '').split(',').map((type) => type.trim().toLowerCase())
  return MEDIA_KINDS.filter((kind) =>
    wanted.some((type) => type === kind.mime || ALIASES[type] === kind.mime || (type.endsWith('/*') && kind.mime.startsWith(type.slice(0, -1)))),
  )
}

export function sniff(bytes: Buffer, kinds: readonly MediaKind[]): MediaKind | null {
  return kinds.find((kind) => kind.matches(bytes)) ?? null
}

const NAME = /^[a-f0-9]{32}\.([a-z0-9]{2,4})$/
const DIR = /^[a-z0-9-]+$/

export function mediaUrl(dir: string, name: string): string {
  return `/media/${dir}/${name}`
}

/** The MIME type of a stored name, or null for anything this module did not write. */
export function mimeOfStoredName(name: string): string | null {
  const ext = NAME.exec(name)?.[1]
  return MEDIA_KINDS.find((kind) => kind.ext === ext)?.mime ?? null
}

function dirPath(mediaDir: string, dir: string): string {
  if (!DIR.test(dir)) throw new Error(`bad media dir ${dir}`)
  return path.join(mediaDir, dir)
}

export function storedPath(mediaDir: string, dir: string, name: string): string | null {
  return NAME.test(name) ? path.join(dirPath(mediaDir, dir), name) : null
}

export async function saveMedia(mediaDir: string, dir: string, bytes: Buffer, kind: MediaKind): Promise<string> {
  const name = `${randomBytes(16).toString('hex')}.${kind.ext}`
  await mkdir(dirPath(mediaDir, dir), { recursive: true })
  await writeFile(path.join(dirPath(mediaDir, dir), name), bytes, { flag: 'wx' })
  return name
}

/**
 * Where a stored file's derived copy lives (the browser's mp3 of a telephony prompt): `<dir>/renditions/<stem>.<ext>`,
 * a folder `/media/` never serves (its names hold no slash), gone with the file it derives from.
 */
export function renditionPath(mediaDir: string, dir: string, name: string, ext: string): string | null {
  return NAME.test(name) ? path.join(dirPath(mediaDir, dir), 'renditions', `${name.slice(0, 32)}.${ext}`) : null
}

/** Extensions renditions are written with (removeMedia removes them with their file). */
export const RENDITION_EXTS = ['mp3'] as const

/** Removes a stored file given its name or its URL, and its renditions; anything else is ignored. */
export async function removeMedia(mediaDir: string, dir: string, nameOrUrl: string): Promise<void> {
  const name = nameOrUrl.startsWith(`/media/${dir}/`) ? nameOrUrl.slice(`/media/${dir}/`.length) : nameOrUrl
  const file = storedPath(mediaDir, dir, name)
  if (!file) return
  await rm(file, { force: true })
  for (const ext of RENDITION_EXTS) await rm(renditionPath(mediaDir, dir, name, ext)!, { force: true })
}

/** A new random stored name with this extension (for files a converter writes itself). */
export function newStoredName(ext: string): string {
  return `${randomBytes(16).toString('hex')}.${ext}`
}

/** Makes `<mediaDir>/<dir>/` (and its renditions folder) and answers its path. */
export async function mediaFolder(mediaDir: string, dir: string): Promise<string> {
  await mkdir(path.join(dirPath(mediaDir, dir), 'renditions'), { recursive: true })
  return dirPath(mediaDir, dir)
}
