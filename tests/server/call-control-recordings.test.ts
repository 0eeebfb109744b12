import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ALAW_TO_LINEAR, MULAW_TO_LINEAR, decodePayload, encodeALaw, encodeMuLaw } from '../../server/telephony/control/recordings/g711.ts'
import { mixLegs, wavFile } from '../../server/telephony/control/recordings/mix.ts'
import { readPcap } from '../../server/telephony/control/recordings/pcap.ts'
import { pcapsOf, recordingFile } from '../../server/telephony/control/recordings/store.ts'
import { buildPcap } from './call-control-pcap.ts'

/** The strength of one frequency in a stretch of samples (Goertzel), normalised to the stretch. */
function power(pcm: Int16Array, from: number, to: number, hz: number): number {
  const k = (2 * Math.PI * hz) / 8000
  let s1 = 0
  let s2 = 0
  for (let i = from; i < to; i++) {
    const s0 = pcm[i]! + 2 * Math.cos(k) * s1 - s2
    s2 = s1
    s1 = s0
  }
  return Math.sqrt(s1 * s1 + s2 * s2 - 2 * Math.cos(k) * s1 * s2) / (to - from)
}

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('G.711', () => {
  it('decodes μ-law and A-law to the ITU values', () => {
    expect(MULAW_TO_LINEAR[0xff]).toBe(0)
    expect(MULAW_TO_LINEAR[0x7f]).toBe(0)
    expect(MULAW_TO_LINEAR[0x00]).toBe(-32124)
    expect(MULAW_TO_LINEAR[0x80]).toBe(32124)
    expect(MULAW_TO_LINEAR[0xf0]).toBe(120)
    expect(MULAW_TO_LINEAR[0x70]).toBe(-120)
    expect(ALAW_TO_LINEAR[0xd5]).toBe(8)
    expect(ALAW_TO_LINEAR[0x55]).toBe(-8)
    expect(ALAW_TO_LINEAR[0xaa]).toBe(32256)
    expect(ALAW_TO_LINEAR[0x2a]).toBe(-32256)
    expect(decodePayload(9, new Uint8Array([1]))).toBeNull()
  })

  it('round-trips through the encoders within the quantisation step', () => {
    for (const sample of [0, 100, -100, 1000, -1000, 12345, -30000]) {
      const mu = MULAW_TO_LINEAR[encodeMuLaw(sample)]!
      const a = ALAW_TO_LINEAR[encodeALaw(sample)]!
      expect(Math.abs(mu - sample)).toBeLessThanOrEqual(Math.max(8, Math.abs(sample) / 16))
      expect(Math.abs(a - sample)).toBeLessThanOrEqual(Math.max(16, Math.abs(sample) / 16))
    }
  })
})

describe('the pcap converter', () => {
  const pcap = buildPcap([
    // The caller: 440 Hz PCMU for 2 s; the agent: 1000 Hz PCMA starting 1 s later, its RTP clock near the wrap.
    {
      ssrc: 0x1111,
      payloadType: 0,
      hz: 440,
      startSeconds: 0,
      seconds: 2,
      firstTimestamp: 5000,
    },
    {
      ssrc: 0x2222,
      payloadType: 8,
      hz: 1000,
      startSeconds: 1,
      seconds: 2,
      firstTimestamp: 0xffffff00,
    },
  ])

  it('reads every RTP packet with its stream', () => {
    const packets = readPcap(pcap)
    expect(packets).toHaveLength(200)
    expect(new Set(packets.map((p) => p.ssrc))).toEqual(new Set([0x1111, 0x2222]))
    expect(packets[0]).toMatchObject({ payloadType: 0, ssrc: 0x1111 })
    expect(packets[0]!.payload).toHaveLength(160)
    expect(() => readPcap(Buffer.from('not a capture at all'))).toThrow(/not a pcap/)
  })

  it('mixes the legs on one timeline: the caller alone, both, then the agent alone', () => {
    const { pcm, legs } = mixLegs(readPcap(pcap))
    expect(legs.map((l) => [l.ssrc, l.packets])).toEqual([
      [0x1111, 100],
      [0x2222, 100],
    ])
    expect(pcm.length).toBe(3 * 8000)
    const first = [power(pcm, 2000, 6000, 440), power(pcm, 2000, 6000, 1000)]
    const middle = [power(pcm, 10_000, 14_000, 440), power(pcm, 10_000, 14_000, 1000)]
    const last = [power(pcm, 18_000, 22_000, 440), power(pcm, 18_000, 22_000, 1000)]
    expect(first[0]).toBeGreaterThan(1000)
    expect(first[1]).toBeLessThan(100)
    expect(middle[0]).toBeGreaterThan(1000)
    expect(middle[1]).toBeGreaterThan(1000)
    expect(last[0]).toBeLessThan(100)
    expect(last[1]).toBeGreaterThan(1000)
    const wav = wavFile(pcm)
    expect(wav.subarray(0, 4).toString()).toBe('RIFF')
    expect(wav.readUInt32LE(24)).toBe(8000)
    expect(wav.length).toBe(44 + pcm.length * 2)
  })

  it("finds a call's pcaps by name only and makes a non-silent mp3 once", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-rec-'))
    dirs.push(dir)
    await mkdir(path.join(dir, 'pcaps'))
    // As rtpengine names them: the URI-escaped call id, '-', a random hex tag.
    await writeFile(path.join(dir, 'pcaps', 'abc%40host-1a2b3c4d5e6f7a8b.pcap'), pcap)
    await writeFile(path.join(dir, 'pcaps', 'abcd%40host-9999aaaabbbbcccc.pcap'), pcap)
    // Another call whose id starts with this one's and a '-': never found by a prefix.
    await writeFile(path.join(dir, 'pcaps', 'abc%40host-2-00112233aabbccdd.pcap'), pcap)
    expect(await pcapsOf(dir, 'abc@host')).toEqual([path.join(dir, 'pcaps', 'abc%40host-1a2b3c4d5e6f7a8b.pcap')])
    expect(await pcapsOf(dir, 'abc@host-2')).toEqual([path.join(dir, 'pcaps', 'abc%40host-2-00112233aabbccdd.pcap')])
    expect(await pcapsOf(dir, 'abc%40host')).toEqual([])
    expect(await pcapsOf(dir, 'abc')).toEqual([])
    expect(await pcapsOf(dir, '../x')).toEqual([])
    expect(await recordingFile(dir, 'missing@host', 'mp3')).toBeNull()
    const wav = await recordingFile(dir, 'abc@host', 'wav')
    expect((await readFile(wav!)).length).toBe(44 + 3 * 8000 * 2)
    const mp3 = await recordingFile(dir, 'abc@host', 'mp3')
    const bytes = await readFile(mp3!)
    // An MPEG audio frame sync (or an ID3 tag) and a few KB for 3 s at 32 kbit/s.
    expect(bytes.subarray(0, 3).toString() === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)).toBe(true)
    expect(bytes.length).toBeGreaterThan(6000)
    expect(await recordingFile(dir, 'abc@host', 'mp3')).toBe(mp3)
  })
})
