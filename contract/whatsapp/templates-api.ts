import * as v from 'valibot'
import { message } from '../messages.ts'

// The template calls of spec 001 §7 the WhatsApp channel answers: the options of the send-template dialog
// (GET /v1/chat/templates?channel=&ignore-team=) and one template ready to fill (GET /v1/chat/templates/{id}).

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const IdParam = v.pipe(v.string(invalid), v.regex(/^[1-9]\d{0,9}$/, invalid), v.transform(Number), v.maxValue(2_147_483_647, invalid))
const Flag = v.pipe(
  v.picklist(['true', 'false', '1', '0'], invalid),
  v.transform((s) => s === 'true' || s === '1'),
)

export const TemplateOptionsQuery = v.looseObject({
  channel: v.optional(IdParam),
  'ignore-team': v.optional(Flag),
})

export const TemplateDetailParams = v.object({ id: IdParam })
export const TemplateDetailQuery = v.looseObject({
  step_id: v.optional(IdParam),
  client_id: v.optional(IdParam),
  mailing_client_id: v.optional(IdParam),
})

/** One template as the dialog shows it: its text, header media and parameters (name and value) in order. */
export type ChatTemplateAnswer = {
  id: number
  description: string
  channel: number
  language: string
  template_type: 'TEXT' | 'IMAGE' | 'VIDEO'
  /** The header media's URL (fetched with the token as a query parameter), or null. */
  media: string | null
  content: string
  params: { name: string; value: string }[]
}
