import { parsePhoneNumberFromString } from 'libphonenumber-js'
import type { CountryCode } from 'libphonenumber-js'

// The one phone normaliser of the product (chat contacts, CRM clients and leads, the number a call rang from): E.164.
// Brazil's ninth digit is folded in, so a mobile written with or without it is the same number (WhatsApp ids of
// accounts made before 2016 lack it; old address books too). Pure: read by the server and the SPA alike.

export type { CountryCode }

export type PhoneOptions = {
  /** How a number typed without its country code is read ('BR': (11) 98765-4321). Without one, digits are international. */
  readonly defaultCountry?: CountryCode
}

/** The country numbers without a country code are read in unless a caller says otherwise. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'BR'

/** A Brazilian mobile without its ninth digit: 55 + DDD (2 digits, 11–99) + 8 digits starting 6–9. */
const BRAZIL_MOBILE_WITHOUT_NINE = /^55([1-9][1-9])([6-9]\d{7})$/
/** A Brazilian national number: DDD + a 9-digit mobile (9…) or 8 digits (landline 2–5, or a mobile missing its nine). */
const BRAZIL_NATIONAL = /^([1-9][1-9])(9\d{8}|[2-9]\d{7})$/
/**
 * A Brazilian number libphonenumber gives back digit for digit (a mobile with its nine, a landline 2–5): read without
 * parsing it, which is most of the cost of normalising a million leads (issue 17). Checked against libphonenumber
 * for every DDD in tests/server/crm/normalise.test.ts.
 */
export const BRAZIL_PLAIN = /^55[1-9][1-9](?:9\d{8}|[2-5]\d{7})$/

function international(digits: string): string {
  const nine = BRAZIL_MOBILE_WITHOUT_NINE.exec(digits)
  if (nine) return `55${nine[1]}9${nine[2]}`
  if (BRAZIL_PLAIN.test(digits)) return digits
  const parsed = parsePhoneNumberFromString(`+${digits}`)
  if (parsed?.isPossible()) return parsed.number.slice(1)
  return digits
}

function national(digits: string, country: CountryCode): string | undefined {
  if (country === 'BR') {
    // A leading 0 is the long-distance prefix ((0xx11) 3322-1100); a carrier code (0 + 2 digits) too.
    const local = digits.replace(/^0(?:[1-9]{2}(?=[1-9]{2}\d{8,9}$))?/, '')
    const match = BRAZIL_NATIONAL.exec(local)
    return match ? international(`55${match[1]}${match[2]}`) : undefined
  }
  const parsed = parsePhoneNumberFromString(digits, country)
  return parsed?.isValid() ? parsed.number.slice(1) : undefined
}

/**
 * E.164 digits without '+' ('5511987654321'), '' when the text holds no digit. A number with '+' or '00' in front is
 * international; otherwise, with a default country, a valid national number of that country is read as one.
 * Anything unparseable keeps its digits, so the same text always gives the same key.
 */
export function canonicalPhone(raw: string, options: PhoneOptions = {}): string {
  const trimmed = raw.trim()
  const explicit = trimmed.startsWith('+') || trimmed.startsWith('00')
  const digits = trimmed.replace(/\D/g, '').replace(explicit && !trimmed.startsWith('+') ? /^00/ : /^$/, '')
  if (!digits) return ''
  if (!explicit && options.defaultCountry) {
    const local = national(digits, options.defaultCountry)
    if (local) return local
  }
  return international(digits)
}

/** '+5511987654321', '' when the text holds no digit (what CRM records store and compare). */
export function e164(raw: string, options: PhoneOptions = { defaultCountry: DEFAULT_PHONE_COUNTRY }): string {
  const digits = canonicalPhone(raw, options)
  return digits ? `+${digits}` : ''
}
