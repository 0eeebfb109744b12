import { access } from 'node:fs/promises'
import path from 'node:path'
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { pabxMoh, pabxMohEntries, pabxSoundsEntries } from '../db/schema/index.ts'

// Where the media app finds what it plays. Minimal version (the sounds work replaces it): a sound entry's or a music
// class track's stored `file`, absolute or under the media folder (DATA_DIR/media), when it exists on disk.

let mediaRoot = path.resolve(process.env.DATA_DIR ?? 'data', 'media')

/** The folder relative `file` values live under (the server sets it from its config at start). */
export function setMediaRoot(dir: string): void {
  mediaRoot = dir
}

async function existing(file: string | null): Promise<string | null> {
  if (!file) return null
  const full = path.isAbsolute(file) ? file : path.join(mediaRoot, file)
  try {
    await access(full)
    return full
  } catch {
    return null
  }
}

/** The absolute path of a sound entry's file rtpengine can play, or null (missing, inactive, another site's). */
export async function resolveSound(db: Db, siteId: number, soundId: number): Promise<string | null> {
  const [row] = await db
    .select({ file: pabxSoundsEntries.file })
    .from(pabxSoundsEntries)
    .where(and(eq(pabxSoundsEntries.siteId, siteId), eq(pabxSoundsEntries.id, soundId), eq(pabxSoundsEntries.isActive, true)))
  return existing(row?.file ?? null)
}

/** A music class's active tracks in order (shuffled when the class says so), as playable absolute paths. */
export async function resolveMohPlaylist(db: Db, siteId: number, mohId: number): Promise<string[]> {
  const [moh] = await db
    .select()
    .from(pabxMoh)
    .where(and(eq(pabxMoh.siteId, siteId), eq(pabxMoh.id, mohId), eq(pabxMoh.isActive, true)))
  if (!moh) return []
  const rows = await db
    .select({ file: pabxMohEntries.file })
    .from(pabxMohEntries)
    .where(and(eq(pabxMohEntries.siteId, siteId), eq(pabxMohEntries.mohId, mohId), eq(pabxMohEntries.isActive, true)))
    .orderBy(asc(pabxMohEntries.order), asc(pabxMohEntries.id))
  const files = (await Promise.all(rows.map((row) => existing(row.file)))).filter((file): file is string => file !== null)
  if (moh.shuffle) {
    for (let i = files.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1))
      ;[files[i], files[j]] = [files[j]!, files[i]!]
    }
  }
  return files
}
