import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { callRecords } from '../../server/db/schema/index.ts'
import { createSite } from '../../server/sites/site-repo.ts'
import { recordingsDir } from '../../server/telephony/control/routes.ts'
import { createGroup, createUser } from '../../server/users/user-repo.ts'
import { buildPcap } from './call-control-pcap.ts'
import { demo } from './call-control-helper.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'
import { escapedCallId } from '../../server/telephony/control/recordings/store.ts'

// The recording player's media path /recordings/player/{callId} (spec 001 §7): outside /api, the same permission,
// tenancy, visibility and recordings store as GET /api/v1/report/recordings/{callId}/.

const t = useTestApp()
const RECORDER = { username: 'gravadora', password: 'escuta2025x' }
const mine = 'player-mine@test'
const others = 'player-others@test'
const silent = 'player-silent@test'
const player = (callId: string, query = '') => `/recordings/player/${encodeURIComponent(callId)}${query}`

beforeAll(async () => {
  const d = await demo(t.database.db)
  // An agent who may play recordings but sees only the calls offered to them (no report permission).
  const group = await createGroup(t.database.db, d.site.id, 'Gravações', [PERMISSIONS.viewSoftphone, PERMISSIONS.downloadMonitorFile])
  const recorder = await createUser(t.database.db, { siteId: d.site.id, ...RECORDER, groupIds: [group] })
  const started = new Date('2025-03-03T13:00:00Z')
  const step = (callId: string, userId: number) => ({
    siteId: d.site.id,
    callId,
    step: 1,
    uid: randomUUID(),
    direction: 'inbound',
    callType: 20,
    kind: 'queue',
    phone: '11987654321',
    userId,
    queueId: d.support.id,
    dialStatus: 200,
    startedAt: started,
    answeredAt: new Date(started.getTime() + 5_000),
    endedAt: new Date(started.getTime() + 65_000),
    totalDuration: 65,
    answeredDuration: 60,
    record: true,
    decision: { action: 'relay' },
  })
  await t.database.db.insert(callRecords).values([step(mine, recorder.id), step(others, d.agent2.id), step(silent, recorder.id)])
  const dir = path.join(recordingsDir(t.config.dataDir), 'pcaps')
  await mkdir(dir, { recursive: true })
  const pcap = buildPcap([{ ssrc: 7, payloadType: 0, hz: 440, startSeconds: 0, seconds: 1, firstTimestamp: 0 }])
  // Named as rtpengine names them: the URI-escaped call id, '-', a hex tag.
  await writeFile(path.join(dir, `${escapedCallId(mine)}-0001.pcap`), pcap)
  await writeFile(path.join(dir, `${escapedCallId(others)}-0001.pcap`), pcap)
})

async function recorderClient() {
  const client = new TestClient(t.app)
  expect((await client.login(RECORDER.username, RECORDER.password)).statusCode).toBe(200)
  return client
}

describe('GET /recordings/player/{callId}', () => {
  it('plays inline as audio/mpeg with file_response=false, the same file the API serves', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const played = await supervisor.get(player(mine, '?file_response=false'))
    expect(played.statusCode).toBe(200)
    expect(played.headers['content-type']).toBe('audio/mpeg')
    expect(played.headers['x-content-type-options']).toBe('nosniff')
    expect(played.headers['content-disposition']).toBe('inline; filename="player-mine_test.mp3"')
    const bytes = played.rawPayload
    expect(bytes.subarray(0, 3).toString() === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)).toBe(true)
    expect(bytes.length).toBeGreaterThan(1000)
    // One recordings store: the API's answer is byte for byte the same file.
    const api = await supervisor.get(`/api/v1/report/recordings/${encodeURIComponent(mine)}/`)
    expect(api.rawPayload.equals(bytes)).toBe(true)
  })

  it('downloads as an mp3 attachment with download=1&extension=mp3', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const downloaded = await supervisor.get(player(mine, '?download=1&extension=mp3'))
    expect(downloaded.statusCode).toBe(200)
    expect(downloaded.headers['content-type']).toBe('audio/mpeg')
    expect(downloaded.headers['content-disposition']).toBe('attachment; filename="player-mine_test.mp3"')
    expect(downloaded.rawPayload.length).toBeGreaterThan(1000)
  })

  it('needs download_monitor_file and a session, and validates the query', async () => {
    expect((await new TestClient(t.app).get(player(mine, '?file_response=false'))).statusCode).toBe(401)
    const agent = await signedIn(t.app, 'agent1')
    const refused = await agent.get(player(mine, '?file_response=false'))
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ detail: expect.any(String) })
    const supervisor = await signedIn(t.app, 'supervisor')
    const bad = await supervisor.get(player(mine, '?extension=ogg'))
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toHaveProperty('extension')
  })

  it('plays only calls the user may see: an agent their own, other calls 404', async () => {
    const recorder = await recorderClient()
    expect((await recorder.get(player(mine, '?file_response=false'))).statusCode).toBe(200)
    const hidden = await recorder.get(player(others, '?file_response=false'))
    expect(hidden.statusCode).toBe(404)
    expect(hidden.json()).toEqual({ detail: expect.any(String) })
    // The supervisor sees the site's calls.
    expect((await (await signedIn(t.app, 'supervisor')).get(player(others, '?file_response=false'))).statusCode).toBe(200)
  })

  it('answers 404 with a detail for a call without a recording and for unknown calls, never the SPA', async () => {
    const recorder = await recorderClient()
    const none = await recorder.get(player(silent, '?file_response=false'))
    expect(none.statusCode).toBe(404)
    expect(none.json().detail).toMatch(/gravação/)
    expect((await recorder.get(player('nobody@test'))).statusCode).toBe(404)
    // Other paths under /recordings are the server's, not client routes of the SPA.
    const elsewhere = await recorder.get('/recordings/elsewhere')
    expect(elsewhere.statusCode).toBe(404)
    expect(elsewhere.headers['content-type']).toMatch(/json/)
  })

  it("keeps each site to its own calls' recordings", async () => {
    const site = await createSite(t.database.db, { domain: 'outra-player.example', name: 'Outra' })
    const group = await createGroup(t.database.db, site.id, 'Sup', [PERMISSIONS.viewSoftphone, PERMISSIONS.viewReports, PERMISSIONS.downloadMonitorFile])
    await createUser(t.database.db, { siteId: site.id, username: 'chefe', password: 'outra2025x', groupIds: [group] })
    const boss = new TestClient(t.app, { host: 'outra-player.example' })
    expect((await boss.login('chefe', 'outra2025x')).statusCode).toBe(200)
    expect((await boss.get(player(mine, '?file_response=false'))).statusCode).toBe(404)
  })
})
