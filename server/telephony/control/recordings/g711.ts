// G.711 (ITU-T G.711) μ-law (PCMU, RTP payload type 0) and A-law (PCMA, type 8) ↔ 16-bit linear PCM, as tables.

function decodeMuLaw(byte: number): number {
  const u = ~byte & 0xff
  const exponent = (u >> 4) & 0x07
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exponent) - 0x84
  return u & 0x80 ? -magnitude : magnitude
}

function decodeALaw(byte: number): number {
  const a = byte ^ 0x55
  const exponent = (a >> 4) & 0x07
  const mantissa = a & 0x0f
  const magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1)
  return a & 0x80 ? magnitude : -magnitude
}

export const MULAW_TO_LINEAR = Int16Array.from({ length: 256 }, (_, i) => decodeMuLaw(i))
export const ALAW_TO_LINEAR = Int16Array.from({ length: 256 }, (_, i) => decodeALaw(i))

/** PCM → μ-law (used to build test streams and prompts). */
export function encodeMuLaw(sample: number): number {
  const BIAS = 0x84
  let s = Math.max(-32635, Math.min(32635, Math.round(sample)))
  const sign = s < 0 ? 0x80 : 0
  if (s < 0) s = -s
  s += BIAS
  let exponent = 7
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--
  const mantissa = (s >> (exponent + 3)) & 0x0f
  return ~(sign | (exponent << 4) | mantissa) & 0xff
}

/** PCM → A-law. */
export function encodeALaw(sample: number): number {
  let s = Math.max(-32767, Math.min(32767, Math.round(sample)))
  const sign = s >= 0 ? 0x80 : 0
  if (s < 0) s = -s - 1
  let exponent = 7
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--
  const mantissa = exponent === 0 ? (s >> 4) & 0x0f : (s >> (exponent + 3)) & 0x0f
  return (sign | (exponent << 4) | mantissa) ^ 0x55
}

export function decodePayload(payloadType: number, bytes: Uint8Array): Int16Array | null {
  const table = payloadType === 0 ? MULAW_TO_LINEAR : payloadType === 8 ? ALAW_TO_LINEAR : null
  if (!table) return null
  const out = new Int16Array(bytes.length)
  for (let i = 0; i < bytes.length; i++) out[i] = table[bytes[i]!]!
  return out
}
