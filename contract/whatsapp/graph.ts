import * as v from 'valibot'

// The Graph API calls the WhatsApp channel makes (WHATSAPP.md §A1.6–A1.8): the bodies it sends to
// POST /{version}/{phone_number_id}/messages, and the answers it reads back (send result, Graph error envelope, media
// metadata, message templates). The simulator (simulator/whatsapp/) parses the same request bodies.

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(512))
const Text = v.pipe(v.string(), v.maxLength(65_536))
/** A recipient: digits, with an optional leading +. */
const To = v.pipe(v.string(), v.regex(/^\+?\d{5,20}$/))
const Link = v.pipe(v.string(), v.url(), v.maxLength(2048))

/** A media reference for sending: a previously uploaded `id` or a public `link`. */
export const WaMediaRef = v.pipe(
  v.object({
    id: v.optional(Id),
    link: v.optional(Link),
    caption: v.optional(v.pipe(v.string(), v.maxLength(1024))),
    filename: v.optional(v.pipe(v.string(), v.maxLength(240))),
    /** Audio only: a recorded voice note (Ogg Opus), shown with the voice icon, downloaded at once, transcribed. */
    voice: v.optional(v.boolean()),
  }),
  v.check((m) => Boolean(m.id) !== Boolean(m.link), 'either id or link'),
)
export type WaMediaRef = v.InferOutput<typeof WaMediaRef>

const envelope = {
  messaging_product: v.literal('whatsapp'),
  recipient_type: v.optional(v.literal('individual')),
  to: To,
  context: v.optional(v.object({ message_id: Id })),
  biz_opaque_callback_data: v.optional(v.pipe(v.string(), v.maxLength(512))),
}

export const WaSendText = v.object({
  ...envelope,
  type: v.literal('text'),
  text: v.object({ body: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)), preview_url: v.optional(v.boolean()) }),
})
export const WaSendImage = v.object({ ...envelope, type: v.literal('image'), image: WaMediaRef })
export const WaSendVideo = v.object({ ...envelope, type: v.literal('video'), video: WaMediaRef })
export const WaSendAudio = v.object({ ...envelope, type: v.literal('audio'), audio: WaMediaRef })
export const WaSendDocument = v.object({ ...envelope, type: v.literal('document'), document: WaMediaRef })
export const WaSendSticker = v.object({ ...envelope, type: v.literal('sticker'), sticker: WaMediaRef })
export const WaSendLocation = v.object({
  ...envelope,
  type: v.literal('location'),
  location: v.object({
    latitude: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
    longitude: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
    name: v.optional(v.pipe(v.string(), v.maxLength(1000))),
    address: v.optional(v.pipe(v.string(), v.maxLength(1000))),
  }),
})

const Opt = v.optional(v.pipe(v.string(), v.maxLength(1000)))
/** A contact card to send: `name.formatted_name` plus at least one other name part. */
export const WaSendContactCard = v.object({
  name: v.pipe(
    v.object({
      formatted_name: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)),
      first_name: Opt,
      last_name: Opt,
      middle_name: Opt,
      suffix: Opt,
      prefix: Opt,
    }),
    v.check((n) => Boolean(n.first_name || n.last_name || n.middle_name || n.suffix || n.prefix), 'a name part besides formatted_name'),
  ),
  phones: v.optional(v.array(v.object({ phone: Opt, wa_id: Opt, type: Opt }))),
  emails: v.optional(v.array(v.object({ email: Opt, type: Opt }))),
  org: v.optional(v.object({ company: Opt, department: Opt, title: Opt })),
})
export type WaSendContactCard = v.InferOutput<typeof WaSendContactCard>
export const WaSendContacts = v.object({ ...envelope, type: v.literal('contacts'), contacts: v.pipe(v.array(WaSendContactCard), v.minLength(1)) })

const TextParam = v.object({ type: v.literal('text'), text: v.pipe(v.string(), v.maxLength(32_768)), parameter_name: v.optional(v.string()) })
const MediaParam = v.variant('type', [
  v.object({ type: v.literal('image'), image: WaMediaRef }),
  v.object({ type: v.literal('video'), video: WaMediaRef }),
  v.object({ type: v.literal('document'), document: WaMediaRef }),
])
export const WaTemplateComponent = v.variant('type', [
  v.object({ type: v.literal('header'), parameters: v.array(v.union([TextParam, MediaParam])) }),
  v.object({ type: v.literal('body'), parameters: v.array(TextParam) }),
  v.object({
    type: v.literal('button'),
    sub_type: v.picklist(['quick_reply', 'url', 'copy_code']),
    index: v.pipe(v.string(), v.regex(/^\d{1,2}$/)),
    parameters: v.array(v.looseObject({ type: v.string() })),
  }),
])
export type WaTemplateComponent = v.InferOutput<typeof WaTemplateComponent>
export const WaSendTemplate = v.object({
  ...envelope,
  type: v.literal('template'),
  template: v.object({
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
    language: v.object({ code: v.pipe(v.string(), v.regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/)), policy: v.optional(v.literal('deterministic')) }),
    components: v.optional(v.array(WaTemplateComponent)),
  }),
})

/** Every body POST /{version}/{phone_number_id}/messages accepts from us. */
export const WaSendRequest = v.variant('type', [
  WaSendText,
  WaSendImage,
  WaSendVideo,
  WaSendAudio,
  WaSendDocument,
  WaSendSticker,
  WaSendLocation,
  WaSendContacts,
  WaSendTemplate,
])
export type WaSendRequest = v.InferOutput<typeof WaSendRequest>

/** Marks an inbound message read (blue ticks on the customer's phone). */
export const WaMarkRead = v.object({ messaging_product: v.literal('whatsapp'), status: v.literal('read'), message_id: Id })

/** The answer to a send: `messages[0].id` is the wamid later statuses refer to. */
export const WaSendResult = v.looseObject({
  messaging_product: v.optional(v.string()),
  contacts: v.optional(v.array(v.looseObject({ input: v.optional(v.string()), wa_id: v.optional(v.string()) }))),
  messages: v.pipe(v.array(v.looseObject({ id: Id, message_status: v.optional(v.string()) })), v.minLength(1)),
})

/** `{error: {message, type, code, error_subcode, error_data: {details}, fbtrace_id}}` (HTTP 4xx/5xx). */
export const GraphErrorEnvelope = v.looseObject({
  error: v.looseObject({
    message: v.optional(v.string()),
    type: v.optional(v.string()),
    code: v.optional(v.pipe(v.number(), v.integer())),
    error_subcode: v.optional(v.pipe(v.number(), v.integer())),
    error_user_title: v.optional(v.string()),
    error_user_msg: v.optional(v.string()),
    error_data: v.optional(v.union([v.looseObject({ details: v.optional(v.string()), messaging_product: v.optional(v.string()) }), v.string()])),
    fbtrace_id: v.optional(v.string()),
  }),
})
export type GraphErrorEnvelope = v.InferOutput<typeof GraphErrorEnvelope>

/** GET /{version}/{media_id}: where to fetch the bytes (the URL expires after 5 minutes) and what they must hash to. */
export const WaMediaInfo = v.looseObject({
  id: v.optional(Id),
  url: Link,
  mime_type: v.optional(v.pipe(v.string(), v.maxLength(255))),
  sha256: v.optional(v.pipe(v.string(), v.maxLength(128))),
  file_size: v.optional(v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,15}$/))]), v.transform(Number))),
})

/** POST /{version}/{phone_number_id}/media answers the new media id. */
export const WaUploadResult = v.looseObject({ id: Id })

/** A template component as the WABA lists it (HEADER, BODY, FOOTER, BUTTONS). */
export const WaTemplateDefComponent = v.looseObject({
  type: v.pipe(v.string(), v.maxLength(32)),
  format: v.optional(v.pipe(v.string(), v.maxLength(32))),
  text: v.optional(Text),
  example: v.optional(v.unknown()),
  buttons: v.optional(v.array(v.looseObject({ type: v.optional(v.string()), text: v.optional(v.string()), url: v.optional(v.string()) }))),
})
export const WaTemplateDef = v.looseObject({
  id: v.pipe(v.union([Id, v.number()]), v.transform(String)),
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  language: v.pipe(v.string(), v.maxLength(16)),
  status: v.optional(v.pipe(v.string(), v.maxLength(32))),
  category: v.optional(v.pipe(v.string(), v.maxLength(32))),
  components: v.optional(v.array(WaTemplateDefComponent), []),
})
export type WaTemplateDef = v.InferOutput<typeof WaTemplateDef>

/** GET /{version}/{waba_id}/message_templates: a page, `paging.next` the absolute URL of the following one. */
export const WaTemplatePage = v.looseObject({
  data: v.array(v.unknown()),
  paging: v.optional(
    v.looseObject({
      cursors: v.optional(v.looseObject({ before: v.optional(v.string()), after: v.optional(v.string()) })),
      next: v.optional(v.string()),
    }),
  ),
})
