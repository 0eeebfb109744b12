import * as v from 'valibot'
import { message } from '../messages.ts'
import { Id } from './agent.ts'

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

export type LeadCall = { id: number; uid: string; started_at: string; direction: string; phone: string; dial_status: number | null; answered_duration: number | null; user_id: number | null; recording: boolean }
export type LeadCallsResponse = { results: LeadCall[] }
