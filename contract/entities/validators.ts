import { INTERNAL_EXTENSION_MAX, INTERNAL_EXTENSION_MIN } from '../codes/index.ts'
import type { Validation } from './types.ts'

// Pure checks behind the fields' `validation`. Each takes the (trimmed, non-empty) text the user typed.

const SEPARATORS = /[\s().\-/]/g

function digitsOnly(value: string): string {
  return value.replace(SEPARATORS, '')
}

/** CPF: 11 digits, not all equal, two mod-11 check digits. Dots and dash allowed. */
export function isCpf(value: string): boolean {
  const cpf = digitsOnly(value)
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false
  const digit = (length: number) => {
    let sum = 0
    for (let i = 0; i < length; i++) sum += Number(cpf[i]) * (length + 1 - i)
    return ((sum * 10) % 11) % 10
  }
  return digit(9) === Number(cpf[9]) && digit(10) === Number(cpf[10])
}

/**
 * CNPJ: 14 characters, two mod-11 check digits. The 12 base characters may be letters (the alphanumeric CNPJ the
 * Receita Federal issues from July 2026); each character counts as its char code minus 48, so digits keep their value.
 */
export function isCnpj(value: string): boolean {
  const cnpj = digitsOnly(value).toUpperCase()
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(.)\1{13}$/.test(cnpj)) return false
  const digit = (length: number) => {
    let sum = 0
    for (let i = 0; i < length; i++) sum += (cnpj.charCodeAt(i) - 48) * (((length - 1 - i) % 8) + 2)
    const rest = sum % 11
    return rest < 2 ? 0 : 11 - rest
  }
  return digit(12) === Number(cnpj[12]) && digit(13) === Number(cnpj[13])
}

/** A CPF (11 digits) or a CNPJ (14 characters), each with its check digits. */
export function isCpfOrCnpj(value: string): boolean {
  return isCpf(value) || isCnpj(value)
}

/** The stored form of a document: its digits (and a new CNPJ's letters), upper case, without dots, dashes or slashes. */
export function documentKey(value: string): string {
  return value.replace(/[^0-9a-z]/gi, '').toUpperCase()
}

/** Any phone number a person would type: an optional +, 8 to 15 digits, common separators. */
export function isPhone(value: string): boolean {
  return /^\+?\d{8,15}$/.test(digitsOnly(value))
}

/**
 * A complete number for blocklists (spec 000 §5): country code, area code and number. Brazil (55): a valid DDD
 * (two digits 1-9) and 8 digits (landline, 2-8) or 9 digits (mobile, 9…); NANP (1): 3-digit area code and 7 digits,
 * each starting 2-9; other countries: 12 to 15 digits in all. Without a country code a Brazilian number is refused.
 */
export function isCompletePhone(value: string): boolean {
  const phone = digitsOnly(value).replace(/^\+/, '')
  if (!/^[1-9]\d+$/.test(phone)) return false
  if (phone.startsWith('55')) return /^55[1-9]{2}(?:9\d{8}|[2-8]\d{7})$/.test(phone)
  if (phone.startsWith('1')) return /^1[2-9]\d{2}[2-9]\d{6}$/.test(phone)
  return phone.length >= 12 && phone.length <= 15
}

/** The entries of a comma-separated phone list that are not complete numbers (empty entries included, as ''). */
export function invalidPhones(list: string): string[] {
  return list
    .split(',')
    .map((p) => p.trim())
    .filter((p) => !isCompletePhone(p))
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(value)
}

/** An internal extension: exactly 5 digits, 10000-99999 (spec 000 §9). */
export function isExtension(value: string): boolean {
  return /^\d{5}$/.test(value) && Number(value) >= INTERNAL_EXTENSION_MIN && Number(value) <= INTERNAL_EXTENSION_MAX
}

export function isColor(value: string): boolean {
  return /^#[0-9a-f]{6}$/i.test(value)
}

export function isUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false
  try {
    return new URL(value).hostname !== ''
  } catch {
    return false
  }
}

/** A web origin and nothing more: http(s)://host[:port], no path, query or credentials ('https://crm.example.com'). */
export function isOrigin(value: string): boolean {
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(value)) return false
  try {
    const url = new URL(value)
    return url.hostname !== '' && isHost(url.hostname)
  } catch {
    return false
  }
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** A host name, an IPv4 address or an IPv6 address (bare or in brackets). */
export function isHost(value: string): boolean {
  if (/^[\d.]+$/.test(value)) return IPV4.test(value)
  if (HOSTNAME.test(value)) return true
  const v6 = value.replace(/^\[(.*)\]$/, '$1')
  return v6.includes(':') && /^[0-9a-f:]+(?:\.\d+){0,3}$/i.test(v6) && (v6.match(/::/g)?.length ?? 0) <= 1
}

/**
 * One dial pattern: an optional +, then digits, * and #, X (0-9), Z (1-9), N (2-9) or ranges like [1-5] or [279],
 * optionally ending in . (one or more) or ! (zero or more).
 */
const DIAL_PATTERN = /^\+?(?:[0-9*#XZN]|\[(?:\d(?:-\d)?)+\])+[.!]?$/i

export function invalidDialPatterns(list: string): string[] {
  return list
    .split(',')
    .map((p) => p.trim())
    .filter((p) => !DIAL_PATTERN.test(p))
}

// A form field's date format (dayjs tokens): the numeric ones, which customParseFormat reads back strictly, text in
// [brackets], and the separators it skips. Month and weekday names and a bare 'T' are left out: they would not parse
// back in every language.
const DATE_FORMAT_PART = /\[[^\]]*\]|YYYY(?!Y)|YY(?!Y)|MM?(?!M)|DD?(?!D)|HH?(?!H)|hh?(?!h)|mm?(?!m)|ss?(?!s)|SSS(?!S)|A|a|ZZ?(?!Z)|[-_:/.,()\s]+/g
const DATE_OR_TIME_TOKEN = /^(YYYY|YY|MM?|DD?|HH?|hh?|mm?|ss?)$/

/** A dayjs format naming at least a date or time part: 'DD/MM/YYYY HH:mm', 'YYYY-MM-DD[T]HH:mm:ss'. */
export function isDateFormat(value: string): boolean {
  const parts = value.match(DATE_FORMAT_PART) ?? []
  return parts.join('') === value && parts.some((part) => DATE_OR_TIME_TOKEN.test(part))
}

/** The check of each named validation (lists are checked as a whole: see invalidPhones, invalidDialPatterns). */
export const VALIDATORS: Readonly<Record<Validation, (value: string) => boolean>> = {
  phone: isPhone,
  cpf: isCpf,
  cnpj: isCnpj,
  'cpf-cnpj': isCpfOrCnpj,
  email: isEmail,
  'phones-list': (value) => invalidPhones(value).length === 0,
  extension: isExtension,
  color: isColor,
  url: isUrl,
  host: isHost,
  'dial-patterns': (value) => invalidDialPatterns(value).length === 0,
  'date-format': isDateFormat,
  origin: isOrigin,
}
