import type { Locale } from '../../contract/locales.ts'
import { detailError } from '../errors/http-error.ts'
import type { Counter, ThrottleStore } from './throttle-store.ts'

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

/**
 * Counts a password attempt; throws 429 with Retry-After when either limit is already used up. The address is
 * counted first: an attempt refused for its address never reaches the account's counter, so a flood from one address
 * cannot lock its victims' accounts. An attempt refused for the account still counts against its address.
 */
export async function beginPasswordAttempt(store: ThrottleStore, attempt: AttemptKeys, lang: Locale): Promise<Attempt> {
  const keys = keysOf(attempt)
  const ip = await store.hit(keys.ip, LOGIN_THROTTLE.windowMs)
  if (ip.count > LOGIN_THROTTLE.perIp) throw tooMany(ip, lang)
  const account = await store.hit(keys.account, LOGIN_THROTTLE.windowMs)
  if (account.count > LOGIN_THROTTLE.perAccount) throw tooMany(account, lang)
  return {
    async succeeded() {
      await Promise.all([store.reset(keys.account), store.undo(keys.ip)])
    },
  }
}

function tooMany(counter: Counter, lang: Locale) {
  const seconds = Math.max(1, Math.ceil(counter.resetInMs / 1000))
  return detailError(429, 'tooManyAttempts', lang, { n: seconds }, { 'Retry-After': String(seconds) })
}
