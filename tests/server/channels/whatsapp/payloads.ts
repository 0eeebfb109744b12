// Realistic WhatsApp Cloud API webhook payloads (WHATSAPP.md §A1.3–A1.5), built the way Meta nests them, for the
// parser's tests and the webhook route's.

export const WABA_ID = '102290129340398'
export const PHONE_NUMBER_ID = '106540352242922'
export const CUSTOMER = '5511987654321'

let seq = 0
/** A fresh wamid. */
export function wamid(): string {
  seq += 1
  return `wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFDNBNEE2NTk5QUVFMDM4MTAx${String(seq).padStart(6, '0')}AA==`
}

export function message(type: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { from: CUSTOMER, id: wamid(), timestamp: '1749416383', type, ...body, ...extra }
}

export function value(parts: { messages?: unknown[]; statuses?: unknown[]; errors?: unknown[] }, phoneNumberId = PHONE_NUMBER_ID) {
  return {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
    ...(parts.messages ? { contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: CUSTOMER }] } : {}),
    ...parts,
  }
}

export function envelope(...values: unknown[]) {
  return { object: 'whatsapp_business_account', entry: [{ id: WABA_ID, changes: values.map((v) => ({ value: v, field: 'messages' })) }] }
}

export function status(id: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    status,
    timestamp: '1694492482',
    recipient_id: CUSTOMER,
    conversation: { id: 'f5fdae3920125a39a1e6a23e5f877c16', expiration_timestamp: '1694505360', origin: { type: 'utility' } },
    pricing: { billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' },
    ...extra,
  }
}

/** One inbound message of every type of §A1.4, as Meta sends them. */
export function everyType() {
  return {
    text: message('text', { text: { body: 'Does it come in another color?' } }),
    image: message('image', {
      image: {
        caption: 'the box',
        mime_type: 'image/jpeg',
        sha256: 'N0XFLp7R2nBKS3C7+0mC0iVQTuIqNvsK0JMALsvNOjo=',
        id: '2754859441498128',
        url: 'https://lookaside.fbsbx.com/x',
      },
    }),
    voice: message('audio', { audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 'abc=', id: '1003383421387256', voice: true } }),
    audio: message('audio', { audio: { mime_type: 'audio/mpeg', sha256: 'abc=', id: '1003383421387257', voice: false } }),
    video: message('video', { video: { caption: 'unboxing', mime_type: 'video/mp4', sha256: 'def=', id: '1003383421387258' } }),
    document: message('document', {
      document: { caption: 'invoice', filename: 'nota-fiscal.pdf', mime_type: 'application/pdf', sha256: 'ghi=', id: '1003383421387259' },
    }),
    sticker: message('sticker', { sticker: { mime_type: 'image/webp', sha256: 'jkl=', id: '1003383421387260', animated: false } }),
    location: message('location', {
      location: { address: 'Av. Paulista, 1578', latitude: -23.5613, longitude: -46.6565, name: 'MASP', url: 'https://masp.org.br' },
    }),
    contacts: message('contacts', {
      contacts: [
        {
          name: { formatted_name: 'João da Silva', first_name: 'João', last_name: 'da Silva' },
          phones: [{ phone: '+55 11 91234-5678', wa_id: '5511912345678', type: 'CELL' }],
          emails: [{ email: 'joao@example.com', type: 'WORK' }],
          org: { company: 'ACME' },
        },
        { name: { first_name: 'Maria' }, phones: [{ phone: '+55 21 99999-0000', type: 'HOME' }] },
      ],
    }),
    buttonReply: message(
      'interactive',
      { interactive: { type: 'button_reply', button_reply: { id: 'cancel-button', title: 'Cancel' } } },
      { context: { from: '15550783881', id: 'wamid.OUR-BUTTONS' } },
    ),
    listReply: message('interactive', {
      interactive: { type: 'list_reply', list_reply: { id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' } },
    }),
    button: message('button', { button: { payload: 'approve_67_schedule', text: 'Approve' } }, { context: { from: '15550783881', id: 'wamid.OUR-TEMPLATE' } }),
    reaction: message('reaction', { reaction: { message_id: 'wamid.OUR-MESSAGE', emoji: '👍' } }),
    unreaction: message('reaction', { reaction: { message_id: 'wamid.OUR-MESSAGE' } }),
    system: message('system', {
      system: { body: 'User Sheena changed from 5511987654321 to 5511987654000', wa_id: '5511987654000', type: 'user_changed_number' },
    }),
    unsupported: message('unsupported', {
      errors: [
        { code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } },
      ],
    }),
    reply: message('text', { text: { body: 'yes, this one' } }, { context: { from: '15550783881', id: 'wamid.OUR-PHOTO' } }),
    fromAd: message(
      'text',
      { text: { body: 'I saw your ad' } },
      { referral: { source_url: 'https://fb.me/ad', source_id: '120', source_type: 'ad', headline: 'Sale', ctwa_clid: 'ARA123', brand_new_field: 1 } },
    ),
  }
}
