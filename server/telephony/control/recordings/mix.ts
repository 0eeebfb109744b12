import { decodePayload } from './g711.ts'
import type { RtpPacket } from './pcap.ts'

// The legs of a call (one RTP stream per SSRC) decoded from G.711 and mixed into one 8 kHz 16-bit mono track. Each
// leg starts where its first packet was captured (relative to the call's first packet) and every packet sits at its
// RTP timestamp, so gaps stay silent and late packets land where they belong. Other codecs are skipped.

export const SAMPLE_RATE = 8000

export type Leg = { ssrc: number; payloadType: number; packets: number }

export function mixLegs(packets: readonly RtpPacket[]): {
  pcm: Int16Array
  legs: Leg[]
} {
  const g711 = packets.filter((p) => p.payloadType === 0 || p.payloadType === 8)
  if (g711.length === 0) return { pcm: new Int16Array(0), legs: [] }
  const firstTime = Math.min(...g711.map((p) => p.time))
  const bySsrc = new Map<number, RtpPacket[]>()
  for (const p of g711) {
    const list = bySsrc.get(p.ssrc)
    if (list) list.push(p)
    else bySsrc.set(p.ssrc, [p])
  }
  const placed: { at: number; samples: Int16Array }[] = []
  const legs: Leg[] = []
  for (const [ssrc, list] of bySsrc) {
    const first = list.reduce((a, b) => (b.time < a.time ? b : a))
    const legStart = Math.round((first.time - firstTime) * SAMPLE_RATE)
    for (const p of list) {
      // Timestamp difference modulo 2^32, signed (a packet slightly older than the first one lands before it).
      let delta = (p.timestamp - first.timestamp) >>> 0
      if (delta > 0x7fffffff) delta -= 0x100000000
      const samples = decodePayload(p.payloadType, p.payload)
      if (!samples) continue
      // A jump of more than an hour is a broken stream, not audio to place.
      if (Math.abs(delta) > SAMPLE_RATE * 3600) continue
      placed.push({ at: legStart + delta, samples })
    }
    legs.push({ ssrc, payloadType: first.payloadType, packets: list.length })
  }
  const start = Math.min(0, ...placed.map((p) => p.at))
  const length = Math.max(...placed.map((p) => p.at - start + p.samples.length))
  const sum = new Int32Array(length)
  for (const { at, samples } of placed) {
    const base = at - start
    for (let i = 0; i < samples.length; i++) sum[base + i]! += samples[i]!
  }
  const pcm = new Int16Array(length)
  for (let i = 0; i < length; i++) pcm[i] = Math.max(-32768, Math.min(32767, sum[i]!))
  return { pcm, legs }
}

/** A WAV file (RIFF, PCM 16-bit mono) of the samples. */
export function wavFile(pcm: Int16Array, rate = SAMPLE_RATE): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}
