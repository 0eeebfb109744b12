import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { RECORDING_PLAYER_PATH } from '../../contract/api/calls.ts'
import { TIMELINE_KINDS } from '../../contract/api/crm.ts'
import type { TimelineEvent, TimelineKind, TimelineResponse } from '../../contract/api/crm.ts'
import type { Db } from '../db/client.ts'
import { attachmentsOf } from './interaction-files.ts'

// One timeline per client: its calls (with the recording player), chats (the room viewer), activities, interactions,
// and the classifications and forms agents sent on its calls, newest first. Each source reads its own index
// ((client_id, time desc, id desc), partial on client_id) up to one page past the cursor, and the page is the newest
// of those: a client with 10,000 events costs a few index range scans, not a sort of everything.
//
// The cursor is the last event's (time, kind, id), so events at the same instant never repeat or vanish between pages.

type Cursor = { at: string; kind: string; id: number }

/** The exact time (PostgreSQL keeps microseconds, an ISO string milliseconds), the kind and the id of the last event. */
function encodeCursor(atKey: string, event: TimelineEvent): string {
  return Buffer.from(JSON.stringify([atKey, event.kind, event.id])).toString('base64url')
}

/** The cursor a page handed out; undefined when it is not one (the route answers 400). */
export function decodeCursor(text: string): Cursor | undefined {
  try {
    const [at, kind, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[]
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at)) || typeof kind !== 'string' || !Number.isSafeInteger(id)) return undefined
    return { at, kind, id: id as number }
  } catch {
    return undefined
  }
}

type Source = { kind: TimelineKind; query: (before: SQL, limit: number) => SQL }

/**
 * NPS answers on the timeline (kind 'nps'), one source per channel. Each returns the answered surveys of the client
 * with `data` holding at least { channel, score, scale, comment }. The chat's reads chat_nps_surveys through the room's
 * client. HOOK for the telephony NPS (built apart): add its source here — `(siteId, clientId, cursor) => Source` over
 * its answers table joined to call_records.client_id, ordered by its answer time — and describe() shows it as is.
 */
export const NPS_SOURCES: ((siteId: number, clientId: number, cursor: Cursor | undefined) => Source)[] = [
  (siteId, clientId, cursor) => ({
    kind: 'nps',
    query: (_b, limit) => sql`(select 'nps'::text as kind, s.id::bigint as id, s.answered_at as at,
        json_build_object('channel', 'chat', 'score', s.score, 'scale', s.scale, 'comment', s.comment, 'room_id', s.room_id,
          'room_uid', r.uid, 'user_id', s.user_id) as data
      from chat_nps_surveys s join chat_rooms r on r.id = s.room_id
      where r.client_id = ${clientId} and s.site_id = ${siteId} and s.answered_at is not null and s.score is not null
        ${before(cursor, sql`s.answered_at`, 'nps', sql`s.id::bigint`)}
      order by s.answered_at desc, s.id desc limit ${limit})`,
  }),
]

const before = (cursor: Cursor | undefined, at: SQL, kind: TimelineKind, id: SQL): SQL =>
  cursor ? sql`and (${at}, ${kind}::text, ${id}) < (${cursor.at}::timestamptz, ${cursor.kind}::text, ${cursor.id}::bigint)` : sql``

function sources(siteId: number, clientId: number, cursor: Cursor | undefined): Source[] {
  const call = (kind: TimelineKind, at: SQL, extra: SQL): Source => ({
    kind,
    query: (_b, limit) => sql`(select ${kind}::text as kind, c.id::bigint as id, ${at} as at,
        json_build_object('uid', c.uid, 'direction', c.direction, 'phone', c.phone, 'dial_status', c.dial_status,
          'dial_status_text', c.dial_status_text, 'answered_duration', c.answered_duration, 'user_id', c.user_id,
          'recording', c.recording_path is not null, 'classification', c.classification, 'form_id', c.form_id,
          'form_values', c.form_values) as data
      from call_records c
      where c.client_id = ${clientId} and c.site_id = ${siteId} and c.parent_uid is null ${extra}
        ${before(cursor, at, kind, sql`c.id::bigint`)}
      order by ${at} desc, c.id desc limit ${limit})`,
  })
  return [
    call('call', sql`c.started_at`, sql``),
    call('classification', sql`c.classified_at`, sql`and c.classified_at is not null`),
    call('form', sql`c.form_sent_at`, sql`and c.form_sent_at is not null`),
    {
      kind: 'chat',
      query: (_b, limit) => sql`(select 'chat'::text as kind, r.id::bigint as id, r.started_at as at,
          json_build_object('uid', r.uid, 'channel_id', r.channel_id, 'state', r.state, 'phone', r.phone, 'title', r.title,
            'user_id', r.user_id, 'ended_at', r.ended_at, 'last_client_message_content', r.last_client_message_content) as data
        from chat_rooms r
        where r.client_id = ${clientId} and r.site_id = ${siteId} ${before(cursor, sql`r.started_at`, 'chat', sql`r.id::bigint`)}
        order by r.started_at desc, r.id desc limit ${limit})`,
    },
    {
      kind: 'activity',
      query: (_b, limit) => sql`(select 'activity'::text as kind, a.id::bigint as id, a.start as at,
          json_build_object('subject', a.subject, 'destination', a.destination, 'done', a.done, 'user_id', a.user_id, 'type', a.type) as data
        from activities a
        where a.client_id = ${clientId} and a.site_id = ${siteId} ${before(cursor, sql`a.start`, 'activity', sql`a.id::bigint`)}
        order by a.start desc, a.id desc limit ${limit})`,
    },
    {
      kind: 'interaction',
      query: (_b, limit) => sql`(select 'interaction'::text as kind, i.id::bigint as id, i.created_at as at,
          json_build_object('subject', i.subject, 'text', left(i.text, 500), 'interaction_id', i.interaction_id,
            'interaction', (select t.description from crm_interactions t where t.id = i.interaction_id), 'call_id', i.call_id, 'chat_id', i.chat_id) as data
        from crm_client_interactions i
        where i.client_id = ${clientId} and i.site_id = ${siteId} ${before(cursor, sql`i.created_at`, 'interaction', sql`i.id::bigint`)}
        order by i.created_at desc, i.id desc limit ${limit})`,
    },
    ...NPS_SOURCES.map((source) => source(siteId, clientId, cursor)),
  ]
}

type Row = { kind: TimelineKind; id: number | string; at: Date | string; at_key: string; data: Record<string, unknown> | string }

function describe(kind: TimelineKind, id: number, data: Record<string, unknown>): Pick<TimelineEvent, 'title' | 'detail' | 'link'> {
  const text = (key: string) => (data[key] === null || data[key] === undefined ? '' : String(data[key]))
  switch (kind) {
    case 'call':
      return { title: text('phone'), detail: text('dial_status_text'), link: data.recording ? RECORDING_PLAYER_PATH.replace(':callId', text('uid')) : null }
    case 'chat':
      return { title: text('title') || text('phone'), detail: text('last_client_message_content'), link: `/chats?room=${text('uid')}` }
    case 'activity':
      return { title: text('subject'), detail: text('destination'), link: null }
    case 'interaction':
      return { title: text('subject'), detail: text('interaction'), link: `/interactions/${id}/edit` }
    case 'classification':
    case 'form':
      return { title: text('phone'), detail: '', link: null }
    case 'nps':
      // "NPS 9/10" (or /5), the customer's comment as the detail; a chat's opens its room.
      return {
        title: `NPS ${text('score')}/${text('scale') === '1-5' ? '5' : '10'}`,
        detail: text('comment'),
        link: text('room_uid') ? `/chats?room=${text('room_uid')}` : null,
      }
  }
}

/** One page of a client's timeline, newest first; `kinds` filters by channel. */
export async function clientTimeline(
  db: Db,
  siteId: number,
  clientId: number,
  options: { kinds?: readonly TimelineKind[]; cursor?: Cursor; limit: number },
): Promise<TimelineResponse> {
  const wanted = new Set(options.kinds?.length ? options.kinds : TIMELINE_KINDS)
  const parts = sources(siteId, clientId, options.cursor).filter((s) => wanted.has(s.kind))
  const limit = options.limit + 1
  const union = sql.join(
    parts.map((s) => s.query(sql``, limit)),
    sql` union all `,
  )
  const result = (await db.execute(sql`select *, at::text as at_key from (${union}) events order by at desc, kind desc, id desc limit ${limit}`)) as unknown as { rows: Row[] }
  const events = result.rows.map((row): TimelineEvent => {
    const id = Number(row.id)
    const data = typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data
    const at = row.at instanceof Date ? row.at.toISOString() : new Date(row.at).toISOString()
    return { kind: row.kind, id, at, ...describe(row.kind, id, data), data }
  })
  const page = events.slice(0, options.limit)
  // An interaction's files, listed and downloadable from the timeline (one query for the page).
  const files = await attachmentsOf(db, siteId, page.filter((e) => e.kind === 'interaction').map((e) => e.id))
  for (const event of page) if (event.kind === 'interaction') event.data.attachments = files.get(event.id) ?? []
  const last = result.rows[page.length - 1]
  return { results: page, next: events.length > options.limit && last ? encodeCursor(last.at_key, page[page.length - 1]!) : null }
}
