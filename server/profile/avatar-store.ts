import { randomBytes } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { AVATAR_TYPES } from '../../contract/api/profile.ts'

// Avatars on disk under DATA_DIR/media/avatars. The type is decided by the file's first bytes (never by its name or
// the client's Content-Type), and the stored name is random, so nothing the client sends reaches the file system.
export type ImageType = { mime: (typeof AVATAR_TYPES)[number]; ext: string }

const SIGNATURES: { mime: ImageType['mime']; ext: string; matches: (b: Buffer) => boolean }[] = [
  { mime: 'image/png', ext: 'png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', ext: 'jpg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', ext: 'gif', matches: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  {
    mime: 'image/webp',
    ext: 'webp',
    matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
]

const NAME_PATTERN = /^[a-f0-9]{32}\.(png|jpg|gif|webp)$/

export function sniffImageType(bytes: Buffer): ImageType | null {
  const found = SIGNATURES.find((signature) => signature.matches(bytes))
  return found ? { mime: found.mime, ext: found.ext } : null
}

export function mimeOfAvatarName(name: string): ImageType['mime'] | null {
  const ext = NAME_PATTERN.exec(name)?.[1]
  return SIGNATURES.find((signature) => signature.ext === ext)?.mime ?? null
}

export function avatarUrl(name: string): string {
  return `/media/avatars/${name}`
}

export function avatarDir(mediaDir: string): string {
  return path.join(mediaDir, 'avatars')
}

export async function saveAvatarFile(mediaDir: string, bytes: Buffer, type: ImageType): Promise<string> {
  const name = `${randomBytes(16).toString('hex')}.${type.ext}`
  await mkdir(avatarDir(mediaDir), { recursive: true })
  await writeFile(path.join(avatarDir(mediaDir), name), bytes, { flag: 'wx' })
  return name
}

export async function removeAvatarFile(mediaDir: string, name: string): Promise<void> {
  // Only names this module produced are ever joined to a path.
  if (NAME_PATTERN.test(name)) await rm(path.join(avatarDir(mediaDir), name), { force: true })
}

function startsWith(bytes: Buffer, signature: number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte)
}
