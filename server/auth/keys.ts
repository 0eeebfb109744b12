import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 256 random bits, URL-safe: session ids, API tokens, CSRF tokens. */
export function randomKey(): string {
  return randomBytes(32).toString('base64url')
}

/** What the database keeps of a credential: its SHA-256, so a leaked table signs no one in. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/** Comparison whose time does not depend on where the strings first differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** A key this server could have issued (keeps junk out of queries and cookies). */
export function looksLikeKey(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value)
}
