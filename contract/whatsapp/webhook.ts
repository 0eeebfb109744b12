import * as v from 'valibot'

// What Meta POSTs to /webhooks/whatsapp/{channel}/ (WHATSAPP.md §A1.3–A1.5). Meta adds fields over time, so every
// object is loose (unknown keys pass through untouched); the fields we read are typed strictly. Each message, status
// and error is also a schema of its own so the parser can take a change apart item by item: one odd item never
// costs the rest of a signed delivery.

/** Unix seconds as Meta sends them: a string of digits (a number is tolerated). */
export const WaTimestamp = v.pipe(
  v.union([v.pipe(v.string(), v.regex(/^\d{1,12}$/)), v.pipe(v.number(), v.integer(), v.minValue(0))]),
  v.transform((s) => new Date(Number(s) * 1000)),
)

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(512))
const Text = v.pipe(v.string(), v.maxLength(65_536))
/** A coordinate: Meta sends numbers; a numeric string is accepted and converted. */
const Coordinate = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d{1,3}(\.\d+)?$/), v.transform(Number))]),
  v.check((n) => Number.isFinite(n) && Math.abs(n) <= 180),
)

/** `{code, title, message, error_data: {details}, href}`: on failed statuses, unsupported messages and a whole value. */
export const WaError = v.looseObject({
  code: v.pipe(v.number(), v.integer()),
  title: v.optional(Text),
  message: v.optional(Text),
  error_data: v.optional(v.looseObject({ details: v.optional(Text) })),
  href: v.optional(Text),
})
export type WaError = v.InferOutput<typeof WaError>

/** The replied-to message (`id`), and `from` the business number; `forwarded` flags a forward. */
export const WaContext = v.looseObject({
  from: v.optional(Id),
  id: v.optional(Id),
  forwarded: v.optional(v.boolean()),
  frequently_forwarded: v.optional(v.boolean()),
})

/** A Click-to-WhatsApp ad the customer came from; kept whole. */
export const WaReferral = v.looseObject({
  source_url: v.optional(Text),
  source_id: v.optional(Text),
  source_type: v.optional(Text),
  headline: v.optional(Text),
  body: v.optional(Text),
  media_type: v.optional(Text),
  image_url: v.optional(Text),
  video_url: v.optional(Text),
  thumbnail_url: v.optional(Text),
  ctwa_clid: v.optional(Text),
})

/** A media object of an inbound message: `id` is what the two-step download needs. */
export const WaMedia = v.looseObject({
  id: Id,
  mime_type: v.optional(v.pipe(v.string(), v.maxLength(255))),
  sha256: v.optional(v.pipe(v.string(), v.maxLength(128))),
  caption: v.optional(Text),
  filename: v.optional(v.pipe(v.string(), v.maxLength(1024))),
  url: v.optional(Text),
  voice: v.optional(v.boolean()),
  animated: v.optional(v.boolean()),
})

export const WaLocation = v.looseObject({
  latitude: Coordinate,
  longitude: Coordinate,
  name: v.optional(Text),
  address: v.optional(Text),
  url: v.optional(Text),
})

const Str = v.optional(Text)
/** A shared contact card: "many contact object properties may be omitted". */
export const WaContactCard = v.looseObject({
  name: v.optional(v.looseObject({ formatted_name: Str, first_name: Str, last_name: Str, middle_name: Str, suffix: Str, prefix: Str })),
  phones: v.optional(v.array(v.looseObject({ phone: Str, wa_id: Str, type: Str }))),
  emails: v.optional(v.array(v.looseObject({ email: Str, type: Str }))),
  addresses: v.optional(v.array(v.looseObject({ street: Str, city: Str, state: Str, zip: Str, country: Str, country_code: Str, type: Str }))),
  org: v.optional(v.looseObject({ company: Str, department: Str, title: Str })),
  urls: v.optional(v.array(v.looseObject({ url: Str, type: Str }))),
  birthday: Str,
})
export type WaContactCard = v.InferOutput<typeof WaContactCard>

const base = {
  from: Id,
  id: Id,
  timestamp: WaTimestamp,
  context: v.optional(WaContext),
  referral: v.optional(WaReferral),
  errors: v.optional(v.array(WaError)),
}

/** The message types we read (WHATSAPP.md §A1.4); any other `type` is an `WaOtherMessage`. */
export const WA_MESSAGE_TYPES = [
  'text',
  'image',
  'audio',
  'video',
  'document',
  'sticker',
  'location',
  'contacts',
  'interactive',
  'button',
  'reaction',
  'system',
] as const

export const WaTextMessage = v.looseObject({ ...base, type: v.literal('text'), text: v.looseObject({ body: Text }) })
export const WaImageMessage = v.looseObject({ ...base, type: v.literal('image'), image: WaMedia })
export const WaAudioMessage = v.looseObject({ ...base, type: v.literal('audio'), audio: WaMedia })
export const WaVideoMessage = v.looseObject({ ...base, type: v.literal('video'), video: WaMedia })
export const WaDocumentMessage = v.looseObject({ ...base, type: v.literal('document'), document: WaMedia })
export const WaStickerMessage = v.looseObject({ ...base, type: v.literal('sticker'), sticker: WaMedia })
export const WaLocationMessage = v.looseObject({ ...base, type: v.literal('location'), location: WaLocation })
export const WaContactsMessage = v.looseObject({ ...base, type: v.literal('contacts'), contacts: v.pipe(v.array(WaContactCard), v.minLength(1)) })

const Reply = v.looseObject({ id: Id, title: Text, description: v.optional(Text) })
export const WaInteractiveMessage = v.looseObject({
  ...base,
  type: v.literal('interactive'),
  interactive: v.variant('type', [
    v.looseObject({ type: v.literal('button_reply'), button_reply: Reply }),
    v.looseObject({ type: v.literal('list_reply'), list_reply: Reply }),
    // A WhatsApp Flow's answer (`response_json`) and whatever Meta adds next: kept, shown as its type.
    v.looseObject({
      type: v.pipe(
        v.string(),
        v.check((t) => t !== 'button_reply' && t !== 'list_reply'),
      ),
    }),
  ]),
})
/** A quick-reply button of a template. */
export const WaButtonMessage = v.looseObject({ ...base, type: v.literal('button'), button: v.looseObject({ text: Text, payload: v.optional(Text) }) })
/** A reaction to `message_id`; an empty (or absent) emoji removes it. Some examples misspell it `messsage_id`. */
export const WaReactionMessage = v.looseObject({
  ...base,
  type: v.literal('reaction'),
  reaction: v.pipe(
    v.looseObject({ message_id: v.optional(Id), messsage_id: v.optional(Id), emoji: v.optional(v.pipe(v.string(), v.maxLength(64))) }),
    v.check((r) => Boolean(r.message_id ?? r.messsage_id)),
  ),
})
export const WaSystemMessage = v.looseObject({
  ...base,
  type: v.literal('system'),
  system: v.looseObject({ body: v.optional(Text), wa_id: v.optional(Id), new_wa_id: v.optional(Id), type: v.optional(Text), customer: v.optional(Text) }),
})
/** `unsupported`, `ephemeral`, `order`, `request_welcome` and types Meta adds later: kept as they are. */
export const WaOtherMessage = v.looseObject({
  ...base,
  type: v.pipe(
    v.string(),
    v.maxLength(64),
    v.check((t) => !(WA_MESSAGE_TYPES as readonly string[]).includes(t)),
  ),
})

export const WaMessage = v.variant('type', [
  WaTextMessage,
  WaImageMessage,
  WaAudioMessage,
  WaVideoMessage,
  WaDocumentMessage,
  WaStickerMessage,
  WaLocationMessage,
  WaContactsMessage,
  WaInteractiveMessage,
  WaButtonMessage,
  WaReactionMessage,
  WaSystemMessage,
  WaOtherMessage,
])
export type WaMessage = v.InferOutput<typeof WaMessage>
/** A message of a type we read, narrowed by `type` (the catch-all's `type: string` would stop the narrowing). */
export type WaKnownMessage =
  | v.InferOutput<typeof WaTextMessage>
  | v.InferOutput<typeof WaImageMessage>
  | v.InferOutput<typeof WaAudioMessage>
  | v.InferOutput<typeof WaVideoMessage>
  | v.InferOutput<typeof WaDocumentMessage>
  | v.InferOutput<typeof WaStickerMessage>
  | v.InferOutput<typeof WaLocationMessage>
  | v.InferOutput<typeof WaContactsMessage>
  | v.InferOutput<typeof WaInteractiveMessage>
  | v.InferOutput<typeof WaButtonMessage>
  | v.InferOutput<typeof WaReactionMessage>
  | v.InferOutput<typeof WaSystemMessage>
export function isKnownWaMessage(m: WaMessage): m is WaKnownMessage {
  return (WA_MESSAGE_TYPES as readonly string[]).includes(m.type)
}

/** Meta's delivery statuses; `played` is a voice note's first play (since March 2026). */
export const WA_STATUSES = ['sent', 'delivered', 'read', 'played', 'failed'] as const
export type WaStatusValue = (typeof WA_STATUSES)[number]

export const WaStatus = v.looseObject({
  id: Id,
  status: v.picklist(WA_STATUSES),
  timestamp: WaTimestamp,
  recipient_id: v.optional(Id),
  errors: v.optional(v.array(WaError)),
  /** Echoed back from the send request: our outbox row id. */
  biz_opaque_callback_data: v.optional(v.pipe(v.string(), v.maxLength(512))),
  conversation: v.optional(v.unknown()),
  pricing: v.optional(v.unknown()),
})
export type WaStatus = v.InferOutput<typeof WaStatus>

/** `value.contacts[]`: the sender's profile name by `wa_id`. */
export const WaSender = v.looseObject({
  wa_id: v.optional(Id),
  profile: v.optional(v.looseObject({ name: v.optional(v.pipe(v.string(), v.maxLength(1024))) })),
})

export const WaMetadata = v.looseObject({
  phone_number_id: Id,
  display_phone_number: v.optional(v.pipe(v.string(), v.maxLength(64))),
})

/**
 * A change's value as read item by item: the lists are arrays of anything here, each item checked against `WaMessage`,
 * `WaStatus` or `WaError` on its own.
 */
export const WaChangeValue = v.looseObject({
  messaging_product: v.optional(v.string()),
  metadata: v.optional(WaMetadata),
  contacts: v.optional(v.array(v.unknown())),
  messages: v.optional(v.array(v.unknown())),
  statuses: v.optional(v.array(v.unknown())),
  errors: v.optional(v.array(v.unknown())),
})

export const WaChange = v.looseObject({ field: v.pipe(v.string(), v.maxLength(128)), value: v.looseObject({}) })

/** The envelope: `entry[].id` is the WABA id; every entry and change is processed. */
export const WaEnvelope = v.looseObject({
  object: v.pipe(v.string(), v.maxLength(128)),
  entry: v.array(v.looseObject({ id: v.optional(Id), time: v.optional(v.number()), changes: v.optional(v.array(WaChange)) })),
})
export type WaEnvelope = v.InferOutput<typeof WaEnvelope>

/** A template's review outcome (`field: message_template_status_update`). */
export const WaTemplateStatusValue = v.looseObject({
  event: v.pipe(v.string(), v.maxLength(64)),
  message_template_id: v.union([v.number(), Id]),
  message_template_name: v.optional(v.pipe(v.string(), v.maxLength(512))),
  message_template_language: v.optional(v.pipe(v.string(), v.maxLength(16))),
  reason: v.optional(v.nullable(Text)),
})

/** The GET verification handshake's query. */
export const WaVerifyQuery = v.looseObject({
  'hub.mode': v.optional(v.string()),
  'hub.verify_token': v.optional(v.string()),
  'hub.challenge': v.optional(v.pipe(v.string(), v.maxLength(1024))),
})
