import { randomInt } from 'node:crypto'
import { access } from 'node:fs/promises'
import path from 'node:path'
import { and, asc, eq } from 'drizzle-orm'
import { loadConfig } from '../config.ts'
import type { Db } from '../db/client.ts'
import { pabxMoh, pabxMohEntries, pabxSounds, pabxSoundsEntries } from '../db/schema/index.ts'
import { storedPath } from '../entities/media-store.ts'
import { tablesOf } from '../entities/tables.ts'

// The sound library the media app plays from: a prompt (a sound entry: IVR greetings and options, announcements,
// queue announcements, NPS questions, voicemail greetings) and a music-on-hold class's playlist, each as absolute
// paths of the telephony WAVs made at upload (8 kHz mono 16-bit PCM, convert.ts), ready for rtpengine's
// `play media` `file=`. Only active rows of the caller's site whose file exists count: a prompt answers null, a
// playlist leaves such tracks out.
//
// The files live under the server's media folder, which `bindMediaLibrary(db, mediaDir)` ties to a database handle
// (buildApp does it); a handle never bound reads DATA_DIR from the environment as `npm start` does.

const mediaDirs = new WeakMap<object, string>()

/** The media folder whose files the rows of `db` name (buildApp and tests bind theirs). */
export function bindMediaLibrary(db: Db, mediaDir: string): void {
  mediaDirs.set(db, mediaDir)
}

function mediaDirOf(db: Db): string {
  return mediaDirs.get(db) ?? loadConfig().mediaDir
}

const SOUND_DIR = tablesOf('pabx.sounds-entries').plan.fields.find((f) => f.kind === 'file' && f.field.name === 'file')
const MOH_DIR = tablesOf('pabx.moh-entries').plan.fields.find((f) => f.kind === 'file' && f.field.name === 'file')
const dirOf = (plan: typeof SOUND_DIR) => (plan?.kind === 'file' ? plan.dir : '')

async function existing(file: string | null): Promise<string | null> {
  if (!file) return null
  try {
    await access(file)
    return file
  } catch {
    return null
  }
}

/** The absolute path of the converted file of sound entry `soundId` of site `siteId`, or null. */
export async function resolveSound(db: Db, siteId: number, soundId: number): Promise<string | null> {
  if (!Number.isSafeInteger(soundId) || soundId <= 0 || soundId > 2_147_483_647) return null
  const [row] = await db
    .select({ file: pabxSoundsEntries.file })
    .from(pabxSoundsEntries)
    .innerJoin(pabxSounds, eq(pabxSounds.id, pabxSoundsEntries.soundId))
    .where(and(eq(pabxSoundsEntries.id, soundId), eq(pabxSoundsEntries.siteId, siteId), eq(pabxSoundsEntries.isActive, true), eq(pabxSounds.isActive, true)))
  if (!row?.file) return null
  return existing(storedPath(mediaDirOf(db), dirOf(SOUND_DIR), row.file))
}

/** Fisher–Yates with a uniform source (crypto's, so no two classes start on the same track by seed). */
export function shuffled<T>(items: readonly T[], random: (n: number) => number = randomInt): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/**
 * The tracks of music-on-hold class `mohId` of site `siteId` as absolute paths: in the class's order (`order`, then
 * id) or shuffled anew on every call when the class says so; empty when the class is unknown, inactive or has none.
 */
export async function resolveMohPlaylist(db: Db, siteId: number, mohId: number): Promise<string[]> {
  if (!Number.isSafeInteger(mohId) || mohId <= 0 || mohId > 2_147_483_647) return []
  const [moh] = await db
    .select({ shuffle: pabxMoh.shuffle })
    .from(pabxMoh)
    .where(and(eq(pabxMoh.id, mohId), eq(pabxMoh.siteId, siteId), eq(pabxMoh.isActive, true)))
  if (!moh) return []
  const rows = await db
    .select({ file: pabxMohEntries.file })
    .from(pabxMohEntries)
    .where(and(eq(pabxMohEntries.mohId, mohId), eq(pabxMohEntries.siteId, siteId), eq(pabxMohEntries.isActive, true)))
    .orderBy(asc(pabxMohEntries.order), asc(pabxMohEntries.id))
  const mediaDir = mediaDirOf(db)
  const files = await Promise.all(rows.map((r) => (r.file ? existing(storedPath(mediaDir, dirOf(MOH_DIR), r.file)) : null)))
  const playlist = files.filter((f): f is string => f !== null)
  return moh.shuffle ? shuffled(playlist) : playlist
}

/** A prompt description that names its key (`digit-5: cinco`, `you-are-number: Você é o número`). */
const KEYED = /^([a-z0-9][a-z0-9-]{0,39}):/

/**
 * The keyed prompts of the active sound folders in `language` (a queue's or an inbound route's): key → absolute path,
 * the first folder (lowest id) winning a key two folders share. What a position or wait announcement is spoken from
 * (`you-are-number`, `digit-0`…`digit-9`, `in-line`, `estimated-wait`, `minutes`; the demo's keys are
 * demo-prompts.ts PROMPT_KEYS): an administrator re-records one by uploading a file to the entry.
 */
export async function resolvePromptSet(db: Db, siteId: number, language: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ description: pabxSoundsEntries.description, file: pabxSoundsEntries.file })
    .from(pabxSoundsEntries)
    .innerJoin(pabxSounds, eq(pabxSounds.id, pabxSoundsEntries.soundId))
    .where(and(eq(pabxSoundsEntries.siteId, siteId), eq(pabxSounds.language, language), eq(pabxSounds.isActive, true), eq(pabxSoundsEntries.isActive, true)))
    .orderBy(asc(pabxSounds.id), asc(pabxSoundsEntries.id))
  const mediaDir = mediaDirOf(db)
  const prompts = new Map<string, string>()
  for (const row of rows) {
    const key = KEYED.exec(row.description)?.[1]
    if (!key || prompts.has(key) || !row.file) continue
    const file = await existing(storedPath(mediaDir, dirOf(SOUND_DIR), row.file))
    if (file) prompts.set(key, file)
  }
  return prompts
}

/** Where voicemail messages are kept (WAVs the media app records; the API serves them and their mp3 renditions). */
export function voicemailDir(db: Db): string {
  return path.join(mediaDirOf(db), 'voicemail')
}
