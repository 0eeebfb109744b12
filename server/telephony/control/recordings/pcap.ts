// rtpengine's pcap recordings (recording-method=pcap, recording-format=eth: Ethernet/IP/UDP/RTP, decrypted, every
// leg's packets toward rtpengine in one file per call). Parsed here without tools: the pcap records, then the link
// layer (Ethernet, Linux cooked, raw IP or BSD loopback), IPv4/IPv6, UDP and the RTP header.

export type RtpPacket = {
  /** Capture time, seconds. */
  time: number
  ssrc: number
  payloadType: number
  sequence: number
  timestamp: number
  payload: Uint8Array
}

function linkOffset(linkType: number, frame: Buffer): number | null {
  switch (linkType) {
    case 1: {
      // Ethernet, possibly with one 802.1Q tag.
      const type = frame.readUInt16BE(12)
      return type === 0x8100 ? 18 : 14
    }
    case 113:
      return 16
    case 0:
      return 4
    case 101:
    case 12:
    case 14:
      return 0
    default:
      return null
  }
}

function udpPayload(frame: Buffer, at: number): Buffer | null {
  if (frame.length < at + 1) return null
  const version = frame[at]! >> 4
  let udp: number
  if (version === 4) {
    if (frame[at + 9] !== 17) return null
    udp = at + (frame[at]! & 0x0f) * 4
  } else if (version === 6) {
    if (frame[at + 6] !== 17) return null
    udp = at + 40
  } else return null
  if (frame.length < udp + 8) return null
  const length = frame.readUInt16BE(udp + 4)
  return frame.subarray(udp + 8, Math.min(frame.length, udp + Math.max(8, length)))
}

export function parseRtp(data: Buffer, time: number): RtpPacket | null {
  if (data.length < 12 || data[0]! >> 6 !== 2) return null
  const csrcCount = data[0]! & 0x0f
  const hasExtension = (data[0]! & 0x10) !== 0
  const hasPadding = (data[0]! & 0x20) !== 0
  const payloadType = data[1]! & 0x7f
  // RTCP (payload types 72-76 with the marker bit) shares the port under rtcp-mux.
  if (payloadType >= 72 && payloadType <= 76) return null
  let offset = 12 + csrcCount * 4
  if (hasExtension) {
    if (data.length < offset + 4) return null
    offset += 4 + data.readUInt16BE(offset + 2) * 4
  }
  let end = data.length
  if (hasPadding) end -= data[data.length - 1]!
  if (offset > end) return null
  return {
    time,
    ssrc: data.readUInt32BE(8),
    payloadType,
    sequence: data.readUInt16BE(2),
    timestamp: data.readUInt32BE(4),
    payload: new Uint8Array(data.subarray(offset, end)),
  }
}

/** Every RTP packet of a pcap file's bytes; throws on a file that is not pcap. */
export function readPcap(file: Buffer): RtpPacket[] {
  if (file.length < 24) throw new Error('not a pcap file')
  const magic = file.readUInt32LE(0)
  let little: boolean
  let nano = false
  if (magic === 0xa1b2c3d4 || magic === 0xa1b23c4d) little = true
  else if (magic === 0xd4c3b2a1 || magic === 0x4d3cb2a1) little = false
  else throw new Error('not a pcap file')
  nano = magic === 0xa1b23c4d || magic === 0x4d3cb2a1
  const u32 = (at: number) => (little ? file.readUInt32LE(at) : file.readUInt32BE(at))
  const linkType = u32(20) & 0x0fffffff
  const packets: RtpPacket[] = []
  let at = 24
  while (at + 16 <= file.length) {
    const seconds = u32(at)
    const fraction = u32(at + 4)
    const captured = u32(at + 8)
    const start = at + 16
    at = start + captured
    if (at > file.length) break
    const frame = file.subarray(start, at)
    const offset = linkOffset(linkType, frame)
    if (offset === null) continue
    const udp = udpPayload(frame, offset)
    if (!udp) continue
    const rtp = parseRtp(udp, seconds + fraction / (nano ? 1e9 : 1e6))
    if (rtp) packets.push(rtp)
  }
  return packets
}
