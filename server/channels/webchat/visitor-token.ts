import { createHmac, randomUUID } from 'node:crypto'
import { safeEqual } from '../../auth/keys.ts'

// A visitor token: `<payload>.<signature>`, both base64url; the payload is JSON {c: channel id, v: visitor id,
// e: expiry (Unix seconds), p: [name, e-mail, phone] of the pre-chat form}, the signature HMAC-SHA256 over the payload text with the channel's own key
// (secret.ts). So a token is only good for the channel that issued it: a forged or altered one fails the signature
// (401), an expired one its date (401), another channel's names the wrong channel (403). Nothing is stored: the token
// is the session (the widget keeps it in localStorage and resumes the conversation with it after a reload).

export const VISITOR_TOKEN_DAYS = 30

export type VisitorProfile = { name: string; email: string; phone: string }

export type VisitorClaims = { channelId: number; visitorId: string; expiresAt: number; profile: VisitorProfile }

const NO_PROFILE: VisitorProfile = { name: '', email: '', phone: '' }

export type TokenCheck = { ok: true; claims: VisitorClaims } | { ok: false; status: 401 | 403 }

export function signVisitorToken(
  key: Buffer,
  channelId: number,
  now = Date.now(),
  profile: VisitorProfile = NO_PROFILE,
  visitorId: string = randomUUID(),
): { token: string; claims: VisitorClaims } {
  const claims: VisitorClaims = { channelId, visitorId, expiresAt: Math.floor(now / 1000) + VISITOR_TOKEN_DAYS * 86_400, profile }
  const p = [profile.name, profile.email, profile.phone]
  const payload = Buffer.from(JSON.stringify({ c: claims.channelId, v: claims.visitorId, e: claims.expiresAt, p })).toString('base64url')
  return { token: `${payload}.${sign(key, payload)}`, claims }
}

export function verifyVisitorToken(key: (channelId: number) => Buffer, channelId: number, token: string, now = Date.now()): TokenCheck {
  const match = /^([A-Za-z0-9_-]{10,1400})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) return { ok: false, status: 401 }
  const [, payload, signature] = match as unknown as [string, string, string]
  let claims: { c?: unknown; v?: unknown; e?: unknown; p?: unknown }
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims
  } catch {
    return { ok: false, status: 401 }
  }
  if (!claims || typeof claims !== 'object') return { ok: false, status: 401 }
  const { c, v, e, p } = claims
  if (typeof c !== 'number' || !Number.isInteger(c) || typeof v !== 'string' || !/^[0-9a-f-]{36}$/.test(v) || typeof e !== 'number') {
    return { ok: false, status: 401 }
  }
  // Signed by the channel it names? Else forged (401). Then: is that channel this one? Else 403.
  if (!safeEqual(signature, sign(key(c), payload))) return { ok: false, status: 401 }
  if (e * 1000 <= now) return { ok: false, status: 401 }
  if (c !== channelId) return { ok: false, status: 403 }
  const [name, email, phone] = Array.isArray(p) && p.every((x) => typeof x === 'string') ? (p as string[]) : []
  return { ok: true, claims: { channelId: c, visitorId: v, expiresAt: e, profile: { name: name ?? '', email: email ?? '', phone: phone ?? '' } } }
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url')
}
