import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EndpointStatus } from '../../contract/codes/states.ts'
import type { VoicemailList, VoicemailMessage } from '../../contract/api/voicemail.ts'
import { readServerFrame } from '../../contract/realtime/service-socket.ts'
import { setChannelLogin } from '../../server/agent/channel-service.ts'
import { reportStatus } from '../../server/agent/status-service.ts'
import { USER_CHANNEL } from '../../server/bus/channels.ts'
import type { UserEnvelope } from '../../server/bus/channels.ts'
import {
  callRecords,
  pabxDevices,
  pabxQueues,
  pabxSounds,
  pabxSoundsEntries,
  pabxVoicemails,
  serviceNpsTelephony,
  serviceNpsTelephonyMoreQuestions,
  teams,
  telephonyNpsAnswers,
  users,
  voicemailMessages,
} from '../../server/db/schema/index.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { mediaAppAddress } from '../../server/telephony/index.ts'
import { loadConfig } from '../../server/config.ts'
import { saveMedia, type MediaKind } from '../../server/entities/media-store.ts'
import { tablesOf } from '../../server/entities/tables.ts'
import { voicemailDir } from '../../server/media/library.ts'
import type { CallEvent } from '../../server/telephony/types.ts'
import { signedIn } from './helper.ts'
import type { TestClient } from './helper.ts'
import { freePorts, RecordingControl, startBaresip, startStackWith, until } from './telephony/stack.ts'
import type { Baresip, Stack } from './telephony/stack.ts'

// Voicemail and NPS by keypad in the media app, with the real engines (Kamailio, rtpengine, the media app, baresip):
// a caller sent to a voicemail box hears the greeting and the tone, speaks (baresip's 440 Hz), and the message is
// stored with the caller and its length, its owner told, then listened to (mp3), marked heard and deleted over the
// API; a caller of a queue with a telephony NPS survey is kept when the agent hangs up, hears the questions and
// answers them with RFC 2833 keys, stored with the call, the agent and the queue.
// Ports: those of media-queue.test.ts (engines 60000–60990, media app 61000–61990, RTP 62000–63990; free ports are
// picked at random inside them, so both files can run at once).

type Control = RecordingControl<CallControlService>
let stack: Stack<Control>
let admin: TestClient
let agentClient: TestClient
let agent2Client: TestClient
let agent: Baresip
let outside: Baresip
const started: Baresip[] = []
const OUTSIDE = '011987654321'
const VM_DID = '551140002020'
const VM_SHORT_DID = '551140002121'
const NPS_DID = '551140002222'
const ROUTE_NPS_DID = '551140002323'
const GREETING_HZ = 880
const Q1_HZ = 700
const Q2_HZ = 520
const ids = { agent: 0, siteId: 0, box: 0, shortBox: 0, queue: 0, nps: 0, trunk: 0, device: 0 }
const notices: UserEnvelope[] = []

const WAV: MediaKind = { mime: 'audio/wav', ext: 'wav', maxBytes: 20 * 1024 * 1024, matches: () => true }

async function tone(name: string, hz: number, seconds: number): Promise<string> {
  const file = path.join(stack.dir, `${name}.wav`)
  execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', file, 'synth', String(seconds), 'sine', String(hz), 'vol', '0.5'])
  return file
}

async function sound(description: string, made: string): Promise<number> {
  const db = stack.database.db
  const plan = tablesOf('pabx.sounds-entries').plan.fields.find((f) => f.kind === 'file' && f.field.name === 'file')
  const file = await saveMedia(stack.app.deps.config.mediaDir, plan?.kind === 'file' ? plan.dir : '', readFileSync(made), WAV)
  const [s] = await db.insert(pabxSounds).values({ siteId: ids.siteId, description }).returning()
  const [entry] = await db.insert(pabxSoundsEntries).values({ siteId: ids.siteId, soundId: s!.id, description, file }).returning()
  return entry!.id
}

async function created(url: string, body: Record<string, unknown>): Promise<number> {
  const response = await admin.post(url, body)
  expect(response.statusCode, response.body).toBe(201)
  return (response.json() as { id: number }).id
}

async function agentState(userId: number, status: EndpointStatus, loggedIn: boolean) {
  const [user] = await stack.database.db.select().from(users).where(eq(users.id, userId))
  await reportStatus(stack.app.deps, { siteId: user!.siteId, userId }, 'telephony', status)
  await setChannelLogin(stack.app.deps, user!, 'telephony', loggedIn, 'user')
}

const callEvents = (callId: string) => stack.control.events.filter((e): e is CallEvent => e.event === 'call' && e.call_id === callId)
const hasEvent = (callId: string, state: CallEvent['state']) => callEvents(callId).some((e) => e.state === state)
const registered = (user: string) => stack.control.events.some((e) => e.event === 'registration' && e.aor === `${user}@localhost` && e.state === 'registered')

function rms(pcm: Buffer): number {
  let sum = 0
  const n = Math.floor(pcm.length / 2)
  for (let i = 0; i < n; i++) sum += pcm.readInt16LE(i * 2) ** 2
  return n ? Math.sqrt(sum / n) : 0
}

function toneHz(pcm: Buffer, rate: number): number {
  let crossings = 0
  const n = Math.floor(pcm.length / 2)
  for (let i = 1; i < n; i++) if (pcm.readInt16LE((i - 1) * 2) < 0 !== pcm.readInt16LE(i * 2) < 0) crossings++
  return crossings / 2 / (n / rate)
}

/** Runs of 100 ms windows where the caller heard a tone of about `hz`. */
function bursts(pcm: Buffer, hz: number): number {
  const window = 800 * 2
  let runs = 0
  let inside = false
  for (let at = 0; at + window <= pcm.length; at += window) {
    const part = pcm.subarray(at, at + window)
    const hit = rms(part) > 1000 && Math.abs(toneHz(part, 8000) - hz) < 40
    if (hit && !inside) runs++
    inside = hit
  }
  return runs
}

const seen = new Set<string>()
function heard(ua: Baresip): Buffer {
  const dumps = readdirSync(ua.home)
    .filter((f) => f.endsWith('-dec.wav'))
    .map((f) => path.join(ua.home, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
  return dumps[0] && !seen.has(dumps[0]) ? readFileSync(dumps[0]).subarray(44) : Buffer.alloc(0)
}
function forgetDumps(ua: Baresip): void {
  for (const f of readdirSync(ua.home).filter((name) => name.endsWith('-dec.wav'))) seen.add(path.join(ua.home, f))
}

async function dial(did: string): Promise<string> {
  forgetDumps(outside)
  const before = stack.control.routes.length
  await outside.command('dial', `sip:${did}@localhost`)
  await until(() => stack.control.routes.slice(before).some((r) => r.ruri_user === did), 10_000, 'the route request')
  return stack.control.routes.slice(before).find((r) => r.ruri_user === did)!.call_id
}

beforeAll(async () => {
  const [mediaSip, mediaControl] = await freePorts(2, 61000, 61990)
  const env = { MEDIA_SIP_PORT: String(mediaSip), MEDIA_CONTROL_PORT: String(mediaControl) }
  const mediaApp = mediaAppAddress(loadConfig(env).telephony)
  stack = await startStackWith((db) => new RecordingControl(createCallControl({ db, mediaApp })), env, { ports: [60000, 60990], rtpRange: [62000, 63990] })
  admin = await signedIn(stack.app, 'admin')
  agentClient = await signedIn(stack.app, 'agent1')
  agent2Client = await signedIn(stack.app, 'agent2')
  const db = stack.database.db
  const [a1] = await db.select().from(users).where(eq(users.username, 'agent1'))
  ids.agent = a1!.id
  ids.siteId = a1!.siteId
  await db.update(teams).set({ enableAfterService: false }).where(eq(teams.siteId, a1!.siteId))
  await stack.app.deps.bus.subscribe(USER_CHANNEL, (payload) => notices.push(payload as UserEnvelope))

  agent = await startBaresip(stack, '10001', stack.secrets['10001']!, { trace: true })
  outside = await startBaresip(stack, OUTSIDE, 'unused', { register: false, record: true, trace: true })
  started.push(agent, outside)
  ids.trunk = await created('/api/v1/pabx/trunks/', { description: 'Operadora correio', host: '127.0.0.1', port: outside.sipPort, transport: 'udp', codecs: ['PCMU', 'PCMA'] })

  // agent1's extension names the box: agent1 owns it.
  const greeting = await sound('Deixe seu recado', await tone('vm-greeting880', GREETING_HZ, 1))
  ids.box = await created('/api/v1/pabx/voicemails/', { description: 'Caixa do agente 1', mailbox: '10001', greeting, max_message_seconds: 60 })
  await db.update(pabxDevices).set({ voicemailId: ids.box }).where(and(eq(pabxDevices.siteId, ids.siteId), eq(pabxDevices.id, a1!.deviceId!)))
  // A box whose messages last at most 2 s (below the form's minimum; set here so the test is short).
  ids.shortBox = await created('/api/v1/pabx/voicemails/', { description: 'Caixa curta', mailbox: '20002' })
  await db.update(pabxVoicemails).set({ maxMessageSeconds: 2 }).where(eq(pabxVoicemails.id, ids.shortBox))

  // The NPS survey: two questions, a thank-you; the queue asks it after its agent hangs up.
  const q1 = await sound('Pergunta 1', await tone('q1', Q1_HZ, 1))
  const q2 = await sound('Pergunta 2', await tone('q2', Q2_HZ, 1))
  const thanks = await sound('Obrigado', await tone('thanks', 400, 0.5))
  const [nps] = await db.insert(serviceNpsTelephony).values({ siteId: ids.siteId, description: 'NPS', questionAudioId: q1, thanksAudioId: thanks, timeout: 5, attempts: 2 }).returning()
  ids.nps = nps!.id
  await db.insert(serviceNpsTelephonyMoreQuestions).values({ siteId: ids.siteId, npstelephonyId: nps!.id, position: 0, audioId: q2 })
  ids.queue = await created('/api/v1/pabx/queues/', {
    description: 'Fila com NPS',
    strategy: 'linear',
    teams: [a1!.teamId],
    members: [{ user: ids.agent, penalty: 0 }],
    ring_time: 10,
    max_wait_time: 0,
  })
  await db.update(pabxQueues).set({ npsId: nps!.id }).where(eq(pabxQueues.id, ids.queue))

  for (const [did, destination] of [
    [VM_DID, { app: 'voicemail', appdata: ids.box }],
    [VM_SHORT_DID, { app: 'voicemail', appdata: ids.shortBox }],
    [NPS_DID, { app: 'queue', appdata: ids.queue }],
  ] as const) {
    const route = await created('/api/v1/pabx/inbound-routes/', { description: `Entrada ${did}`, destination, record: false })
    await created('/api/v1/pabx/numbers/', { number: did, description: `DID ${did}`, trunk: ids.trunk, inbound_route: route })
  }
  // A route straight to the agent's extension naming the survey itself (no queue).
  ids.device = a1!.deviceId!
  const surveyed = await created('/api/v1/pabx/inbound-routes/', {
    description: 'Entrada com NPS',
    destination: { app: 'pjsip', appdata: ids.device },
    nps: ids.nps,
    record: false,
  })
  await created('/api/v1/pabx/numbers/', { number: ROUTE_NPS_DID, description: 'DID com NPS', trunk: ids.trunk, inbound_route: surveyed })
  await stack.app.telephony.publisher!.pushChanges()
  await until(() => registered('10001'), 15_000, 'the agent registered')
  await until(() => stack.app.media?.connected === true, 10_000, 'the media app link')
}, 120_000)

afterAll(async () => {
  for (const ua of started) await ua.stop()
  await stack?.close()
})

describe('voicemail', () => {
  it('greets, records after the tone, stores the message with the caller and its length, and tells the owner', async () => {
    const callId = await dial(VM_DID)
    await until(() => String(stack.app.media!.stateOf(callId)) === 'recording', 15_000, 'recording after the greeting and the tone')
    const atRecording = heard(outside)
    expect(bursts(atRecording, GREETING_HZ)).toBe(1)
    expect(bursts(atRecording, 1000)).toBe(1)
    // The caller speaks (baresip's 440 Hz) for three seconds, then hangs up: that is the scenario's own time, not a
    // wait for the system (nothing reaches the caller while recording, so there is nothing else to watch).
    const spokeFrom = Date.now()
    await until(() => Date.now() - spokeFrom >= 3000, 5_000, 'three seconds spoken')
    await outside.command('hangup')
    await until(async () => (await stack.database.db.select().from(voicemailMessages).where(eq(voicemailMessages.callId, callId))).length === 1, 10_000, 'the message stored')
    const [message] = await stack.database.db.select().from(voicemailMessages).where(eq(voicemailMessages.callId, callId))
    expect(message).toMatchObject({ siteId: ids.siteId, voicemailId: ids.box, caller: OUTSIDE, heardAt: null })
    expect(message!.durationMs).toBeGreaterThan(2500)
    expect(message!.durationMs).toBeLessThan(8000)
    // What was recorded is the caller's voice (440 Hz), not the greeting.
    const wav = readFileSync(path.join(voicemailDir(stack.database.db), message!.file)).subarray(44)
    expect(rms(wav.subarray(8000))).toBeGreaterThan(1000)
    expect(Math.abs(toneHz(wav.subarray(8000), 8000) - 440)).toBeLessThan(30)
    // The owner's service sockets are told.
    await until(() => notices.some((n) => n.message.action === 'voicemail'), 5_000, 'the owner notified')
    const notice = notices.find((n) => n.message.action === 'voicemail')!
    expect(notice).toMatchObject({ site_id: ids.siteId, user_id: ids.agent, message: { action: 'voicemail', voicemail: ids.box, message: message!.id } })
    expect(readServerFrame(notice.message)).toMatchObject({ kind: 'message' })
  }, 60_000)

  it('is listened to (mp3), marked heard and deleted by its owner; others see nothing', async () => {
    const list = (await agentClient.get('/api/v1/pabx/voicemail-messages/')).json() as VoicemailList
    expect(list).toMatchObject({ count: 1, unheard: 1 })
    const message = list.results[0]!
    expect(message).toMatchObject({ voicemail: ids.box, voicemail_name: 'Caixa do agente 1', caller: OUTSIDE, heard: false })
    expect(message.duration).toBeGreaterThanOrEqual(3)

    const audio = await agentClient.get(message.audio)
    expect(audio.statusCode).toBe(200)
    expect(audio.headers['content-type']).toBe('audio/mpeg')
    expect(audio.rawPayload.length).toBeGreaterThan(1000)
    const download = await agentClient.get(`${message.audio}?download=1`)
    expect(download.headers['content-disposition']).toContain('attachment')

    // Another agent (no box on their extension) sees none of it.
    expect(((await agent2Client.get('/api/v1/pabx/voicemail-messages/')).json() as VoicemailList).count).toBe(0)
    expect((await agent2Client.get(message.audio)).statusCode).toBe(404)
    expect((await agent2Client.delete(`/api/v1/pabx/voicemail-messages/${message.id}/`)).statusCode).toBe(404)

    const bad = await agentClient.patch(`/api/v1/pabx/voicemail-messages/${message.id}/`, { heard: 'yes' })
    expect(bad.statusCode).toBe(400)
    const patched = await agentClient.patch(`/api/v1/pabx/voicemail-messages/${message.id}/`, { heard: true })
    expect(patched.statusCode, patched.body).toBe(200)
    expect((patched.json() as VoicemailMessage).heard).toBe(true)
    expect(((await agentClient.get('/api/v1/pabx/voicemail-messages/?heard=false')).json() as VoicemailList).count).toBe(0)
    // A supervisor with the voicemails' view codename sees every box.
    expect(((await admin.get('/api/v1/pabx/voicemail-messages/')).json() as VoicemailList).count).toBe(1)

    const [row] = await stack.database.db.select().from(voicemailMessages).where(eq(voicemailMessages.id, message.id))
    const file = path.join(voicemailDir(stack.database.db), row!.file)
    expect((await agentClient.delete(`/api/v1/pabx/voicemail-messages/${message.id}/`)).statusCode).toBe(204)
    expect(existsSync(file)).toBe(false)
    expect(((await agentClient.get('/api/v1/pabx/voicemail-messages/')).json() as VoicemailList).count).toBe(0)
  }, 30_000)

  it('stops at the maximum length, says goodbye and hangs up', async () => {
    const callId = await dial(VM_SHORT_DID)
    await until(() => hasEvent(callId, 'ended'), 20_000, 'the media app hung up')
    expect(callEvents(callId).find((e) => e.state === 'ended')!.by).toBe('callee')
    const [message] = await stack.database.db.select().from(voicemailMessages).where(eq(voicemailMessages.callId, callId))
    expect(message!.voicemailId).toBe(ids.shortBox)
    expect(message!.durationMs).toBeGreaterThan(1500)
    expect(message!.durationMs).toBeLessThan(2600)
  }, 40_000)
})

describe('NPS by keypad after the agent', () => {
  it('keeps the caller when the agent hangs up, asks both questions, stores the keys with the call and the agent', async () => {
    await agentState(ids.agent, 'not_inuse', true)
    const callId = await dial(NPS_DID)
    // The queue names a survey: the caller goes through the media app, which bridges them to the free agent.
    await until(async () => {
      const [q] = await stack.database.db.select().from(callRecords).where(and(eq(callRecords.callId, callId), eq(callRecords.kind, 'queue')))
      return q?.userId === ids.agent && q.answeredAt !== null
    }, 15_000, 'the agent answered')
    await until(() => heard(outside).length > 8000 * 2, 10_000, 'the call talking')
    await agent.command('hangup')
    await until(() => JSON.stringify(stack.app.media!.stateOf(callId) ?? '').includes('waiting'), 15_000, 'the first question asked')
    expect(hasEvent(callId, 'ended')).toBe(false)
    expect(bursts(heard(outside), Q1_HZ)).toBe(1)
    await outside.command('sndcode', '9')
    await until(async () => (await stack.database.db.select().from(telephonyNpsAnswers).where(eq(telephonyNpsAnswers.callId, callId))).length === 1, 10_000, 'the first answer stored')
    await until(() => bursts(heard(outside), Q2_HZ) === 1, 10_000, 'the second question heard')
    // 1 then 0: ten.
    await outside.command('sndcode', '1')
    await outside.command('sndcode', '0')
    await until(() => hasEvent(callId, 'ended'), 15_000, 'thanked and hung up')
    const answers = await stack.database.db.select().from(telephonyNpsAnswers).where(eq(telephonyNpsAnswers.callId, callId)).orderBy(asc(telephonyNpsAnswers.question))
    expect(answers.map((a) => ({ question: a.question, score: a.score, userId: a.userId, queueId: a.queueId, npsId: a.npsId, scale: a.scale }))).toEqual([
      { question: 0, score: 9, userId: ids.agent, queueId: ids.queue, npsId: ids.nps, scale: '0-10' },
      { question: 1, score: 10, userId: ids.agent, queueId: ids.queue, npsId: ids.nps, scale: '0-10' },
    ])
    expect(callEvents(callId).find((e) => e.state === 'ended')!.by).toBe('callee')
  }, 60_000)

  it("an inbound route's survey: the caller reaches the extension through the media app and answers after the agent", async () => {
    await agentState(ids.agent, 'not_inuse', true)
    const callId = await dial(ROUTE_NPS_DID)
    // The media app bridges the caller on to the extension: its leg (a call of its own) is the agent's.
    await until(() => stack.control.routes.some((r) => r.source === 'media' && r.x_headers['X-Atende-Media-Leg'] === callId), 15_000, 'the leg to the extension')
    const leg = stack.control.routes.find((r) => r.source === 'media' && r.x_headers['X-Atende-Media-Leg'] === callId)!
    await until(() => hasEvent(leg.call_id, 'answered'), 15_000, 'the agent answered')
    await until(() => heard(outside).length > 8000 * 2, 20_000, 'the call talking')
    await agent.command('hangup')
    await until(() => JSON.stringify(stack.app.media!.stateOf(callId) ?? '').includes('waiting'), 15_000, 'the first question asked')
    expect(hasEvent(callId, 'ended')).toBe(false)
    await outside.command('sndcode', '7')
    await until(() => bursts(heard(outside), Q2_HZ) === 1, 15_000, 'the second question heard')
    await outside.command('sndcode', '8')
    await until(() => hasEvent(callId, 'ended'), 15_000, 'thanked and hung up')
    const answers = await stack.database.db.select().from(telephonyNpsAnswers).where(eq(telephonyNpsAnswers.callId, callId)).orderBy(asc(telephonyNpsAnswers.question))
    expect(answers.map((a) => ({ question: a.question, score: a.score, userId: a.userId, queueId: a.queueId, npsId: a.npsId }))).toEqual([
      { question: 0, score: 7, userId: ids.agent, queueId: null, npsId: ids.nps },
      { question: 1, score: 8, userId: ids.agent, queueId: null, npsId: ids.nps },
    ])
  }, 60_000)
})
