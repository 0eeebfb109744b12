import { canonicalPhone } from '../../contract/phone.ts'
import type { ChannelType } from './types.ts'

// Who a customer is on a channel (README.md "Identity"). WhatsApp names a customer by their wa_id (digits); the same
// Brazilian mobile may arrive with or without the ninth digit (wa_ids of accounts made before 2016 lack it), so the
// canonical contact is the E.164 number with the nine, while `address` keeps the wa_id exactly as WhatsApp sent it:
// replies go there. A widget visitor is their visitor id. The number itself goes through the product's one
// normaliser (contract/phone.ts), so a chat and a CRM client with the same phone meet.

export type ContactIdentity = {
  /** Canonical key of the customer on the channel (one open room per channel + contact). */
  contact: string
  /** Where replies go, as the channel named the customer. */
  address: string
  /** E.164 digits without '+', '' when unknown. */
  phone: string
}

export function normalizeContact(channelType: ChannelType, raw: string): ContactIdentity {
  const trimmed = raw.trim()
  if (channelType === 'webchat') return { contact: trimmed.slice(0, 64), address: trimmed.slice(0, 64), phone: '' }
  const address = trimmed.replace(/\D/g, '').slice(0, 64)
  const phone = canonicalPhone(address).slice(0, 32)
  return { contact: phone || address, address, phone }
}
