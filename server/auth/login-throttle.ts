import type { Locale } from '../../contract/locales.ts'
import { detailError } from '../errors/http-error.ts'
import type { ThrottleStore } from './throttle-store.ts'

// Password guessing is limited per account and per client address. Every attempt counts before the password is
// checked (so parallel guesses cannot slip past the limit); a success clears the account and takes back its own hit
// on the address, so colleagues behind one NAT do not lock each other out.
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  perAccount: 5,
  perIp: 20,
} as const

export type AttemptKeys = { ip: string; siteId: number | null; username: string }

export type Attempt = { succeeded(): Promise<void> }

function keysOf({ ip, siteId, username }: AttemptKeys) {
  // Lower-cased so that case variations of a username share one counter.
  return { ip: `login:ip:${ip}`, account: `login:account:${siteId ?? 0}:${username.trim().toLowerCase()}` }
}

/** Counts a password attempt; throws 429 with Retry-After when either limit is already used up. */
export async function beginPasswordAttempt(store: ThrottleStore, attempt: AttemptKeys, lang: Locale): Promise<Attempt> {
  const keys = keysOf(attempt)
  const [ip, account] = await Promise.all([
    store.hit(keys.ip, LOGIN_THROTTLE.windowMs),
    store.hit(keys.account, LOGIN_THROTTLE.windowMs),
  ])
  const blocked = [
    ip.count > LOGIN_THROTTLE.perIp ? ip : null,
    account.count > LOGIN_THROTTLE.perAccount ? account : null,
  ].filter((c) => c !== null)
  if (blocked.length > 0) {
    const seconds = Math.max(1, Math.ceil(Math.max(...blocked.map((c) => c.resetInMs)) / 1000))
    throw detailError(429, 'tooManyAttempts', lang, { n: seconds }, { 'Retry-After': String(seconds) })
  }
  return {
    async succeeded() {
      await Promise.all([store.reset(keys.account), store.undo(keys.ip)])
    },
  }
}
