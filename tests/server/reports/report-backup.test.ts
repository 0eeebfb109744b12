import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BackupJob } from '../../../contract/api/backups.ts'
import { callRecords, chatRoomMessages, chatRooms, pauseReports } from '../../../server/db/schema/index.ts'
import { demo } from '../call-control-helper.ts'
import { channel } from '../chat/chat-fixtures.ts'
import type { TestClient } from '../helper.ts'
import { signedIn, useTestApp } from '../helper.ts'

// Backups (/reports/backup, /chats-backup): the archive's content — every report of the period as its CSV, or the
// period's chats as rooms.csv and messages.jsonl —, its SHA256SUMS and checksum, who may ask and see it.

const t = useTestApp()
const at = (iso: string) => new Date(iso)
const PERIOD = { date_from: '2025-03-03', date_to: '2025-03-03', tz: 'America/Sao_Paulo' }
let roomUid = ''
let recording = Buffer.alloc(0)

/** The members of a .tar.gz: name → bytes. */
function untar(gz: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(gz)
  const out = new Map<string, Buffer>()
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512)
    if (header.every((byte) => byte === 0)) break
    const name = header.subarray(0, 100).toString('ascii').replace(/\0.*$/s, '')
    const size = parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, ''), 8)
    // The header's checksum: the sum of its bytes with the checksum field as spaces.
    const sum = parseInt(header.subarray(148, 156).toString('ascii'), 8)
    const copy = Buffer.from(header)
    copy.fill(0x20, 148, 156)
    expect(copy.reduce((a, b) => a + b, 0)).toBe(sum)
    out.set(name, tar.subarray(offset + 512, offset + 512 + size))
    offset += 512 + Math.ceil(size / 512) * 512
  }
  return out
}

async function waitFor(client: TestClient, base: string, id: number): Promise<BackupJob> {
  for (;;) {
    const job = (await client.get(`${base}${id}/`)).json() as BackupJob
    if (job.status === 'done') return job
    if (job.status === 'failed') throw new Error(`backup failed: ${job.error}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

beforeAll(async () => {
  const db = t.database.db
  const d = await demo(db)
  const site = d.site.id
  await db.insert(callRecords).values([
    // 23:50 local on the 3rd: in; 00:10 local on the 4th: out.
    {
      siteId: site,
      callId: 'bk-in',
      step: 1,
      uid: randomUUID(),
      direction: 'inbound',
      callType: 20,
      kind: 'queue',
      phone: '11911112222',
      userId: d.agent1.id,
      queueId: d.support.id,
      startedAt: at('2025-03-04T02:50:00Z'),
      answeredAt: at('2025-03-04T02:50:05Z'),
      answeredDuration: 30,
      record: true,
      recordingPath: 'pcaps/bk-in-',
      decision: {},
    },
    {
      siteId: site,
      callId: 'bk-out',
      step: 1,
      uid: randomUUID(),
      direction: 'inbound',
      callType: 20,
      kind: 'queue',
      startedAt: at('2025-03-04T03:10:00Z'),
      decision: {},
    },
  ])
  // rtpengine's pcaps (server/telephony/control/recordings/store.ts names): two of bk-in (one of 3 MB, streamed into
  // the archive), one of bk-out (outside the period) and one of a call id that only starts like bk-in's.
  const pcaps = path.join(t.dataDir, 'telephony', 'recordings', 'pcaps')
  await mkdir(pcaps, { recursive: true })
  recording = randomBytes(3 * 1024 * 1024 + 7)
  await writeFile(path.join(pcaps, 'bk-in-0a1b.pcap'), recording)
  await writeFile(path.join(pcaps, 'bk-in-ff.pcap'), Buffer.from('second leg'))
  await writeFile(path.join(pcaps, 'bk-out-0c.pcap'), Buffer.from('not this period'))
  await writeFile(path.join(pcaps, 'bk-in-2-0d.pcap'), Buffer.from('another call'))
  await db
    .insert(pauseReports)
    .values({
      siteId: site,
      userId: d.agent1.id,
      description: 'Almoço',
      startedAt: at('2025-03-03T15:00:00Z'),
      endedAt: at('2025-03-03T16:00:00Z'),
      duration: 3600,
    })
  const channelId = await channel(db, site)
  const [room] = await db
    .insert(chatRooms)
    .values({
      uid: randomUUID(),
      siteId: site,
      channelId,
      contact: '5511900001111',
      address: '5511900001111',
      phone: '5511900001111',
      title: 'Cliente "Um"; de teste',
      userId: d.agent1.id,
      state: 'ended',
      startedAt: at('2025-03-03T14:00:00Z'),
      endedAt: at('2025-03-03T14:30:00Z'),
    })
    .returning()
  roomUid = room!.uid
  const [later] = await db
    .insert(chatRooms)
    .values({
      uid: randomUUID(),
      siteId: site,
      channelId,
      contact: '5511900002222',
      address: '5511900002222',
      phone: '5511900002222',
      title: 'Outro dia',
      startedAt: at('2025-03-04T12:00:00Z'),
    })
    .returning()
  const message = (roomId: number, values: Partial<typeof chatRoomMessages.$inferInsert>) => ({
    uid: randomUUID(),
    siteId: site,
    roomId,
    channelId,
    sentBy: 'client',
    ...values,
  })
  await db.insert(chatRoomMessages).values([
    message(room!.id, { content: 'Olá, preciso de ajuda', createdAt: at('2025-03-03T14:00:01Z') }),
    message(room!.id, { sentBy: 'agent', userId: d.agent1.id, content: 'Claro!\nComo posso ajudar?', createdAt: at('2025-03-03T14:01:00Z') }),
    message(room!.id, {
      type: 'document',
      attachmentFile: 'abc.pdf',
      attachmentName: 'boleto.pdf',
      attachmentMime: 'application/pdf',
      attachmentSize: 1234,
      attachmentState: 'ready',
      createdAt: at('2025-03-03T14:02:00Z'),
    }),
    message(later!.id, { content: 'não é deste período', createdAt: at('2025-03-04T12:00:01Z') }),
  ])
})

describe('/api/v1/report/backups/', () => {
  it("archives every report of the period as CSV, with SHA256SUMS and the archive's checksum", async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const created = await supervisor.post('/api/v1/report/backups/', PERIOD)
    expect(created.statusCode, created.body).toBe(201)
    const job = created.json() as BackupJob
    expect(job).toMatchObject({ kind: 'reports', date_from: '2025-03-03', date_to: '2025-03-03', file_name: 'backup-reports_2025-03-03_2025-03-03.tar.gz' })
    const done = await waitFor(supervisor, '/api/v1/report/backups/', job.id)
    expect(done.progress).toBe(1)
    expect(done.rows_written).toBe(done.total_rows)
    expect(done.sha256).toMatch(/^[0-9a-f]{64}$/)
    const file = await supervisor.get(`/api/v1/report/backups/${job.id}/download/`)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('application/gzip')
    expect(file.headers['x-checksum-sha256']).toBe(done.sha256)
    expect(createHash('sha256').update(file.rawPayload).digest('hex')).toBe(done.sha256)
    expect(file.rawPayload.length).toBe(done.size)
    const members = untar(file.rawPayload)
    expect([...members.keys()]).toEqual([
      'calls.csv',
      'call-steps.csv',
      'chats.csv',
      'pauses.csv',
      'after-service.csv',
      'agent-productivity.csv',
      'queue-service-level.csv',
      'classifications.csv',
      'nps.csv',
      'kpi.csv',
      'agent-status.csv',
      'dialer-results.csv',
      'recordings.csv',
      'recordings/bk-in-0a1b.pcap',
      'recordings/bk-in-ff.pcap',
      'SHA256SUMS',
    ])
    // The period's recordings, byte for byte, and which call each is.
    expect(members.get('recordings/bk-in-0a1b.pcap')!.equals(recording)).toBe(true)
    expect(members.get('recordings/bk-in-ff.pcap')!.toString()).toBe('second leg')
    expect(members.get('recordings.csv')!.toString('utf8').replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'call_id;started_at;file',
      'bk-in;2025-03-03 23:50:00;recordings/bk-in-0a1b.pcap',
      'bk-in;2025-03-03 23:50:00;recordings/bk-in-ff.pcap',
      '',
    ])
    const calls = members
      .get('calls.csv')!
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
    expect(calls).toHaveLength(2)
    expect(calls[1]).toMatch(/^2025-03-03 23:50:00;Entrada;11911112222;Ana Agente;Suporte;Sim;/)
    expect(members.get('pauses.csv')!.toString('utf8')).toContain('Almoço;01:00:00')
    expect(members.get('chats.csv')!.toString('utf8')).toContain('"Cliente ""Um""; de teste"')
    const sums = members.get('SHA256SUMS')!.toString('utf8').trim().split('\n')
    expect(sums).toHaveLength(15)
    for (const line of sums) {
      const [hash, name] = line.split('  ')
      expect(createHash('sha256').update(members.get(name!)!).digest('hex')).toBe(hash)
    }
    expect((await supervisor.get('/api/v1/report/backups/')).json()).toMatchObject({ count: 1, results: [{ id: job.id, status: 'done' }] })
    // Not a processing-queue export, and not another user's.
    expect((await supervisor.get('/api/v1/report/processing-queue/')).json()).toMatchObject({ count: 0 })
    expect((await supervisor.get(`/api/v1/report/processing-queue/${job.id}/`)).statusCode).toBe(404)
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.get(`/api/v1/report/backups/${job.id}/download/`)).statusCode).toBe(404)
    expect((await supervisor.delete(`/api/v1/report/backups/${job.id}/`)).statusCode).toBe(204)
    expect((await supervisor.get(`/api/v1/report/backups/${job.id}/download/`)).statusCode).toBe(404)
  })

  it('refuses a bad period and users without the permission', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const bad = await supervisor.post('/api/v1/report/backups/', { date_from: '2025-03-05', date_to: '2025-03-01' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json() as object)).toEqual(['date_to'])
    expect((await supervisor.post('/api/v1/chat/backups/', { tz: 'Mars/Base' })).statusCode).toBe(400)
    const agent = await signedIn(t.app, 'agent1')
    for (const path of ['/api/v1/report/backups/', '/api/v1/chat/backups/']) {
      expect((await agent.get(path)).statusCode).toBe(403)
      expect((await agent.post(path, PERIOD)).statusCode).toBe(403)
    }
  })
})

describe('/api/v1/chat/backups/', () => {
  it("archives the period's chats: one row per room, one JSON line per message, attachments by link", async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const created = await supervisor.post('/api/v1/chat/backups/', PERIOD)
    expect(created.statusCode, created.body).toBe(201)
    const job = created.json() as BackupJob
    const done = await waitFor(supervisor, '/api/v1/chat/backups/', job.id)
    // One room and its three messages (the 4th's room and message are another period's).
    expect(done).toMatchObject({ kind: 'chats', total_rows: 4, rows_written: 4, file_name: 'backup-chats_2025-03-03_2025-03-03.tar.gz' })
    const file = await supervisor.get(`/api/v1/chat/backups/${job.id}/download/`)
    expect(createHash('sha256').update(file.rawPayload).digest('hex')).toBe(done.sha256)
    const members = untar(file.rawPayload)
    expect([...members.keys()]).toEqual(['rooms.csv', 'messages.jsonl', 'SHA256SUMS'])
    const rooms = members
      .get('rooms.csv')!
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
    expect(rooms[0]).toBe('ID;Início;Atendida em;Fim;Canal;Telefone;Nome;Agente;Fila;Situação;Encerrado por;Mensagens')
    expect(rooms).toHaveLength(2)
    expect(rooms[1]).toContain(`${roomUid};2025-03-03 11:00:00;;2025-03-03 11:30:00;`)
    expect(rooms[1]).toMatch(/;"Cliente ""Um""; de teste";Ana Agente;;Encerrada;;3$/)
    const lines = members
      .get('messages.jsonl')!
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((m) => m.content)).toEqual(['Olá, preciso de ajuda', 'Claro!\nComo posso ajudar?', ''])
    expect(lines[1]).toMatchObject({ room: roomUid, sent_by: 'agent', agent: 'Ana Agente', at: '2025-03-03T14:01:00.000Z' })
    const id = lines[2]!.id as number
    expect(lines[2]!.attachment).toEqual({ name: 'boleto.pdf', mime: 'application/pdf', size: 1234, url: `/api/v1/chat/attachments/${id}/` })
    // The reports' list is another one.
    expect((await supervisor.get('/api/v1/report/backups/')).json()).toMatchObject({ count: 0 })
    expect((await supervisor.get(`/api/v1/report/backups/${job.id}/`)).statusCode).toBe(404)
  })
})
