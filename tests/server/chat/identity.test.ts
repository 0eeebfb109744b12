import { describe, expect, it } from 'vitest'
import { canonicalPhone } from '../../../contract/phone.ts'
import { normalizeContact } from '../../../server/chat/identity.ts'

describe('chat identity', () => {
  it('a Brazilian mobile without the ninth digit is the same customer as with it; replies go to the wa_id as sent', () => {
    const old = normalizeContact('whatsapp', '554899887766')
    const current = normalizeContact('whatsapp', '5548999887766')
    expect(old.contact).toBe('5548999887766')
    expect(current.contact).toBe('5548999887766')
    expect(old.address).toBe('554899887766')
    expect(current.address).toBe('5548999887766')
    expect(old.phone).toBe('5548999887766')
  })

  it('a Brazilian landline (8 digits starting 2–5) keeps its 8 digits', () => {
    expect(canonicalPhone('554833221100')).toBe('554833221100')
    expect(normalizeContact('whatsapp', '+55 (48) 3322-1100').contact).toBe('554833221100')
  })

  it('other countries are their E.164 digits', () => {
    expect(normalizeContact('whatsapp', '+1 650 555 1234').contact).toBe('16505551234')
    expect(normalizeContact('whatsapp', '351912345678').contact).toBe('351912345678')
  })

  it('a webchat visitor is their visitor id, without a phone', () => {
    expect(normalizeContact('webchat', ' visitor-123 ')).toEqual({ contact: 'visitor-123', address: 'visitor-123', phone: '' })
  })
})
