import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

// Authenticity of what Meta sends (WHATSAPP.md §A1.1–A1.2): the POST body's `X-Hub-Signature-256`, an HMAC-SHA256 of
// the raw bytes with the app secret, and the GET handshake's `hub.verify_token`. Both compared in constant time.

const PREFIX = 'sha256='

/** Hex HMAC-SHA256 of the raw bytes with the app secret. */
export function signBody(body: Uint8Array | string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(body).digest('hex')
}

/** The header value Meta would send for this body (used by tests and the simulator). */
export function signatureHeader(body: Uint8Array | string, appSecret: string): string {
  return PREFIX + signBody(body, appSecret)
}

/**
 * Whether `header` is `sha256=<hex>` of exactly these raw bytes under `appSecret`. A missing or malformed header, an
 * empty secret or a different length fail before timingSafeEqual (which throws on unequal lengths).
 */
export function verifySignature(rawBody: Uint8Array | string, header: string | string[] | undefined, appSecret: string | null | undefined): boolean {
  if (!appSecret || typeof header !== 'string' || !header.startsWith(PREFIX)) return false
  const hex = header.slice(PREFIX.length).trim().toLowerCase()
  if (!/^[0-9a-f]{64}$/.test(hex)) return false
  const given = Buffer.from(hex, 'hex')
  const expected = createHmac('sha256', appSecret).update(rawBody).digest()
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * The GET verification: the challenge to echo when `hub.mode=subscribe` and the token matches, otherwise null (403).
 * Both tokens are hashed first so the comparison takes the same time whatever their lengths.
 */
export function verifyHandshake(query: Record<string, unknown>, verifyToken: string | null | undefined): string | null {
  const mode = query['hub.mode']
  const token = query['hub.verify_token']
  const challenge = query['hub.challenge']
  if (!verifyToken || mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null
  const a = createHash('sha256').update(token).digest()
  const b = createHash('sha256').update(verifyToken).digest()
  return timingSafeEqual(a, b) ? challenge : null
}
