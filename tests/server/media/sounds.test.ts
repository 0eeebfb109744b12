import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AnyActorRef } from 'xstate'
import { announceThen, enterAnnounce } from '../../../server/media/app/announce.ts'
import type { MediaCall } from '../../../server/media/app/call-context.ts'
import { resolveMohPlaylist, resolveSound, shuffled } from '../../../server/media/library.ts'
import { TestClient } from '../helper.ts'
import { multipart, useEntitySuite } from '../entities/entity-helper.ts'
import { PNG, wavTone } from '../entities/valid-body.ts'

// Prompts and music on hold: an upload is typed by its bytes, size-limited, converted once to the telephony WAV
// rtpengine plays (8 kHz mono 16-bit PCM, checked with soxi) plus an mp3 the settings player gets through an
// authenticated path; the library resolves a prompt and a class's playlist to those files.
const s = useEntitySuite()

let work = ''
const fixtures: Record<'wav' | 'mp3' | 'ogg' | 'opus', Buffer> = { wav: Buffer.alloc(0), mp3: Buffer.alloc(0), ogg: Buffer.alloc(0), opus: Buffer.alloc(0) }

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'atende-sounds-'))
  // A stereo 44.1 kHz tone, encoded by the same Debian tools an admin's files come from.
  const source = path.join(work, 'source.wav')
  execFileSync('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', source, 'synth', '1.5', 'sine', '523', 'vol', '0.5'])
  fixtures.wav = readFileSync(source)
  execFileSync('lame', ['--quiet', source, path.join(work, 'source.mp3')])
  fixtures.mp3 = readFileSync(path.join(work, 'source.mp3'))
  execFileSync('sox', [source, path.join(work, 'source.ogg')])
  fixtures.ogg = readFileSync(path.join(work, 'source.ogg'))
  execFileSync('opusenc', ['--quiet', source, path.join(work, 'source.opus')])
  fixtures.opus = readFileSync(path.join(work, 'source.opus'))
})

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

async function created(url: string, body: unknown): Promise<Record<string, unknown> & { id: number }> {
  const response = await s.admin.client.post(url, body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

function upload(url: string, values: Record<string, unknown>, data: Buffer, name = 'audio.bin', method: 'POST' | 'PUT' = 'POST', client = s.admin.client) {
  return client.request(method, url, multipart(values, { file: { name, type: 'application/octet-stream', data } }))
}

const storedFile = (url: string) => path.join(s.t.config.mediaDir, url.replace(/^\/media\//, ''))
const soxi = (file: string, flag: string) => execFileSync('soxi', [flag, file]).toString().trim()

function expectTelephonyWav(file: string, seconds: number) {
  expect(existsSync(file)).toBe(true)
  expect(soxi(file, '-t')).toBe('wav')
  expect(soxi(file, '-r')).toBe('8000')
  expect(soxi(file, '-c')).toBe('1')
  expect(soxi(file, '-b')).toBe('16')
  expect(soxi(file, '-e')).toBe('Signed Integer PCM')
  expect(Number(soxi(file, '-D'))).toBeCloseTo(seconds, 0)
}

describe('sound and music uploads', () => {
  let folder = 0
  beforeAll(async () => {
    folder = (await created('/api/v1/pabx/sounds/', { description: 'Pasta de teste', language: 'en-US' })).id
  })

  for (const kind of ['wav', 'mp3', 'ogg', 'opus'] as const) {
    it(`converts a ${kind} upload once to 8 kHz mono 16-bit PCM WAV, whatever its name says`, async () => {
      const response = await upload('/api/v1/pabx/sounds-entries/', { description: `Prompt ${kind}`, sound: folder }, fixtures[kind])
      expect(response.statusCode, response.body).toBe(201)
      const entry = response.json()
      expect(entry.file).toMatch(/^\/media\/pabx-sounds-entries\/[a-f0-9]{32}\.wav$/)
      expectTelephonyWav(storedFile(entry.file), 1.5)
      expect(await resolveSound(s.t.database.db, 1, entry.id)).toBe(storedFile(entry.file))
    })
  }

  it('refuses bytes that are no audio (a PNG named .wav) with 400 on the field, and keeps nothing', async () => {
    const response = await upload('/api/v1/pabx/sounds-entries/', { description: 'Falso', sound: folder }, PNG, 'prompt.wav')
    expect(response.statusCode).toBe(400)
    expect(response.json().file[0]).toMatch(/wav, mp3, ogg/)
  })

  it('refuses audio magic bytes over garbage that no tool decodes, in the request language', async () => {
    const garbage = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(400, 7)])
    const body = multipart({ description: 'Quebrado', sound: folder }, { file: { name: 'x.wav', type: 'audio/wav', data: garbage } })
    const refused = await s.admin.client.request('POST', '/api/v1/pabx/sounds-entries/', {
      payload: body.payload,
      headers: { ...body.headers, 'accept-language': 'en-US' },
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ file: ['This audio cannot be read. Upload a valid wav, mp3 or ogg file.'] })
    const list = (await s.admin.client.get(`/api/v1/pabx/sounds-entries/?sound=${folder}&search=Quebrado`)).json()
    expect(list.count).toBe(0)
  })

  it('answers 413 on the field for a file over the 20 MB limit', async () => {
    const big = Buffer.concat([wavTone(0.1), Buffer.alloc(20 * 1024 * 1024)])
    const response = await upload('/api/v1/pabx/sounds-entries/', { description: 'Enorme', sound: folder }, big, 'big.wav')
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ file: ['O arquivo é maior do que o permitido (20 MB).'] })
  })

  it('plays an mp3 rendition to signed-in holders of the view codename only, and drops both files on replace', async () => {
    const entry = (await upload('/api/v1/pabx/sounds-entries/', { description: 'Tocado', sound: folder }, fixtures.wav)).json()
    const audioPath = `/api/v1/pabx/sounds-entries/${entry.id}/audio/`
    const played = await s.admin.client.get(audioPath)
    expect(played.statusCode).toBe(200)
    expect(played.headers).toMatchObject({ 'content-type': 'audio/mpeg', 'x-content-type-options': 'nosniff' })
    expect(played.headers['content-disposition']).toMatch(/^inline/)
    const mp3 = path.join(work, 'played.mp3')
    await import('node:fs/promises').then((fs) => fs.writeFile(mp3, played.rawPayload))
    expect(soxi(mp3, '-t')).toBe('mp3')
    expect(Number(soxi(mp3, '-D'))).toBeCloseTo(1.5, 0)

    expect((await new TestClient(s.t.app).get(audioPath)).statusCode).toBe(401)
    expect((await s.nobody.get(audioPath)).statusCode).toBe(403)
    expect((await s.otherSite.client.get(audioPath)).statusCode).toBe(404)

    const wavFile = storedFile(entry.file)
    const rendition = path.join(path.dirname(wavFile), 'renditions', `${path.basename(wavFile, '.wav')}.mp3`)
    expect(existsSync(rendition)).toBe(true)
    const replaced = await upload(`/api/v1/pabx/sounds-entries/${entry.id}/`, { description: 'Tocado', sound: folder }, fixtures.mp3, 'b.mp3', 'PUT')
    expect(replaced.statusCode, replaced.body).toBe(200)
    expect(existsSync(wavFile)).toBe(false)
    expect(existsSync(rendition)).toBe(false)
    expect((await s.admin.client.get(audioPath)).statusCode).toBe(200)
  })
})

describe('the sound library', () => {
  it('resolves a prompt of the site only while it and its folder are active', async () => {
    const db = s.t.database.db
    const folder = await created('/api/v1/pabx/sounds/', { description: 'Pasta da biblioteca' })
    const entry = (await upload('/api/v1/pabx/sounds-entries/', { description: 'Saudação', sound: folder.id }, fixtures.wav)).json()
    const file = storedFile(entry.file)
    expect(await resolveSound(db, 1, entry.id)).toBe(file)
    expect(path.isAbsolute(file)).toBe(true)
    expect(await resolveSound(db, 2, entry.id)).toBeNull()
    expect(await resolveSound(db, 1, 999_999)).toBeNull()
    expect(await resolveSound(db, 1, -1)).toBeNull()
    await s.admin.client.patch(`/api/v1/pabx/sounds/${folder.id}/`, { is_active: false })
    expect(await resolveSound(db, 1, entry.id)).toBeNull()
    await s.admin.client.patch(`/api/v1/pabx/sounds/${folder.id}/`, { is_active: true })
    await s.admin.client.patch(`/api/v1/pabx/sounds-entries/${entry.id}/`, { is_active: false })
    expect(await resolveSound(db, 1, entry.id)).toBeNull()
  })

  it("plays a class's active tracks in order, or shuffled when the class says so", async () => {
    const db = s.t.database.db
    const moh = await created('/api/v1/pabx/moh/', { description: 'Classe de teste' })
    const tracks: string[] = []
    // Created out of order: the playlist follows `order`, then id.
    for (const [order, hz] of [
      [2, 330],
      [0, 440],
      [1, 550],
      [3, 660],
    ] as const) {
      const response = await upload('/api/v1/pabx/moh-entries/', { description: `Faixa ${order}`, moh: moh.id, order }, wavTone(0.3, hz))
      expect(response.statusCode, response.body).toBe(201)
      tracks[order] = storedFile(response.json().file)
      expectTelephonyWav(tracks[order]!, 0.3)
    }
    const off = await upload('/api/v1/pabx/moh-entries/', { description: 'Desligada', moh: moh.id, order: 4, is_active: false }, wavTone(0.3))
    expect(off.statusCode).toBe(201)

    expect(await resolveMohPlaylist(db, 1, moh.id)).toEqual(tracks)
    expect(await resolveMohPlaylist(db, 2, moh.id)).toEqual([])

    await s.admin.client.patch(`/api/v1/pabx/moh/${moh.id}/`, { shuffle: true })
    const orders = new Set<string>()
    for (let i = 0; i < 30; i++) {
      const playlist = await resolveMohPlaylist(db, 1, moh.id)
      expect([...playlist].sort()).toEqual([...tracks].sort())
      orders.add(playlist.join('|'))
    }
    // 24 possible orders: 30 shuffles giving the same one is (1/24)^29.
    expect(orders.size).toBeGreaterThan(1)

    await s.admin.client.patch(`/api/v1/pabx/moh/${moh.id}/`, { is_active: false })
    expect(await resolveMohPlaylist(db, 1, moh.id)).toEqual([])

    const played = await s.admin.client.get(`/api/v1/pabx/moh-entries/${(off.json() as { id: number }).id}/audio/`)
    expect(played.statusCode).toBe(200)
  })

  it('shuffles uniformly (Fisher–Yates with the given source)', () => {
    expect(shuffled([1, 2, 3, 4], (n) => n - 1)).toEqual([1, 2, 3, 4])
    expect(shuffled([1, 2, 3, 4], () => 0)).toEqual([2, 3, 4, 1])
  })
})

describe('a sound entry as an announcement (announce.<id>)', () => {
  it('plays the prompt, then the caller continues to its "then" destination; none, or another site\'s entry, hangs up', async () => {
    const folder = (await created('/api/v1/pabx/sounds/', { description: 'Anúncios', language: 'pt-BR' })).id
    const queue = (await s.admin.client.get('/api/v1/pabx/queues/?limit=1')).json().results[0].id as number
    const onward = await upload('/api/v1/pabx/sounds-entries/', { description: 'Aviso', sound: folder, then: { app: 'queue', appdata: queue } }, fixtures.wav)
    expect(onward.statusCode, onward.body).toBe(201)
    expect(onward.json()).toMatchObject({ then: { app: 'queue', appdata: queue } })
    const last = (await upload('/api/v1/pabx/sounds-entries/', { description: 'Último aviso', sound: folder }, fixtures.wav)).json()
    // A destination that is not one: refused on the field.
    const bad = await upload('/api/v1/pabx/sounds-entries/', { description: 'Torto', sound: folder, then: { app: 'queue', appdata: 999999 } }, fixtures.wav)
    expect(bad.statusCode).toBe(400)

    const run = async (siteId: number, soundId: number) => {
      const seen: string[] = []
      const actor: { current: AnyActorRef | null } = { current: null }
      const call = {
        db: s.t.database.db,
        siteId,
        play: (files: string[]) => seen.push(`play ${files.length}`),
        hangup: () => seen.push('hangup'),
        goTo: (app: string, appdata: string) => seen.push(`goTo ${app}.${appdata}`),
        setActor: (a: AnyActorRef) => (actor.current = a),
      } as unknown as MediaCall
      await enterAnnounce(call, soundId, await announceThen(s.t.database.db, siteId, soundId))
      expect(seen).toEqual(['play 1'])
      actor.current!.send({ type: 'PLAYED' })
      await vi.waitFor(() => expect(seen).toHaveLength(2))
      return seen[1]
    }
    expect(await run(1, onward.json().id)).toBe(`goTo queue.${queue}`)
    expect(await run(1, last.id)).toBe('hangup')
    expect(await announceThen(s.t.database.db, 999, onward.json().id)).toBeNull()
  })
})
