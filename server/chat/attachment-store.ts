import path from 'node:path'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import type { MediaKind } from '../entities/media-store.ts'
import { MEDIA_KINDS, saveMedia, sniff, storedPath } from '../entities/media-store.ts'

// Chat attachments on disk: DATA_DIR/media/chat-<site>/<random>.<ext> (server/entities/media-store.ts writes them).
// The kind is decided by the first bytes, never by the name or the declared type; documents whose format only a
// container reveals (docx, xlsx: a zip; doc, xls: an OLE file) are kept as application/octet-stream under a safe name.

const MB = 1024 * 1024
const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1')
const starts = (bytes: Buffer, signature: number[]) => bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte)
const base = (mime: string) => MEDIA_KINDS.find((kind) => kind.mime === mime)!
const ftypBrand = (b: Buffer) => (ascii(b, 4, 8) === 'ftyp' ? ascii(b, 8, 12) : null)

/** What a chat accepts, most specific first (an AAC frame also looks like an MP3 frame; an M4A is an MP4 box). */
export const CHAT_KINDS: readonly MediaKind[] = [
  { ...base('image/png'), maxBytes: 5 * MB },
  { ...base('image/jpeg'), maxBytes: 5 * MB },
  { ...base('image/gif'), maxBytes: 5 * MB },
  { ...base('image/webp'), maxBytes: 5 * MB },
  { mime: 'audio/ogg', ext: 'ogg', maxBytes: 16 * MB, matches: (b) => ascii(b, 0, 4) === 'OggS' },
  { mime: 'audio/aac', ext: 'aac', maxBytes: 16 * MB, matches: (b) => b.length > 1 && b[0] === 0xff && (b[1]! & 0xf6) === 0xf0 },
  { ...base('audio/mpeg'), maxBytes: 16 * MB },
  { ...base('audio/wav'), maxBytes: 16 * MB },
  { mime: 'audio/mp4', ext: 'm4a', maxBytes: 16 * MB, matches: (b) => ['M4A ', 'M4B '].includes(ftypBrand(b) ?? '') },
  { mime: 'video/3gpp', ext: '3gp', maxBytes: 16 * MB, matches: (b) => (ftypBrand(b) ?? '').startsWith('3g') },
  { mime: 'video/mp4', ext: 'mp4', maxBytes: 16 * MB, matches: (b) => ftypBrand(b) !== null },
  { ...base('application/pdf'), maxBytes: 25 * MB },
  // Office documents (zip container: docx, xlsx, pptx, odt…; OLE: doc, xls, ppt).
  {
    mime: 'application/octet-stream',
    ext: 'bin',
    maxBytes: 25 * MB,
    matches: (b) => starts(b, [0x50, 0x4b, 0x03, 0x04]) || starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  },
]

export const CHAT_MAX_BYTES = Math.max(...CHAT_KINDS.map((kind) => kind.maxBytes))

/**
 * A voice note recorded in the agent's browser as WebM/Opus (Chromium's MediaRecorder) is accepted only from the
 * record button (the upload's `voice=1` field), up to this size, and stored as the Ogg Opus it holds.
 */
export const VOICE_WEBM_MAX_BYTES = 16 * MB

export function chatMediaDir(siteId: number): string {
  return `chat-${siteId}`
}

/** The kind of these bytes if a chat accepts them (and within its size), else null. */
export function sniffChat(bytes: Buffer): MediaKind | null {
  const kind = sniff(bytes, CHAT_KINDS)
  return kind && bytes.length <= kind.maxBytes && bytes.length > 0 ? kind : null
}

export async function saveChatMedia(mediaDir: string, siteId: number, bytes: Buffer, kind: MediaKind): Promise<string> {
  return saveMedia(mediaDir, chatMediaDir(siteId), bytes, kind)
}

/** Absolute path of a stored chat file; null for a name this module did not write. */
export function storedChatPath(mediaDir: string, siteId: number, name: string): string | null {
  return storedPath(mediaDir, chatMediaDir(siteId), name)
}

/** A name safe for Content-Disposition and for the customer's phone (server/http/files.ts, shared with the CRM's files). */
export { safeFileName } from '../http/files.ts'

// An agent's upload (POST /api/v1/chat/attachments/) is stored at once; its id is the stored name, and a small
// record beside it says who uploaded it and under which name, so only its uploader may send it.
export type UploadRecord = { userId: number; name: string; mime: string; size: number }

const UPLOAD_ID = /^[a-f0-9]{32}\.[a-z0-9]{2,4}$/

function uploadRecordPath(mediaDir: string, siteId: number, id: string): string {
  return path.join(mediaDir, `chat-uploads-${siteId}`, `${id}.json`)
}

export async function saveUpload(mediaDir: string, siteId: number, record: UploadRecord, bytes: Buffer, kind: MediaKind): Promise<string> {
  const id = await saveChatMedia(mediaDir, siteId, bytes, kind)
  const file = uploadRecordPath(mediaDir, siteId, id)
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, JSON.stringify(record))
  return id
}

/** The upload of this user, or null (unknown id, someone else's). */
export async function readUpload(mediaDir: string, siteId: number, userId: number, id: string): Promise<UploadRecord | null> {
  if (!UPLOAD_ID.test(id)) return null
  try {
    const record = JSON.parse(await readFile(uploadRecordPath(mediaDir, siteId, id), 'utf8')) as UploadRecord
    return record.userId === userId ? record : null
  } catch {
    return null
  }
}

/** The message kind an attachment goes as, unless the agent named one. */
export function messageTypeOf(mime: string): 'photo' | 'video' | 'voice' | 'audio' | 'document' {
  if (mime.startsWith('image/')) return 'photo'
  if (mime.startsWith('video/')) return 'video'
  if (mime === 'audio/ogg') return 'voice'
  if (mime.startsWith('audio/')) return 'audio'
  return 'document'
}
