import { describe, expect, it } from 'vitest'
import { parseWebhook, type InboundMessageEvent, type WaEvent } from '../../../../server/channels/whatsapp/parse.ts'
import { CUSTOMER, envelope, everyType, message, PHONE_NUMBER_ID, status, value, WABA_ID, wamid } from './payloads.ts'

// QUALITY.md test 5 (the unit half): every inbound type parses, and a delivery with several entries, changes,
// messages and statuses yields every one of them.

function one(m: unknown): WaEvent {
  const events = parseWebhook(envelope(value({ messages: [m] })))
  expect(events).toHaveLength(1)
  return events[0]
}
function msg(m: unknown): InboundMessageEvent {
  const e = one(m)
  expect(e.kind).toBe('message')
  return e as InboundMessageEvent
}

describe('inbound message types', () => {
  const t = everyType()

  it('text: the body, the sender, the profile name, the wamid and the timestamp as a date', () => {
    const e = msg(t.text)
    expect(e).toMatchObject({
      kind: 'message',
      phoneNumberId: PHONE_NUMBER_ID,
      wabaId: WABA_ID,
      from: CUSTOMER,
      profileName: 'Sheena Nelson',
      externalId: t.text.id,
      type: 'text',
      waType: 'text',
      content: 'Does it come in another color?',
    })
    expect(e.timestamp.toISOString()).toBe('2025-06-08T20:59:43.000Z')
    expect(e.replyTo).toBeUndefined()
  })

  it('image → photo with the caption and the media to download', () => {
    expect(msg(t.image)).toMatchObject({
      type: 'photo',
      content: 'the box',
      media: { id: '2754859441498128', mime: 'image/jpeg', sha256: 'N0XFLp7R2nBKS3C7+0mC0iVQTuIqNvsK0JMALsvNOjo=', caption: 'the box', filename: null },
    })
  })

  it('audio with voice: true → voice; without → audio', () => {
    expect(msg(t.voice)).toMatchObject({ type: 'voice', media: { id: '1003383421387256', mime: 'audio/ogg; codecs=opus' } })
    expect(msg(t.audio)).toMatchObject({ type: 'audio', media: { id: '1003383421387257' } })
  })

  it('video, document with its file name, and sticker as a photo', () => {
    expect(msg(t.video)).toMatchObject({ type: 'video', content: 'unboxing', media: { mime: 'video/mp4' } })
    expect(msg(t.document)).toMatchObject({ type: 'document', content: 'invoice', media: { filename: 'nota-fiscal.pdf', mime: 'application/pdf' } })
    expect(msg(t.sticker)).toMatchObject({ type: 'photo', waType: 'sticker', content: '', media: { mime: 'image/webp' } })
  })

  it('location with numeric coordinates, name and address', () => {
    expect(msg(t.location)).toMatchObject({
      type: 'location',
      content: 'MASP — Av. Paulista, 1578',
      location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578', url: 'https://masp.org.br' },
    })
    const bare = msg(message('location', { location: { latitude: 1.5, longitude: -2 } }))
    expect(bare.content).toBe('1.5, -2')
  })

  it('contacts → contact, each with a full name and phone even when only parts are given', () => {
    const e = msg(t.contacts)
    expect(e.type).toBe('contact')
    expect(e.contacts).toEqual([
      { full_name: 'João da Silva', phone: '+55 11 91234-5678', wa_id: '5511912345678' },
      { full_name: 'Maria', phone: '+55 21 99999-0000', wa_id: null },
    ])
    expect(e.content).toBe('João da Silva, Maria')
  })

  it('interactive button and list replies and template buttons → text with the title, the id or payload kept', () => {
    expect(msg(t.buttonReply)).toMatchObject({
      type: 'text',
      content: 'Cancel',
      reply: { kind: 'button_reply', id: 'cancel-button', title: 'Cancel', description: null },
      replyTo: 'wamid.OUR-BUTTONS',
    })
    expect(msg(t.listReply)).toMatchObject({
      type: 'text',
      content: 'Priority Mail Express',
      reply: { kind: 'list_reply', id: 'priority_express', description: 'Next Day to 2 Days' },
    })
    expect(msg(t.button)).toMatchObject({
      type: 'text',
      content: 'Approve',
      reply: { kind: 'button', id: 'approve_67_schedule' },
      replyTo: 'wamid.OUR-TEMPLATE',
    })
  })

  it('reactions name the message reacted to; a removed reaction has no emoji', () => {
    expect(one(t.reaction)).toMatchObject({ kind: 'reaction', messageId: 'wamid.OUR-MESSAGE', emoji: '👍', externalId: t.reaction.id, from: CUSTOMER })
    expect(one(t.unreaction)).toMatchObject({ kind: 'reaction', messageId: 'wamid.OUR-MESSAGE', emoji: null })
    // One published example misspells the field.
    expect(one(message('reaction', { reaction: { messsage_id: 'wamid.X', emoji: '❤️' } }))).toMatchObject({ kind: 'reaction', messageId: 'wamid.X' })
  })

  it('system: the number change with the new WhatsApp id', () => {
    expect(one(t.system)).toMatchObject({
      kind: 'system',
      systemType: 'user_changed_number',
      newWaId: '5511987654000',
      body: expect.stringContaining('changed from'),
    })
  })

  it('unsupported and unknown types are kept with Meta’s errors as code, reason and external_error', () => {
    expect(one(t.unsupported)).toMatchObject({
      kind: 'unsupported',
      waType: 'unsupported',
      errors: [{ code: 131051, reason: 'Message type is currently not supported.', external_error: '131051: Message type unknown' }],
    })
    expect(one(message('order', { order: { catalog_id: '1', product_items: [] } }))).toMatchObject({ kind: 'unsupported', waType: 'order', errors: [] })
    expect(one(message('interactive', { interactive: { type: 'nfm_reply', nfm_reply: { response_json: '{}' } } }))).toMatchObject({
      kind: 'unsupported',
      waType: 'interactive.nfm_reply',
    })
  })

  it('replies keep context.id; ads keep the referral whole, unknown fields included', () => {
    expect(msg(t.reply).replyTo).toBe('wamid.OUR-PHOTO')
    expect(msg(t.fromAd).referral).toMatchObject({ source_type: 'ad', ctwa_clid: 'ARA123', brand_new_field: 1 })
  })

  it('every type of §A1.4 gives one event, none invalid', () => {
    const all = Object.values(t)
    const events = parseWebhook(envelope(value({ messages: all })))
    expect(events).toHaveLength(all.length)
    expect(events.filter((e) => e.kind === 'invalid')).toEqual([])
    expect(events.map((e) => ('externalId' in e ? e.externalId : null))).toEqual(all.map((m) => m.id))
  })

  it('tolerates fields Meta adds and numeric-string coordinates', () => {
    const e = msg({ ...message('text', { text: { body: 'hi', new_flag: true } }), brand_new: { x: 1 } })
    expect(e.content).toBe('hi')
    expect(msg(message('location', { location: { latitude: '-23.5', longitude: '-46.6' } })).location).toMatchObject({ latitude: -23.5, longitude: -46.6 })
  })
})

describe('statuses', () => {
  it('maps sent → dispatched, delivered → received, read and played → consumed, with recipient and opaque data', () => {
    const id = wamid()
    const events = parseWebhook(
      envelope(
        value({
          statuses: [status(id, 'sent', { biz_opaque_callback_data: 'outbox:42' }), status(id, 'delivered'), status(id, 'read'), status(id, 'played')],
        }),
      ),
    )
    expect(events.map((e) => (e.kind === 'status' ? e.status : e.kind))).toEqual(['dispatched', 'received', 'consumed', 'consumed'])
    expect(events[0]).toMatchObject({
      kind: 'status',
      externalId: id,
      recipient: CUSTOMER,
      opaque: 'outbox:42',
      waStatus: 'sent',
      phoneNumberId: PHONE_NUMBER_ID,
    })
    expect(events[1]).toMatchObject({ opaque: null })
    expect((events[0] as { timestamp: Date }).timestamp.getTime()).toBe(1694492482000)
  })

  it('a failed status carries code, reason and external_error "code: title"', () => {
    const id = wamid()
    const [e] = parseWebhook(
      envelope(
        value({
          statuses: [
            status(id, 'failed', {
              errors: [
                {
                  code: 131047,
                  title: 'Re-engagement message',
                  message: 'Re-engagement message',
                  error_data: { details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
                  href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
                },
              ],
            }),
          ],
        }),
      ),
    )
    expect(e).toMatchObject({
      kind: 'status',
      status: 'failed',
      error: { code: 131047, reason: expect.stringContaining('24 hours'), external_error: '131047: Re-engagement message' },
    })
  })

  it('a status without conversation or pricing parses', () => {
    const id = wamid()
    const bare = { id, status: 'delivered', timestamp: '1694492490', recipient_id: CUSTOMER }
    expect(parseWebhook(envelope(value({ statuses: [bare] })))[0]).toMatchObject({ kind: 'status', status: 'received' })
  })
})

describe('deliveries', () => {
  it('visits every entry, change, message and status of a multi-entry delivery', () => {
    const a = message('text', { text: { body: 'one' } })
    const b = message('text', { text: { body: 'two' } })
    const c = message('text', { text: { body: 'three' } })
    const s = status(wamid(), 'delivered')
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          changes: [
            { field: 'messages', value: value({ messages: [a, b] }) },
            { field: 'messages', value: value({ statuses: [s] }) },
          ],
        },
        { id: '999000111', changes: [{ field: 'messages', value: value({ messages: [c] }, '222333444') }] },
      ],
    }
    const events = parseWebhook(body)
    expect(events.map((e) => e.kind)).toEqual(['message', 'message', 'status', 'message'])
    expect(events[3]).toMatchObject({ content: 'three', wabaId: '999000111', phoneNumberId: '222333444' })
  })

  it('value-level errors become one error event', () => {
    const events = parseWebhook(
      envelope(
        value({
          errors: [
            {
              code: 130429,
              title: 'Rate limit hit',
              message: 'Rate limit hit',
              error_data: { details: 'Message failed to send because there were too many messages sent from this phone number in a short period of time' },
              href: '/documentation/business-messaging/whatsapp/support/error-codes',
            },
          ],
        }),
      ),
    )
    expect(events).toEqual([
      {
        kind: 'error',
        phoneNumberId: PHONE_NUMBER_ID,
        wabaId: WABA_ID,
        errors: [{ code: 130429, reason: expect.stringContaining('too many messages'), external_error: '130429: Rate limit hit' }],
      },
    ])
  })

  it('a broken item is an invalid event beside the good ones, not a lost delivery', () => {
    const good = message('text', { text: { body: 'fine' } })
    const noMedia = message('image', {})
    const badStatus = { id: wamid(), status: 'teleported', timestamp: '1' }
    const events = parseWebhook(envelope(value({ messages: [noMedia, good], statuses: [badStatus] })))
    expect(events.map((e) => e.kind)).toEqual(['invalid', 'message', 'invalid'])
    expect(events[0]).toMatchObject({ part: 'messages.0', phoneNumberId: PHONE_NUMBER_ID, reason: expect.stringContaining('image') })
    expect(events[2]).toMatchObject({ part: 'statuses.0' })
  })

  it('a body that is not a WhatsApp envelope is one invalid event', () => {
    expect(parseWebhook({ hello: 'world' })).toMatchObject([{ kind: 'invalid', part: 'envelope' }])
    expect(parseWebhook({ object: 'page', entry: [] })).toMatchObject([{ kind: 'invalid', part: 'object' }])
    expect(parseWebhook(null)).toMatchObject([{ kind: 'invalid' }])
    expect(parseWebhook(envelope({ messaging_product: 'whatsapp', messages: [] }))).toMatchObject([{ kind: 'invalid', part: 'metadata' }])
  })

  it('template review results come as template events; other fields are ignored', () => {
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          time: 1749416383,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'APPROVED',
                message_template_id: 1234567890,
                message_template_name: 'order_update',
                message_template_language: 'pt_BR',
                reason: 'NONE',
              },
            },
            { field: 'phone_number_quality_update', value: { display_phone_number: '15550783881', event: 'FLAGGED' } },
          ],
        },
      ],
    }
    expect(parseWebhook(body)).toEqual([
      { kind: 'template', wabaId: WABA_ID, templateId: '1234567890', event: 'APPROVED', name: 'order_update', language: 'pt_BR', reason: 'NONE' },
    ])
  })
})
