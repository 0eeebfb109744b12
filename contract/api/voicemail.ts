import * as v from 'valibot'
import { message } from '../messages.ts'

// Voicemail messages (issue 16 item 4): what callers left in the boxes of Settings → PABX → voicemails. The owner of
// a box is whoever's extension names it (several extensions: a shared box); pabx.view_voicemail sees every box of the
// site. Paths relative to /api; DRF-style lists.
export const VOICEMAIL_PATHS = {
  messages: '/v1/pabx/voicemail-messages/',
  message: '/v1/pabx/voicemail-messages/:id/',
  /** The message's audio: mp3 (`?extension=wav` the recording itself), inline; `download=1` as an attachment. */
  audio: '/v1/pabx/voicemail-messages/:id/audio/',
} as const

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const Count = v.pipe(v.string(invalid), v.regex(/^\d{1,9}$/, invalid), v.transform(Number))
const Flag = v.pipe(
  v.picklist(['0', '1', 'true', 'false'], invalid),
  v.transform((s) => s === '1' || s === 'true'),
)

export const VoicemailListQuery = v.object({
  offset: v.optional(Count),
  limit: v.optional(Count),
  voicemail: v.optional(Count),
  /** Only heard (true) or unheard (false) messages. */
  heard: v.optional(Flag),
})
export type VoicemailListQuery = v.InferOutput<typeof VoicemailListQuery>

export const VoicemailIdParam = v.object({ id: v.pipe(v.string(invalid), v.regex(/^\d{1,15}$/, invalid), v.transform(Number)) })

export const VoicemailAudioQuery = v.object({
  download: v.optional(v.picklist(['0', '1', 'true', 'false'], invalid)),
  extension: v.optional(v.picklist(['mp3', 'wav'], invalid)),
})

/** PATCH body: mark a message heard or unheard. */
export const VoicemailPatch = v.strictObject({ heard: v.boolean(invalid) }, invalid)

export type VoicemailMessage = {
  id: number
  voicemail: number
  /** The box's description (its mailbox when it has none). */
  voicemail_name: string
  call_id: string
  caller: string
  phone: string
  /** Seconds, rounded up. */
  duration: number
  heard: boolean
  heard_at: string | null
  created: string
  /** Where the browser plays it (under /api). */
  audio: string
}

export type VoicemailList = { count: number; unheard: number; results: VoicemailMessage[] }
