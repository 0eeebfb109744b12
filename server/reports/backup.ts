import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, opendir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { sql } from 'drizzle-orm'
import type { BackupKind } from '../../contract/api/backups.ts'
import { REPORT_IDS, REPORT_TEXTS, reportText } from '../../contract/api/reports.ts'
import type { ReportFilters, ReportTextKey } from '../../contract/api/reports.ts'
import type { Db } from '../db/client.ts'
import { CSV_BOM, csvCell, csvSeparator } from './csv.ts'
import { countRows, reportCsv, resolveReport } from './engine.ts'
import { escapedCallId, recordingCallId } from '../telephony/control/recordings/store.ts'
import { tarFiles } from './tar.ts'
import type { TarEntry } from './tar.ts'

// A backup's archive (contract/api/backups.ts): its files are written to a scratch folder first (a tar header needs
// the file's size), each with its SHA-256 in SHA256SUMS, then tarred and gzipped into `out`. Reads in keyset batches
// of 2,000 like the CSV exports, so memory stays flat; `progress` is told the rows written and the rows to write.

const BATCH = 2_000
type Raw = Record<string, unknown>
const rows = async (db: Db, query: ReturnType<typeof sql>): Promise<Raw[]> => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows

/** `recordingsDir`: rtpengine's recordings (server/telephony/control/routes.ts recordingsDir); a reports backup takes the period's. */
export type BackupInput = { kind: BackupKind; siteId: number; lang: string; period: ReportFilters; recordingsDir?: string }
export type BackupProgress = (written: number, total: number) => Promise<void> | void

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

async function writeLines(file: string, lines: AsyncIterable<string>): Promise<void> {
  await pipeline(Readable.from(lines), createWriteStream(file))
}

/** Every report of the period as its CSV (the same writer as the downloads); `extra` more items follow (recordings). */
async function reportFiles(db: Db, input: BackupInput, dir: string, progress: BackupProgress, signal?: AbortSignal, extra = 0) {
  const resolved = []
  let total = extra
  for (const id of REPORT_IDS) {
    const report = await resolveReport(db, input.siteId, id, input.period, input.lang)
    total += await countRows(db, report)
    resolved.push(report)
  }
  await progress(0, total)
  let done = 0
  const files: { name: string; path: string }[] = []
  for (const report of resolved) {
    const name = `${report.dataset.id}.csv`
    const file = path.join(dir, name)
    const before = done
    async function* body() {
      yield CSV_BOM
      yield* reportCsv(db, report, input.lang, {
        signal,
        onBatch: async (written) => {
          done = before + written
          await progress(done, total)
        },
      })
    }
    await writeLines(file, body())
    files.push({ name, path: file })
  }
  return { files, done, total }
}

/**
 * The recordings of the calls that started (step 1) in the period: rtpengine's pcap files, as recorded (the audio the
 * player makes from them is decoded in memory, so the archive keeps the source). The call ids are read in keyset
 * batches and the pcaps folder is listed once (opendir, streamed), matching names by the exact call id
 * (store.ts). Returns the archive members, `recordings/<file name>`, oldest call first, and recordings.csv.
 */
async function recordingEntries(db: Db, input: BackupInput, signal?: AbortSignal): Promise<{ members: TarEntry[]; index?: TarEntry }> {
  if (!input.recordingsDir) return { members: [] }
  const report = await resolveReport(db, input.siteId, 'calls', input.period, input.lang)
  const { from, to, tz } = report.ctx
  const wanted = new Map<string, { callId: string; startedAt: string }>()
  let after = ''
  for (;;) {
    if (signal?.aborted) throw new Error('aborted')
    const batch = await rows(
      db,
      sql`select s.call_id, to_char(s.started_at at time zone ${tz}, 'YYYY-MM-DD HH24:MI:SS') as started_at from call_records s
        where s.site_id = ${input.siteId} and s.step = 1 and s.started_at >= ${from} and s.started_at < ${to} and s.call_id > ${after}
          and exists (select 1 from call_records r where r.site_id = s.site_id and r.call_id = s.call_id and r.recording_path is not null)
        order by s.call_id limit ${BATCH}`,
    )
    for (const row of batch) wanted.set(escapedCallId(String(row.call_id)), { callId: String(row.call_id), startedAt: String(row.started_at) })
    if (batch.length < BATCH) break
    after = String(batch[batch.length - 1]!.call_id)
  }
  if (wanted.size === 0) return { members: [] }
  const found: { file: string; callId: string; startedAt: string }[] = []
  try {
    for await (const entry of await opendir(path.join(input.recordingsDir, 'pcaps'))) {
      if (!entry.isFile()) continue
      const call = wanted.get(recordingCallId(entry.name) ?? '')
      if (call) found.push({ file: entry.name, ...call })
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  found.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.file < b.file ? -1 : 1))
  const sep = csvSeparator(input.lang)
  let index = `${CSV_BOM}${['call_id', 'started_at', 'file'].join(sep)}\r\n`
  const members = found.map(({ file, callId, startedAt }) => {
    // A name too long for a tar header (a long SIP Call-ID) is archived by its hash; recordings.csv maps it.
    const name = `recordings/${file.length <= 89 ? file : `${createHash('sha256').update(file).digest('hex').slice(0, 40)}.pcap`}`
    index += `${[csvCell(callId, sep, true), startedAt, name].join(sep)}\r\n`
    return { name, path: path.join(input.recordingsDir!, 'pcaps', file) }
  })
  return { members, index: { name: 'recordings.csv', data: Buffer.from(index) } }
}

const userName = (alias: string) => sql.raw(`coalesce(nullif(trim(${alias}.first_name || ' ' || ${alias}.last_name), ''), ${alias}.username)`)

/** The chats that started in the period: rooms.csv and messages.jsonl (attachments by their download link). */
async function chatFiles(db: Db, input: BackupInput, dir: string, progress: BackupProgress, signal?: AbortSignal) {
  const report = await resolveReport(db, input.siteId, 'chats', input.period, input.lang)
  const { from, to, tz } = report.ctx
  const inPeriod = sql`r.site_id = ${input.siteId} and r.started_at >= ${from} and r.started_at < ${to}`
  const [counts] = await rows(
    db,
    sql`select (select count(*) from chat_rooms r where ${inPeriod}) as rooms,
      (select count(*) from chat_room_messages m join chat_rooms r on r.id = m.room_id where ${inPeriod}) as messages`,
  )
  const total = Number(counts?.rooms ?? 0) + Number(counts?.messages ?? 0)
  await progress(0, total)
  let done = 0
  const lang = input.lang
  const sep = csvSeparator(lang)
  const value = (prefix: string, code: unknown) => {
    const key = `${prefix}.${String(code ?? '')}`
    return key in REPORT_TEXTS ? reportText(key as ReportTextKey, lang) : String(code ?? '')
  }
  const columns = ['room', 'started_at', 'answered_at', 'ended_at', 'channel', 'phone', 'title', 'agent', 'queue', 'state', 'ended_by', 'messages'] as const
  const labels: Record<(typeof columns)[number], string> = {
    room: 'ID',
    started_at: reportText('started_at', lang),
    answered_at: reportText('answered_at', lang),
    ended_at: reportText('ended_at', lang),
    channel: reportText('channel', lang),
    phone: reportText('phone', lang),
    title: reportText('title', lang),
    agent: reportText('agent', lang),
    queue: reportText('queue', lang),
    state: reportText('state', lang),
    ended_by: reportText('ended_by', lang),
    messages: reportText('messages', lang),
  }
  const time = (column: string) => sql.raw(`to_char(r.${column} at time zone '${tz.replace(/'/g, "''")}', 'YYYY-MM-DD HH24:MI:SS')`)
  async function* roomLines() {
    yield CSV_BOM
    yield `${columns.map((c) => csvCell(labels[c], sep, true)).join(sep)}\r\n`
    let after = 0
    for (;;) {
      if (signal?.aborted) throw new Error('aborted')
      const batch = await rows(
        db,
        sql`select r.id, r.uid as room, ${time('started_at')} as started_at, ${time('answered_at')} as answered_at, ${time('ended_at')} as ended_at,
          coalesce(ch.description, '') as channel, r.phone, r.title, ${userName('u')} as agent, coalesce(q.description, '') as queue, r.state, r.ended_by,
          (select count(*) from chat_room_messages m where m.room_id = r.id) as messages
        from chat_rooms r
          left join users u on u.id = r.user_id
          left join chat_queues q on q.id = r.queue_id
          left join chat_channels ch on ch.id = r.channel_id
        where ${inPeriod} and r.id > ${after} order by r.id limit ${BATCH}`,
      )
      if (batch.length === 0) return
      let chunk = ''
      for (const row of batch) {
        chunk += `${columns
          .map((c) => {
            const cell = row[c]
            if (cell === null || cell === undefined) return ''
            if (c === 'state') return csvCell(value('chatState', cell), sep, true)
            if (c === 'ended_by') return csvCell(value('endedBy', cell), sep, true)
            if (c === 'messages') return String(cell)
            return csvCell(String(cell), sep, true)
          })
          .join(sep)}\r\n`
      }
      yield chunk
      after = Number(batch[batch.length - 1]!.id)
      done += batch.length
      await progress(done, total)
      if (batch.length < BATCH) return
    }
  }
  async function* messageLines() {
    let after = 0
    for (;;) {
      if (signal?.aborted) throw new Error('aborted')
      const batch = await rows(
        db,
        sql`select m.id, r.uid as room, m.uid, m.created_at, m.sent_by, ${userName('u')} as agent, m.type, m.content, m.visible,
          m.attachment_file, m.attachment_name, m.attachment_mime, m.attachment_size, m.latitude, m.longitude, m.location_name, m.status
        from chat_room_messages m
          join chat_rooms r on r.id = m.room_id
          left join users u on u.id = m.user_id
        where ${inPeriod} and m.id > ${after} order by m.id limit ${BATCH}`,
      )
      if (batch.length === 0) return
      let chunk = ''
      for (const m of batch) {
        const line: Record<string, unknown> = {
          room: m.room,
          id: Number(m.id),
          uid: m.uid,
          at: new Date(m.created_at as string).toISOString(),
          sent_by: m.sent_by,
          agent: m.agent ?? null,
          type: m.type,
          content: m.content,
          visible: m.visible,
          status: m.status ?? null,
        }
        if (m.attachment_file) {
          line.attachment = { name: m.attachment_name, mime: m.attachment_mime, size: m.attachment_size, url: `/api/v1/chat/attachments/${m.id}/` }
        }
        if (m.latitude !== null && m.latitude !== undefined) line.location = { latitude: m.latitude, longitude: m.longitude, name: m.location_name }
        chunk += `${JSON.stringify(line)}\n`
      }
      yield chunk
      after = Number(batch[batch.length - 1]!.id)
      done += batch.length
      await progress(done, total)
      if (batch.length < BATCH) return
    }
  }
  const roomsFile = path.join(dir, 'rooms.csv')
  const messagesFile = path.join(dir, 'messages.jsonl')
  await writeLines(roomsFile, roomLines())
  await writeLines(messagesFile, messageLines())
  return [
    { name: 'rooms.csv', path: roomsFile },
    { name: 'messages.jsonl', path: messagesFile },
  ]
}

/**
 * Builds the archive into `out` (a .tar.gz); returns its SHA-256. The CSVs are written to a scratch folder first, the
 * recordings are streamed from where rtpengine wrote them; every member is hashed as it streams into the tar, and
 * SHA256SUMS, the last member, is made from those hashes.
 */
export async function buildBackup(db: Db, input: BackupInput, out: string, progress: BackupProgress, signal?: AbortSignal): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'atende-backup-'))
  try {
    const recordings = input.kind === 'reports' ? await recordingEntries(db, input, signal) : { members: [] }
    let files: TarEntry[]
    let done = 0
    let total = 0
    if (input.kind === 'reports') ({ files, done, total } = await reportFiles(db, input, dir, progress, signal, recordings.members.length))
    else files = await chatFiles(db, input, dir, progress, signal)
    let sums = ''
    const recordingNames = new Set(recordings.members.map((m) => m.name))
    async function* members(): AsyncGenerator<TarEntry> {
      yield* files
      if (recordings.index) yield recordings.index
      yield* recordings.members
      yield { name: 'SHA256SUMS', data: Buffer.from(sums) }
    }
    await pipeline(
      Readable.from(
        tarFiles(members(), {
          onFile: async (name, hash) => {
            if (name === 'SHA256SUMS') return
            sums += `${hash}  ${name}\n`
            if (recordingNames.has(name)) {
              if (signal?.aborted) throw new Error('aborted')
              await progress(++done, total)
            }
          },
        }),
      ),
      createGzip(),
      createWriteStream(out),
    )
    return await sha256Of(out)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
