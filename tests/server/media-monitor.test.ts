import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EndpointStatus } from '../../contract/codes/states.ts'
import { setChannelLogin } from '../../server/agent/channel-service.ts'
import { reportStatus } from '../../server/agent/status-service.ts'
import { SUPERVISOR_ACTION_ENTITY } from '../../server/agent/supervisor-audit.ts'
import { loadConfig } from '../../server/config.ts'
import { auditLog, callRecords, pabxDevices, teams, users } from '../../server/db/schema/index.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { mediaAppAddress } from '../../server/telephony/index.ts'
import { signedIn } from './helper.ts'
import type { TestClient } from './helper.ts'
import { freePorts, rawSip, RecordingControl, startBaresip, startStackWith, until } from './telephony/stack.ts'
import type { Baresip, Stack } from './telephony/stack.ts'

// Listen, whisper and barge with the real engines (issue 19 item 1; server/media/app/spy.ts). A customer (a trunk's
// baresip sending 440 Hz) waits in a queue and is bridged by the media app to agent1 (10001, sending 700 Hz); the
// supervisor's extension (10002, sending 1000 Hz) takes the monitoring call. What each party hears is read from its
// baresip's decoded-audio dump, tone by tone (Goertzel):
//   listen  → the supervisor hears 440 and 700; nobody hears 1000
//   whisper → the agent hears 1000 as well; the customer does not
//   barge   → the customer hears 1000 too
// Ports: engines in 64500–64990, the media app in 65000–65490.

type Control = RecordingControl<CallControlService>
let stack: Stack<Control>
let supervisorClient: TestClient
let admin: TestClient
const inbound = { route: 0 }
let agentClient: TestClient
let agent: Baresip
let customer: Baresip
let supervisorPhone: Baresip
const started: Baresip[] = []
const DID = '551140003131'
const CUSTOMER = '011955550000'
const CUSTOMER_HZ = 440
const AGENT_HZ = 700
const SUPERVISOR_HZ = 1000
const ids = { agent: 0, agent2: 0, siteId: 0, supervisor: 0, queue: 0 }

async function created(client: TestClient, url: string, body: Record<string, unknown>): Promise<number> {
  const response = await client.post(url, body)
  expect(response.statusCode, response.body).toBe(201)
  return (response.json() as { id: number }).id
}

async function agentState(userId: number, status: EndpointStatus, loggedIn: boolean) {
  const [user] = await stack.database.db.select().from(users).where(eq(users.id, userId))
  await reportStatus(stack.app.deps, { siteId: user!.siteId, userId }, 'telephony', status)
  await setChannelLogin(stack.app.deps, user!, 'telephony', loggedIn, 'user')
}

const registered = (user: string) => stack.control.events.some((e) => e.event === 'registration' && e.aor === `${user}@localhost` && e.state === 'registered')

/** The newest decoded-audio dump of a user agent (one per call), as 16-bit samples. */
function heard(ua: Baresip): Buffer {
  const dumps = readdirSync(ua.home)
    .filter((f) => f.endsWith('-dec.wav'))
    .map((f) => path.join(ua.home, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
  return dumps[0] ? readFileSync(dumps[0]).subarray(44) : Buffer.alloc(0)
}

/** The amplitude of the `hz` component in 8 kHz 16-bit PCM (Goertzel over the whole part). */
function amplitude(pcm: Buffer, hz: number): number {
  const n = Math.floor(pcm.length / 2)
  if (n === 0) return 0
  const k = (2 * Math.PI * hz) / 8000
  const coefficient = 2 * Math.cos(k)
  let s1 = 0
  let s2 = 0
  for (let i = 0; i < n; i++) {
    const s0 = pcm.readInt16LE(i * 2) + coefficient * s1 - s2
    s2 = s1
    s1 = s0
  }
  const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
  return (2 * Math.sqrt(Math.max(0, power))) / n
}

/** The decoded-audio dumps of a user agent (one per call). */
function dumps(ua: Baresip): string[] {
  return readdirSync(ua.home)
    .filter((f) => f.endsWith('-dec.wav'))
    .map((f) => path.join(ua.home, f))
}

/** What one call of `ua` (its dump `file`) hears from now on, for `seconds`. */
async function nextAudioOf(file: string, seconds: number): Promise<Buffer> {
  const read = () => readFileSync(file).subarray(44)
  const from = read().length
  const bytes = seconds * 8000 * 2
  await until(() => read().length >= from + bytes, 15_000, `${file} hearing ${seconds} s more`)
  return read().subarray(from, from + bytes)
}

/** The calls baresip has (its `listcalls` lines). */
async function callCount(ua: Baresip): Promise<number> {
  const answer = await ua.command('listcalls')
  return (answer.match(/sip:/g) ?? []).length
}

/** What `ua` hears from now on, for `seconds` (the dump grows as it hears). */
async function nextAudio(ua: Baresip, seconds: number): Promise<Buffer> {
  const from = heard(ua).length
  const bytes = seconds * 8000 * 2
  await until(() => heard(ua).length >= from + bytes, 15_000, `${ua.user} hearing ${seconds} s more`)
  return heard(ua).subarray(from, from + bytes)
}

function tones(pcm: Buffer): Record<number, number> {
  return Object.fromEntries([CUSTOMER_HZ, AGENT_HZ, SUPERVISOR_HZ].map((hz) => [hz, Math.round(amplitude(pcm, hz))]))
}

const HEARD = 1500
const SILENT = 400

/** Listening: the supervisor hears the customer and the agent; each of them hears the other and never the supervisor. */
async function listening() {
  await nextAudio(supervisorPhone, 0.5)
  const supListen = tones(await nextAudio(supervisorPhone, 1.5))
  const agentListen = tones(await nextAudio(agent, 1.5))
  const customerListen = tones(await nextAudio(customer, 1.5))
  expect(supListen[CUSTOMER_HZ], JSON.stringify(supListen)).toBeGreaterThan(HEARD)
  expect(supListen[AGENT_HZ], JSON.stringify(supListen)).toBeGreaterThan(HEARD)
  expect(agentListen[CUSTOMER_HZ], JSON.stringify(agentListen)).toBeGreaterThan(HEARD)
  expect(agentListen[SUPERVISOR_HZ], JSON.stringify(agentListen)).toBeLessThan(SILENT)
  expect(customerListen[AGENT_HZ], JSON.stringify(customerListen)).toBeGreaterThan(HEARD)
  expect(customerListen[SUPERVISOR_HZ], JSON.stringify(customerListen)).toBeLessThan(SILENT)
  return { supListen, agentListen, customerListen }
}

async function audits(): Promise<{ command: string; mode: string; by?: string }[]> {
  const rows = await stack.database.db
    .select({ after: auditLog.after, objectId: auditLog.objectId, userId: auditLog.userId })
    .from(auditLog)
    .where(eq(auditLog.entity, SUPERVISOR_ACTION_ENTITY))
    .orderBy(auditLog.id)
  return rows.filter((r) => r.objectId === ids.agent && r.userId === ids.supervisor).map((r) => r.after as { command: string; mode: string; by?: string })
}

beforeAll(async () => {
  const [mediaSip, mediaControl] = await freePorts(2, 65000, 65490)
  const env = { MEDIA_SIP_PORT: String(mediaSip), MEDIA_CONTROL_PORT: String(mediaControl) }
  const mediaApp = mediaAppAddress(loadConfig(env).telephony)
  stack = await startStackWith((db) => new RecordingControl(createCallControl({ db, mediaApp })), env, { ports: [64500, 64990] })
  admin = await signedIn(stack.app, 'admin')
  const db = stack.database.db
  const [a1] = await db.select().from(users).where(eq(users.username, 'agent1'))
  const [a2] = await db.select().from(users).where(eq(users.username, 'agent2'))
  const [sup] = await db.select().from(users).where(eq(users.username, 'supervisor'))
  ids.agent = a1!.id
  ids.agent2 = a2!.id
  ids.supervisor = sup!.id
  ids.siteId = a1!.siteId
  await db.update(teams).set({ enableAfterService: false }).where(eq(teams.siteId, a1!.siteId))
  // The supervisor's extension: agent2's device (10002) moves to the supervisor.
  const [device] = await db.select().from(pabxDevices).where(eq(pabxDevices.username, '10002'))
  await db.update(users).set({ deviceId: null }).where(eq(users.id, a2!.id))
  await db.update(users).set({ deviceId: device!.id }).where(eq(users.id, sup!.id))

  // The agent's SIP messages are printed (trace): the whisper leg's INVITE and INFO are read from them.
  agent = await startBaresip(stack, '10001', stack.secrets['10001']!, { record: true, toneHz: AGENT_HZ, trace: true })
  supervisorPhone = await startBaresip(stack, '10002', stack.secrets['10002']!, { record: true, toneHz: SUPERVISOR_HZ })
  customer = await startBaresip(stack, CUSTOMER, 'unused', { register: false, record: true, toneHz: CUSTOMER_HZ })
  started.push(agent, supervisorPhone, customer)
  const trunk = await created(admin, '/api/v1/pabx/trunks/', {
    description: 'Operadora monitoria',
    host: '127.0.0.1',
    port: customer.sipPort,
    transport: 'udp',
    codecs: ['PCMU', 'PCMA'],
  })
  ids.queue = await created(admin, '/api/v1/pabx/queues/', {
    description: 'Fila monitorada',
    strategy: 'linear',
    teams: [a1!.teamId],
    members: [{ user: ids.agent, penalty: 0 }],
    ring_time: 10,
    max_wait_time: 0,
  })
  inbound.route = await created(admin, '/api/v1/pabx/inbound-routes/', {
    description: 'Entrada monitoria',
    destination: { app: 'queue', appdata: ids.queue },
    record: false,
  })
  await created(admin, '/api/v1/pabx/numbers/', { number: DID, description: 'DID monitoria', trunk, inbound_route: inbound.route })
  await stack.app.telephony.publisher!.pushChanges()
  await until(() => registered('10001') && registered('10002'), 15_000, 'the agent and the supervisor registered')
  await until(() => stack.app.media?.connected === true, 10_000, 'the media app link')
  supervisorClient = await signedIn(stack.app, 'supervisor')
  agentClient = await signedIn(stack.app, 'agent1')
}, 120_000)

afterAll(async () => {
  for (const ua of started) await ua.stop()
  await stack?.close()
})

describe('monitoring an agent on a call', () => {
  it('answers 403 to agents, 400 to a bad mode, 409 when the agent is on no call', async () => {
    expect((await agentClient.post('/api/v1/agent/supervisor/monitor/', { user_id: ids.agent, mode: 'listen' })).statusCode).toBe(403)
    const bad = await supervisorClient.post('/api/v1/agent/supervisor/monitor/', { user_id: ids.agent, mode: 'shout' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toHaveProperty('mode')
    const idle = await supervisorClient.post('/api/v1/agent/supervisor/monitor/', { user_id: ids.agent2, mode: 'listen' })
    expect(idle.statusCode).toBe(409)
    expect(idle.json()).toEqual({ detail: 'O agente não está em uma chamada atendida.' })
    expect((await supervisorClient.post('/api/v1/agent/supervisor/monitor/0123456789abcdef/stop/', {})).statusCode).toBe(404)
  })

  it('listen: the supervisor hears both; whisper: the agent hears the supervisor, the customer does not; barge: both do', async () => {
    // The customer waits in the queue (agent busy), then is bridged by the media app when the agent is free.
    await agentState(ids.agent, 'unavailable', false)
    await customer.command('dial', `sip:${DID}@localhost`)
    await until(() => stack.app.media!.waiting().length === 1, 15_000, 'the customer waiting')
    await agentState(ids.agent, 'not_inuse', true)
    const db = stack.database.db
    await until(
      async () =>
        (
          await db
            .select()
            .from(callRecords)
            .where(and(eq(callRecords.userId, ids.agent), isNotNull(callRecords.answeredAt), isNull(callRecords.endedAt)))
        ).length > 0,
      15_000,
      'the agent talking',
    )
    const before = tones(await nextAudio(agent, 1))
    expect(before[CUSTOMER_HZ]).toBeGreaterThan(HEARD)

    // Listen: the supervisor's phone rings and answers (baresip auto-answers); the request resolves once it has.
    const start = await supervisorClient.post('/api/v1/agent/supervisor/monitor/', { user_id: ids.agent, mode: 'listen' })
    expect(start.statusCode, start.body).toBe(200)
    const session = start.json() as { id: string; mode: string; user_id: number; call_id: string }
    expect(session).toMatchObject({ mode: 'listen', user_id: ids.agent })
    expect(supervisorPhone.events.join('')).toBeTruthy()
    const { supListen, agentListen, customerListen } = await listening()

    // Whisper: the agent hears the supervisor over the customer; the customer still hears only the agent.
    const whisper = await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/mode/`, { mode: 'whisper' })
    expect(whisper.statusCode, whisper.body).toBe(200)
    await nextAudio(agent, 0.3)
    const agentWhisper = tones(await nextAudio(agent, 1.5))
    const customerWhisper = tones(await nextAudio(customer, 1.5))
    expect(agentWhisper[SUPERVISOR_HZ], JSON.stringify(agentWhisper)).toBeGreaterThan(HEARD)
    expect(agentWhisper[CUSTOMER_HZ], JSON.stringify(agentWhisper)).toBeGreaterThan(HEARD)
    expect(customerWhisper[SUPERVISOR_HZ], JSON.stringify(customerWhisper)).toBeLessThan(SILENT)
    expect(customerWhisper[AGENT_HZ], JSON.stringify(customerWhisper)).toBeGreaterThan(HEARD)

    // Barge: both hear the supervisor.
    expect((await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/mode/`, { mode: 'barge' })).statusCode).toBe(200)
    await nextAudio(customer, 0.3)
    const customerBarge = tones(await nextAudio(customer, 1.5))
    const agentBarge = tones(await nextAudio(agent, 1.5))
    expect(customerBarge[SUPERVISOR_HZ], JSON.stringify(customerBarge)).toBeGreaterThan(HEARD)
    expect(customerBarge[AGENT_HZ], JSON.stringify(customerBarge)).toBeGreaterThan(HEARD)
    expect(agentBarge[SUPERVISOR_HZ], JSON.stringify(agentBarge)).toBeGreaterThan(HEARD)

    // Stop: the customer and the agent talk directly again, without the supervisor.
    expect((await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/stop/`, {})).statusCode).toBe(200)
    await until(async () => (await audits()).some((a) => a.command === 'monitor_end'), 10_000, 'the end in the audit log')
    await nextAudio(customer, 0.3)
    const customerAfter = tones(await nextAudio(customer, 1.5))
    const agentAfter = tones(await nextAudio(agent, 1.5))
    expect(customerAfter[AGENT_HZ], JSON.stringify(customerAfter)).toBeGreaterThan(HEARD)
    expect(customerAfter[SUPERVISOR_HZ], JSON.stringify(customerAfter)).toBeLessThan(SILENT)
    expect(agentAfter[CUSTOMER_HZ], JSON.stringify(agentAfter)).toBeGreaterThan(HEARD)
    expect(agentAfter[SUPERVISOR_HZ], JSON.stringify(agentAfter)).toBeLessThan(SILENT)

    // MONITOR_TEST_PRINT=1 prints the measured amplitudes (for the README's figures).
    if (process.env.MONITOR_TEST_PRINT)
      console.info(
        JSON.stringify({ before, supListen, agentListen, customerListen, agentWhisper, customerWhisper, customerBarge, agentBarge, customerAfter, agentAfter }),
      )
    // Who, which agent, which call, which mode, start and end: in the audit log.
    const written = await audits()
    expect(written.map((a) => [a.command, a.mode])).toEqual([
      ['monitor_start', 'listen'],
      ['monitor_mode', 'whisper'],
      ['monitor_mode', 'barge'],
      ['monitor_end', 'barge'],
    ])
    expect(written[0]).toMatchObject({ call_id: session.call_id, monitor: session.id })
    expect(written[3]).toMatchObject({ by: 'supervisor' })
    await customer.command('hangup')
  })

  it('a direct call of a browser agent: whisper and barge go to the agent on a second leg, the customer never hears the supervisor', async () => {
    const db = stack.database.db
    const talking = async () =>
      (
        await db
          .select()
          .from(callRecords)
          .where(and(eq(callRecords.userId, ids.agent), isNotNull(callRecords.answeredAt), isNull(callRecords.endedAt)))
      ).length > 0
    await until(async () => !(await talking()), 15_000, 'the previous call over')
    await until(async () => (await callCount(agent)) === 0, 10_000, 'the agent phone idle')
    // agent1's extension is a browser webphone (the device's `webrtc`, the default); baresip stands in for the browser.
    await db.update(pabxDevices).set({ webrtc: true }).where(eq(pabxDevices.username, '10001'))
    await agentState(ids.agent, 'not_inuse', true)
    const before = (await audits()).length
    await customer.command('dial', `sip:${DID}@localhost`)
    await until(talking, 15_000, 'the agent talking')
    expect(stack.app.media!.waiting()).toHaveLength(0)
    await nextAudio(agent, 0.5)
    const traced = agent.events.join('').length

    // Listen: nothing reaches the agent (invisible), the session may whisper and barge.
    const start = await supervisorClient.post('/api/v1/agent/supervisor/monitor/', { user_id: ids.agent, mode: 'listen' })
    expect(start.statusCode, start.body).toBe(200)
    const session = start.json() as { id: string; mode: string; listen_only: boolean; call_id: string }
    expect(session).toMatchObject({ mode: 'listen', listen_only: false })
    await listening()
    expect(await callCount(agent)).toBe(1)
    expect(agent.events.join('').slice(traced)).not.toContain('X-Atende-Monitor')

    // Whisper: a second call reaches the agent's phone, marked by the media app, and carries the supervisor's tone.
    const callDumps = dumps(agent)
    const whisper = await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/mode/`, { mode: 'whisper' })
    expect(whisper.statusCode, whisper.body).toBe(200)
    expect(whisper.json()).toMatchObject({ mode: 'whisper', listen_only: false })
    await until(async () => (await callCount(agent)) === 2, 15_000, 'the whisper leg at the agent')
    const invite = agent.events.join('').slice(traced)
    expect(invite).toMatch(/INVITE sip:10001\b/)
    expect(invite).toContain('X-Atende-Monitor: whisper')
    expect(invite).toContain(`X-Atende-Monitor-Session: ${session.id}`)
    expect(invite).toContain('X-Atende-Monitor-Supervisor: Sofia')
    await until(() => dumps(agent).length > callDumps.length, 10_000, 'the whisper leg heard')
    const legDump = dumps(agent).find((file) => !callDumps.includes(file))!
    await nextAudioOf(legDump, 0.3)
    const legWhisper = tones(await nextAudioOf(legDump, 1.5))
    expect(legWhisper[SUPERVISOR_HZ], JSON.stringify(legWhisper)).toBeGreaterThan(HEARD)
    expect(legWhisper[CUSTOMER_HZ], JSON.stringify(legWhisper)).toBeLessThan(SILENT)
    const customerWhisper = tones(await nextAudio(customer, 1.5))
    expect(customerWhisper[SUPERVISOR_HZ], JSON.stringify(customerWhisper)).toBeLessThan(SILENT)
    expect(customerWhisper[AGENT_HZ], JSON.stringify(customerWhisper)).toBeGreaterThan(HEARD)
    // The supervisor hears the customer and the agent (the agent's side from the leg's microphone).
    const supWhisper = tones(await nextAudio(supervisorPhone, 1.5))
    expect(supWhisper[CUSTOMER_HZ], JSON.stringify(supWhisper)).toBeGreaterThan(HEARD)
    expect(supWhisper[AGENT_HZ], JSON.stringify(supWhisper)).toBeGreaterThan(HEARD)
    // ...and the agent from the leg's upstream, not from the copy of the agent's side of the call (which carries the
    // supervisor in barge): with the leg's microphone muted (baresip mutes its newest call), the agent is not heard.
    await agent.command('mute')
    await nextAudio(supervisorPhone, 0.3)
    const supLegMuted = tones(await nextAudio(supervisorPhone, 1.5))
    // (the customer still hears the agent meanwhile: the agent's call itself was not muted)
    const customerLegMuted = tones(await nextAudio(customer, 1.5))
    await agent.command('mute')
    expect(supLegMuted[CUSTOMER_HZ], JSON.stringify(supLegMuted)).toBeGreaterThan(HEARD)
    expect(supLegMuted[AGENT_HZ], JSON.stringify(supLegMuted)).toBeLessThan(SILENT)
    expect(customerLegMuted[AGENT_HZ], JSON.stringify(customerLegMuted)).toBeGreaterThan(HEARD)

    // Barge: the same leg, told by an INFO (the browser then mixes the supervisor into its customer track).
    const shown = agent.events.join('').length
    expect((await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/mode/`, { mode: 'barge' })).statusCode).toBe(200)
    await until(() => /INFO sip:[\s\S]*X-Atende-Monitor: barge/.test(agent.events.join('').slice(shown)), 10_000, 'the barge INFO at the agent')
    expect(await callCount(agent)).toBe(2)
    const legBarge = tones(await nextAudioOf(legDump, 1.5))
    expect(legBarge[SUPERVISOR_HZ], JSON.stringify(legBarge)).toBeGreaterThan(HEARD)

    // Back to listen: the leg ends; the agent's call goes on.
    expect((await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/mode/`, { mode: 'listen' })).statusCode).toBe(200)
    await until(async () => (await callCount(agent)) === 1, 10_000, 'the whisper leg gone')
    // Whisper again, then stop: the new leg ends with the session.
    expect((await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/mode/`, { mode: 'whisper' })).statusCode).toBe(200)
    await until(async () => (await callCount(agent)) === 2, 15_000, 'the second whisper leg')
    expect((await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/stop/`, {})).statusCode).toBe(200)
    await until(async () => (await callCount(agent)) === 1, 10_000, 'the whisper leg gone at stop')
    await until(async () => (await audits()).slice(before).some((a) => a.command === 'monitor_end'), 10_000, 'the end in the audit log')
    const afterStop = tones(await nextAudio(customer, 1.5))
    expect(afterStop[AGENT_HZ], JSON.stringify(afterStop)).toBeGreaterThan(HEARD)
    expect(afterStop[SUPERVISOR_HZ], JSON.stringify(afterStop)).toBeLessThan(SILENT)
    // No call record, no status change for the legs: the agent's only open call is the customer's.
    expect(
      await db
        .select({ id: callRecords.id })
        .from(callRecords)
        .where(and(eq(callRecords.userId, ids.agent), isNull(callRecords.endedAt))),
    ).toHaveLength(1)
    if (process.env.MONITOR_TEST_PRINT)
      console.info(JSON.stringify({ legWhisper, customerWhisper, supWhisper, supLegMuted, customerLegMuted, legBarge, afterStop }))
    expect((await audits()).slice(before).map((a) => [a.command, a.mode])).toEqual([
      ['monitor_start', 'listen'],
      ['monitor_mode', 'whisper'],
      ['monitor_mode', 'barge'],
      ['monitor_mode', 'listen'],
      ['monitor_mode', 'whisper'],
      ['monitor_end', 'whisper'],
    ])
    await customer.command('hangup')
  })

  it('a direct call of a desk phone agent: listen only (a copy of its media), whisper and barge refused, ends with the call', async () => {
    const db = stack.database.db
    const talking = async () =>
      (
        await db
          .select()
          .from(callRecords)
          .where(and(eq(callRecords.userId, ids.agent), isNotNull(callRecords.answeredAt), isNull(callRecords.endedAt)))
      ).length > 0
    await until(async () => !(await talking()), 15_000, 'the previous call over')
    await db.update(pabxDevices).set({ webrtc: false }).where(eq(pabxDevices.username, '10001'))
    await agentState(ids.agent, 'not_inuse', true)
    const before = (await audits()).length
    // The agent is free when the customer arrives: Kamailio sends the call straight to them, not through the media app.
    await customer.command('dial', `sip:${DID}@localhost`)
    await until(talking, 15_000, 'the agent talking')
    expect(stack.app.media!.waiting()).toHaveLength(0)
    await nextAudio(agent, 0.5)

    const whisper = await supervisorClient.post('/api/v1/agent/supervisor/monitor/', { user_id: ids.agent, mode: 'whisper' })
    expect(whisper.statusCode, whisper.body).toBe(409)
    expect(whisper.json()).toEqual({ detail: 'O agente atendeu esta chamada diretamente: só é possível ouvi-la.' })

    const start = await supervisorClient.post('/api/v1/agent/supervisor/monitor/', { user_id: ids.agent, mode: 'listen' })
    expect(start.statusCode, start.body).toBe(200)
    const session = start.json() as { id: string; mode: string; listen_only: boolean; call_id: string }
    expect(session).toMatchObject({ mode: 'listen', listen_only: true })
    // The call itself is untouched: each side still hears the other and never the supervisor.
    await listening()

    const barge = await supervisorClient.post(`/api/v1/agent/supervisor/monitor/${session.id}/mode/`, { mode: 'barge' })
    expect(barge.statusCode, barge.body).toBe(409)
    expect(barge.json()).toEqual({ detail: 'O agente atendeu esta chamada diretamente: só é possível ouvi-la.' })

    // The customer hangs up: the copy stops, the session ends by the call and the supervisor's phone is hung up.
    await customer.command('hangup')
    await until(async () => (await audits()).slice(before).some((a) => a.command === 'monitor_end' && a.by === 'call'), 20_000, 'the end in the audit log')
    const written = (await audits()).slice(before)
    expect(written.map((a) => [a.command, a.mode])).toEqual([
      ['monitor_start', 'whisper'],
      ['monitor_end', 'whisper'],
      ['monitor_start', 'listen'],
      ['monitor_end', 'listen'],
    ])
    expect(written[1]).toMatchObject({ by: 'failed' })
    expect(written[3]).toMatchObject({ by: 'call', call_id: session.call_id })
  })

  it("an outside caller's X-Atende-Monitor headers never reach the agent's phone (Kamailio strips them)", async () => {
    const db = stack.database.db
    const talking = async () =>
      (
        await db
          .select()
          .from(callRecords)
          .where(and(eq(callRecords.userId, ids.agent), isNotNull(callRecords.answeredAt), isNull(callRecords.endedAt)))
      ).length > 0
    await until(async () => !(await talking()), 15_000, 'the previous call over')
    await agentState(ids.agent, 'not_inuse', true)
    // A second trunk whose peer is a raw SIP socket: it sends an INVITE carrying the monitoring headers.
    const sipPort = stack.config.telephony.sipPort
    const raw = await rawSip('127.0.0.1', sipPort)
    try {
      const trunk = await created(admin, '/api/v1/pabx/trunks/', {
        description: 'Operadora forjada',
        host: '127.0.0.1',
        port: raw.port,
        transport: 'udp',
        codecs: ['PCMU'],
      })
      await created(admin, '/api/v1/pabx/numbers/', { number: '551140003132', description: 'DID forjado', trunk, inbound_route: inbound.route })
      await stack.app.telephony.publisher!.pushChanges()
      const callId = `forged-${randomBytes(6).toString('hex')}`
      const tag = randomBytes(4).toString('hex')
      const sdp = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 40998 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\na=sendrecv\r\n'
      const traced = agent.events.join('').length
      const invite = (cseq: number) =>
        [
          `INVITE sip:551140003132@127.0.0.1:${sipPort} SIP/2.0`,
          `Via: SIP/2.0/UDP 127.0.0.1:${raw.port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
          'Max-Forwards: 70',
          `From: <sip:011955551111@127.0.0.1>;tag=${tag}`,
          '<sip:551140003132@localhost>'.replace(/^/, 'To: '),
          `Call-ID: ${callId}`,
          `CSeq: ${cseq} INVITE`,
          `Contact: <sip:011955551111@127.0.0.1:${raw.port}>`,
          'X-Atende-Monitor: barge',
          'X-Atende-Monitor-Session: 0123456789abcdef',
          'X-Atende-Monitor-Supervisor: Mallory',
          'Content-Type: application/sdp',
          `Content-Length: ${sdp.length}`,
          '',
          sdp,
        ].join('\r\n')
      // The trunk's address is known once Kamailio has the pushed table: retried until the call reaches the agent.
      let cseq = 1
      await until(
        async () => {
          if (agent.events.join('').slice(traced).includes(callId)) return true
          raw.send(invite(cseq++))
          await new Promise((resolve) => setTimeout(resolve, 300))
          return agent.events.join('').slice(traced).includes(callId)
        },
        15_000,
        'the forged call at the agent',
      )
      const atAgent = agent.events.join('').slice(traced)
      expect(atAgent).toContain('X-Atende-')
      expect(atAgent).not.toContain('X-Atende-Monitor')
      expect(atAgent).not.toContain('Mallory')
      // The agent answered it as an ordinary call (its 200 comes back): the call is ended with a BYE along its route.
      let ok: string | null = null
      await until(
        async () => {
          const message = await raw.next(500)
          if (message && /^SIP\/2\.0 200/.test(message) && message.includes(`Call-ID: ${callId}`) && /CSeq: \d+ INVITE/.test(message)) ok = message
          return ok !== null
        },
        10_000,
        'the 200 OK',
      )
      const header = (name: string) => [...ok!.matchAll(new RegExp(`^${name}: (.+)$`, 'gmi'))].map((m) => m[1]!.trim())
      const routes = header('Record-Route')
        .flatMap((value) => value.split(','))
        .map((r) => r.trim())
        .reverse()
      const contact = /<([^>]+)>/.exec(header('Contact')[0] ?? '')?.[1] ?? ''
      const inDialog = (method: string, seq: number) =>
        [
          `${method} ${contact} SIP/2.0`,
          `Via: SIP/2.0/UDP 127.0.0.1:${raw.port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
          'Max-Forwards: 70',
          ...routes.map((route) => `Route: ${route}`),
          `From: <sip:011955551111@127.0.0.1>;tag=${tag}`,
          `To: ${header('To')[0]}`,
          `Call-ID: ${callId}`,
          `CSeq: ${seq} ${method}`,
          'Content-Length: 0',
          '',
          '',
        ].join('\r\n')
      raw.send(inDialog('ACK', cseq - 1))
      raw.send(inDialog('BYE', cseq))
      await until(async () => !(await talking()), 15_000, 'the forged call over')
    } finally {
      raw.close()
    }
  })
})
