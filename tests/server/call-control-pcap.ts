import { encodeALaw, encodeMuLaw } from '../../server/telephony/control/recordings/g711.ts'

/** A pcap (Ethernet/IPv4/UDP/RTP, as rtpengine's eth format) of G.711 tones, one stream per leg. */
export function buildPcap(
  legs: {
    ssrc: number
    payloadType: 0 | 8
    hz: number
    startSeconds: number
    seconds: number
    firstTimestamp: number
  }[],
): Buffer {
  const header = Buffer.alloc(24)
  header.writeUInt32LE(0xa1b2c3d4, 0)
  header.writeUInt16LE(2, 4)
  header.writeUInt16LE(4, 6)
  header.writeUInt32LE(65535, 16)
  header.writeUInt32LE(1, 20)
  const records: { time: number; frame: Buffer }[] = []
  for (const leg of legs) {
    const frames = Math.round(leg.seconds * 50)
    for (let f = 0; f < frames; f++) {
      const payload = Buffer.alloc(160)
      for (let i = 0; i < 160; i++) {
        const sample = 8000 * Math.sin((2 * Math.PI * leg.hz * (f * 160 + i)) / 8000)
        payload[i] = leg.payloadType === 0 ? encodeMuLaw(sample) : encodeALaw(sample)
      }
      const rtp = Buffer.alloc(12)
      rtp[0] = 0x80
      rtp[1] = leg.payloadType
      rtp.writeUInt16BE(f & 0xffff, 2)
      rtp.writeUInt32BE((leg.firstTimestamp + f * 160) >>> 0, 4)
      rtp.writeUInt32BE(leg.ssrc, 8)
      const udp = Buffer.alloc(8)
      udp.writeUInt16BE(30000, 0)
      udp.writeUInt16BE(30002, 2)
      udp.writeUInt16BE(8 + 12 + 160, 4)
      const ip = Buffer.alloc(20)
      ip[0] = 0x45
      ip.writeUInt16BE(20 + 8 + 12 + 160, 2)
      ip[8] = 64
      ip[9] = 17
      ip.set([127, 0, 0, 1], 12)
      ip.set([127, 0, 0, 1], 16)
      const eth = Buffer.alloc(14)
      eth.writeUInt16BE(0x0800, 12)
      records.push({
        time: 1_700_000_000 + leg.startSeconds + f * 0.02,
        frame: Buffer.concat([eth, ip, udp, rtp, payload]),
      })
    }
  }
  records.sort((a, b) => a.time - b.time)
  const parts: Buffer[] = [header]
  for (const { time, frame } of records) {
    const rec = Buffer.alloc(16)
    rec.writeUInt32LE(Math.floor(time), 0)
    rec.writeUInt32LE(Math.round((time % 1) * 1e6), 4)
    rec.writeUInt32LE(frame.length, 8)
    rec.writeUInt32LE(frame.length, 12)
    parts.push(rec, frame)
  }
  return Buffer.concat(parts)
}
