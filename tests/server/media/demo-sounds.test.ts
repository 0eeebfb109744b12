import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALES } from '../../../contract/locales.ts'
import { pabxIvrs, pabxMoh, pabxSounds, pabxSoundsEntries } from '../../../server/db/schema/index.ts'
import { isTelephonyWav } from '../../../server/media/convert.ts'
import { PROMPT_KEYS, demoPrompt } from '../../../server/media/demo-prompts.ts'
import { bindMediaLibrary, resolveMohPlaylist, resolvePromptSet, resolveSound } from '../../../server/media/library.ts'
import { seedDemoIfEmpty } from '../../../server/seed/demo-seed.ts'
import type { TestDatabase } from '../helper.ts'
import { openTestDatabase } from '../helper.ts'

// `npm start`'s demo speaks: a folder of prompts per language made by espeak-ng (the digits for position announcements
// included) and a music class of two sox melodies, all telephony WAVs the library resolves, made once per DATA_DIR.

let dir = ''
let database: TestDatabase
const soundsDir = () => path.join(dir, 'demo-sounds')
const mediaDir = () => path.join(dir, 'media')
const soxi = (file: string, flag: string) => execFileSync('soxi', [flag, file]).toString().trim()

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'atende-demo-sounds-'))
  database = await openTestDatabase()
  bindMediaLibrary(database.db, mediaDir())
  expect(await seedDemoIfEmpty(database.db, { port: 8080, mediaDir: mediaDir(), soundsDir: soundsDir() })).not.toBeNull()
}, 120_000)

afterAll(async () => {
  await database?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the demo sound library', () => {
  it('has a folder per language with every prompt, spoken, as 8 kHz mono 16-bit WAV', async () => {
    const db = database.db
    const folders = await db.select().from(pabxSounds)
    expect(folders.map((f) => f.language).sort()).toEqual([...LOCALES].sort())
    for (const locale of LOCALES) {
      const prompts = await resolvePromptSet(db, 1, locale)
      expect([...prompts.keys()].sort()).toEqual([...PROMPT_KEYS].sort())
      for (const [key, file] of prompts) {
        // The header says 8 kHz mono 16-bit PCM (soxi checks one per language below), and the samples are speech: at
        // least 0.4 s with some energy, not silence.
        const wav = readFileSync(file)
        expect(isTelephonyWav(wav), key).toBe(true)
        const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length))
        expect(samples.length / 8000, key).toBeGreaterThan(0.4)
        const rms = Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / samples.length) / 32768
        expect(rms, key).toBeGreaterThan(0.01)
      }
      const digit = prompts.get('digit-3')!
      expect([soxi(digit, '-t'), soxi(digit, '-r'), soxi(digit, '-c'), soxi(digit, '-b'), soxi(digit, '-e')]).toEqual(['wav', '8000', '1', '16', 'Signed Integer PCM'])
    }
    // The languages really differ: "you are number" in pt-BR and en-US are different recordings.
    const pt = (await resolvePromptSet(db, 1, 'pt-BR')).get('you-are-number')!
    const en = (await resolvePromptSet(db, 1, 'en-US')).get('you-are-number')!
    expect(soxi(pt, '-s')).not.toBe(soxi(en, '-s'))
  })

  it("greets the demo IVR's callers with a spoken prompt and plays the music class in order", async () => {
    const db = database.db
    const [ivr] = await db.select().from(pabxIvrs)
    const greeting = await resolveSound(db, 1, ivr!.greetingId!)
    expect(greeting).toMatch(/\.wav$/)
    const [entry] = await db.select().from(pabxSoundsEntries).where(and(eq(pabxSoundsEntries.id, ivr!.greetingId!)))
    expect(entry!.description).toMatch(/^ivr-menu: Olá! .*tecle 1/)
    expect(Number(soxi(greeting!, '-D'))).toBeGreaterThan(3)
    const [moh] = await db.select().from(pabxMoh)
    const playlist = await resolveMohPlaylist(db, 1, moh!.id)
    expect(playlist).toHaveLength(2)
    for (const track of playlist) expect(Number(soxi(track, '-D'))).toBeGreaterThan(10)
  })

  it('makes each prompt once: a second seed reuses the cached file', async () => {
    const cached = path.join(soundsDir(), 'es-ES', 'digit-7.wav')
    const before = (await stat(cached)).mtimeMs
    await demoPrompt(soundsDir(), 'es-ES', 'digit-7')
    expect((await stat(cached)).mtimeMs).toBe(before)
  })
})
