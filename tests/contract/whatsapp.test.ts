import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { WaMediaRef, WaSendContacts, WaSendRequest, GraphErrorEnvelope } from '../../contract/whatsapp/graph.ts'
import { WaMessage, WaStatus, WaTimestamp } from '../../contract/whatsapp/webhook.ts'

// The WhatsApp wire schemas: lenient on fields Meta adds, strict on the ones we read.

describe('WhatsApp webhook schemas', () => {
  it('reads the string-seconds timestamp as a date and refuses other shapes', () => {
    expect(v.parse(WaTimestamp, '1749416383').toISOString()).toBe('2025-06-08T20:59:43.000Z')
    expect(v.safeParse(WaTimestamp, '2025-06-08').success).toBe(false)
    expect(v.safeParse(WaTimestamp, '-1').success).toBe(false)
  })

  it('keeps unknown fields of a message and refuses a known type without its part', () => {
    const m = v.parse(WaMessage, { from: '1', id: 'w', timestamp: '1', type: 'text', text: { body: 'x' }, shiny_new: 1 })
    expect(m).toMatchObject({ shiny_new: 1 })
    expect(v.safeParse(WaMessage, { from: '1', id: 'w', timestamp: '1', type: 'image' }).success).toBe(false)
    expect(v.safeParse(WaMessage, { from: '1', id: 'w', timestamp: '1', type: 'location', location: { latitude: 'north', longitude: 1 } }).success).toBe(false)
    expect(v.safeParse(WaMessage, { from: '1', id: 'w', timestamp: '1', type: 'brand_new_type', brand_new_type: {} }).success).toBe(true)
  })

  it('accepts the known statuses only, conversation and pricing opaque', () => {
    expect(v.safeParse(WaStatus, { id: 'w', status: 'played', timestamp: '1', pricing: { anything: [1] } }).success).toBe(true)
    expect(v.safeParse(WaStatus, { id: 'w', status: 'seen', timestamp: '1' }).success).toBe(false)
  })
})

describe('Graph send bodies', () => {
  const base = { messaging_product: 'whatsapp', to: '5511987654321' }

  it('needs exactly one of media id or link', () => {
    expect(v.safeParse(WaMediaRef, { id: '1' }).success).toBe(true)
    expect(v.safeParse(WaMediaRef, { link: 'https://a.b/c.jpg' }).success).toBe(true)
    expect(v.safeParse(WaMediaRef, {}).success).toBe(false)
    expect(v.safeParse(WaMediaRef, { id: '1', link: 'https://a.b/c.jpg' }).success).toBe(false)
  })

  it('refuses empty text, bad recipients and unknown types', () => {
    expect(v.safeParse(WaSendRequest, { ...base, type: 'text', text: { body: 'oi' } }).success).toBe(true)
    expect(v.safeParse(WaSendRequest, { ...base, type: 'text', text: { body: '' } }).success).toBe(false)
    expect(v.safeParse(WaSendRequest, { ...base, to: 'abc', type: 'text', text: { body: 'oi' } }).success).toBe(false)
    expect(v.safeParse(WaSendRequest, { ...base, type: 'poll', poll: {} }).success).toBe(false)
  })

  it('a contact card needs formatted_name plus another name part', () => {
    expect(v.safeParse(WaSendContacts, { ...base, type: 'contacts', contacts: [{ name: { formatted_name: 'Ana' } }] }).success).toBe(false)
    expect(v.safeParse(WaSendContacts, { ...base, type: 'contacts', contacts: [{ name: { formatted_name: 'Ana', first_name: 'Ana' } }] }).success).toBe(true)
  })

  it('reads the Graph error envelope, error_data as an object or a string', () => {
    expect(v.safeParse(GraphErrorEnvelope, { error: { message: 'x', code: 100, error_data: 'plain' } }).success).toBe(true)
    expect(v.safeParse(GraphErrorEnvelope, { error: { message: 'x', code: 100, error_data: { details: 'd' }, new: 1 } }).success).toBe(true)
    expect(v.safeParse(GraphErrorEnvelope, { message: 'x' }).success).toBe(false)
  })
})
