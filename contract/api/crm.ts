import * as v from 'valibot'
import { message } from '../messages.ts'
import { Id } from './agent.ts'
import type { CallFormDefinition } from './service-actions.ts'

// The CRM calls beyond the generic list and form of clients and leads (contract/entities/crm-records.ts): the client
// a number belongs to, possible duplicates and their merge, one timeline per client, a lead's calls. Our paths: the
// spec names none. Reading needs sites.view_client (leads: sites.view_mailingclient); merging sites.change_client
// and sites.delete_client (the merged client's row goes).

export const CRM_PATHS = {
  /** GET ?phone=: the client a number belongs to (the ringing call's or arriving chat's card), with the last contacts. */
  match: '/v1/crm/clients/match/',
  /** GET: other clients sharing a phone or a document with this one. */
  duplicates: '/v1/crm/clients/:id/duplicates/',
  /** POST { merge_id }: the other client's records move to this one and its row goes (audited). */
  merge: '/v1/crm/clients/:id/merge/',
  /** GET ?channel=&cursor=&limit=: the client's calls, chats, activities, interactions, classifications and forms. */
  timeline: '/v1/crm/clients/:id/timeline/',
  /** GET: a lead's calls, newest first. */
  leadCalls: '/v1/crm/leads/:id/calls/',
} as const

/** What a timeline event is; `channel` filters by these. */
export const TIMELINE_KINDS = ['call', 'chat', 'activity', 'interaction', 'classification', 'form', 'nps'] as const
export type TimelineKind = (typeof TIMELINE_KINDS)[number]

export const TIMELINE_PAGE_SIZE = 50
export const TIMELINE_MAX_PAGE_SIZE = 200

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)

export const TimelineQuery = v.object({
  /** One kind or several, comma-separated. */
  channel: v.optional(
    v.pipe(
      v.string(invalid),
      v.transform((s) => s.split(',').filter(Boolean)),
      v.array(v.picklist(TIMELINE_KINDS, invalid), invalid),
    ),
  ),
  cursor: v.optional(v.pipe(v.string(invalid), v.maxLength(200, invalid))),
  limit: v.optional(
    v.pipe(v.string(invalid), v.regex(/^\d{1,3}$/, invalid), v.transform(Number), v.minValue(1, invalid), v.maxValue(TIMELINE_MAX_PAGE_SIZE, invalid)),
  ),
})

export type TimelineEvent = {
  kind: TimelineKind
  /** The row's id in its own table (call record, chat room, activity, interaction). */
  id: number
  /** ISO 8601. */
  at: string
  title: string
  detail: string
  /** Where its viewer opens: the recording player (calls), the chat room viewer (chats). */
  link: string | null
  data: Record<string, unknown>
}

export type TimelineResponse = { results: TimelineEvent[]; next: string | null }

export const MatchQuery = v.object({ phone: v.pipe(v.string(invalid), v.trim(), v.minLength(1, invalid), v.maxLength(80, invalid)) })

export type ClientSummary = { id: number; name: string; phones: string; documents: string }
export type MatchResponse = { phone: string; client: ClientSummary | null; last_contacts: TimelineEvent[] }

export type Duplicate = { id: number; name: string; shared: { kind: 'phone' | 'document'; value: string }[] }
export type DuplicatesResponse = { results: Duplicate[] }

export const MergeBody = v.object({ merge_id: Id })
export type MergeResponse = { id: number; merged_id: number; moved: Record<string, number> }

export type LeadCall = {
  id: number
  uid: string
  started_at: string
  direction: string
  phone: string
  dial_status: number | null
  answered_duration: number | null
  user_id: number | null
  recording: boolean
}
export type LeadCallsResponse = { results: LeadCall[] }

// Interactions (spec 000 §2 /interactions with :interaction_id, :slug and :form): the type a page names and the form
// its custom fields come from; the several files kept with an interaction.

export const INTERACTION_PATHS = {
  /** GET: the site's active interaction types shown in the menu (one CRM menu entry each, /interactions/:id/:slug). */
  menu: '/v1/crm/interaction-types/',
  /** GET: an interaction type by id or slug, with its form-builder form (the page's custom fields). */
  type: '/v1/crm/interaction-types/:key/',
  /** GET: the interaction's files; POST (multipart, one or more `file` parts): adds files. */
  attachments: '/v1/crm/client-interactions/:id/attachments/',
  /** GET: the file itself (an attachment, nosniff); DELETE: removes it. */
  attachment: '/v1/crm/client-interactions/:id/attachments/:fileId/',
} as const

/** An id (digits) or a slug (lower-case letters, digits and dashes). */
export const InteractionTypeParams = v.object({
  key: v.pipe(v.string(invalid), v.regex(/^[a-z0-9-]{1,100}$/, invalid)),
})

export type InteractionTypeResponse = {
  id: number
  description: string
  slug: string
  color: string
  icon: string
  form: number
  /** The form's fields (null when the form is inactive or gone). */
  form_definition: CallFormDefinition | null
}

/** A type's menu entry: its list is /interactions/{id}/{slug}. */
export type InteractionMenuType = { id: number; description: string; slug: string; icon: string; color: string }
export type InteractionMenuResponse = { results: InteractionMenuType[] }

export type InteractionAttachment = {
  id: number
  /** The name it was uploaded with, made safe (no path, no control characters). */
  name: string
  mime: string
  size: number
  created_at: string
  created_by: number | null
  /** Where it downloads (authenticated, the interaction's site only). */
  url: string
}

export type InteractionAttachmentsResponse = { results: InteractionAttachment[] }

/** At most this many files per interaction. */
export const INTERACTION_MAX_ATTACHMENTS = 20
/** At most this many files in one upload. */
export const INTERACTION_MAX_FILES_PER_UPLOAD = 10

export const InteractionAttachmentParams = v.object({ id: Id, fileId: Id })
