import { parsePhoneNumberFromString } from 'libphonenumber-js'
import type { ChannelType } from './types.ts'

// Who a customer is on a channel (README.md "Identity"). WhatsApp names a customer by their wa_id (digits); the same
// Brazilian mobile may arrive with or without the ninth digit (wa_ids of accounts made before 2016 lack it), so the
// canonical contact is the E.164 number with the nine, while `address` keeps the wa_id exactly as WhatsApp sent it:
// replies go there. A widget visitor is their visitor id.

export type ContactIdentity = {
  /** Canonical key of the customer on the channel (one open room per channel + contact). */
  contact: string
  /** Where replies go, as the channel named the customer. */
  address: string
  /** E.164 digits without '+', '' when unknown. */
  phone: string
}

/** A Brazilian mobile without its ninth digit: 55 + DDD (2 digits, 11–99) + 8 digits starting 6–9. */
const BRAZIL_MOBILE_WITHOUT_NINE = /^55([1-9][1-9])([6-9]\d{7})$/

/** E.164 digits (no '+') of a raw phone or wa_id; Brazilian mobiles always with the ninth digit. '' when no digits. */
export function canonicalPhone(raw: string): string {
  const digits = raw.replace(/\D/g, '')
  if (!digits) return ''
  const nine = BRAZIL_MOBILE_WITHOUT_NINE.exec(digits)
  if (nine) return `55${nine[1]}9${nine[2]}`
  const parsed = parsePhoneNumberFromString(`+${digits}`)
  if (parsed?.isPossible()) return parsed.number.slice(1)
  return digits
}

export function normalizeContact(channelType: ChannelType, raw: string): ContactIdentity {
  const trimmed = raw.trim()
  if (channelType === 'webchat') return { contact: trimmed.slice(0, 64), address: trimmed.slice(0, 64), phone: '' }
  const address = trimmed.replace(/\D/g, '').slice(0, 64)
  const phone = canonicalPhone(address).slice(0, 32)
  return { contact: phone || address, address, phone }
}
