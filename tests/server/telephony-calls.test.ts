import { execFileSync } from 'node:child_process'
import dgram from 'node:dgram'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALL_TYPE } from '../../contract/codes/call-types.ts'
import type { EndpointStatus } from '../../contract/codes/states.ts'
import { setChannelLogin } from '../../server/agent/channel-service.ts'
import { reportStatus } from '../../server/agent/status-service.ts'
import { pabxDevices, teams, users } from '../../server/db/schema/index.ts'
import { engagedUsers } from '../../server/telephony/control/acd.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import { NgClient } from '../../server/telephony/ng.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import type { CallEvent } from '../../server/telephony/types.ts'
import { stepsOf } from './call-control-helper.ts'
import { signedIn } from './helper.ts'
import type { TestClient } from './helper.ts'
import { freePorts, RecordingControl, startBaresip, startStackWith, until } from './telephony/stack.ts'
import type { Baresip, Stack } from './telephony/stack.ts'

// The real call control behind the real engines: Kamailio + rtpengine spawned by the server, createCallControl over
// the test database, settings made through the settings API, agents' statuses set the way the service socket's
// change_state and the channel login do, and baresip user agents for the agents, a desk phone and the outside world
// (a trunk peer that answers outbound calls, records what it hears and calls the DID). A second trunk is a raw UDP
// peer that refuses every INVITE with 503, so the route's next trunk is tried.

type Control = RecordingControl<CallControlService>
let stack: Stack<Control>
let admin: TestClient
let supervisor: TestClient
let agent1: Baresip
let agent2: Baresip
let desk: Baresip
let outside: Baresip
let refuser: { port: number; invites: string[]; close(): void }
const started: Baresip[] = []
const OUTSIDE_NUMBER = '011987654321'
const DID = '551140000000'
const ids = { desk: 0, queue: 0, trunkA: 0, trunkB: 0, route: 0, agent1: 0, agent2: 0, device1: 0, device2: 0, team: 0, siteId: 0 }

/** A trunk that is down: answers every INVITE 503 (and ignores the ACK). */
async function sipRefuser(): Promise<typeof refuser> {
  const [port] = await freePorts(1, 41000, 42000)
  const socket = dgram.createSocket('udp4')
  const invites: string[] = []
  socket.on('message', (datagram, from) => {
    const text = datagram.toString('latin1')
    if (!text.startsWith('INVITE ')) return
    invites.push(text)
    const lines = text.split('\r\n')
    const keep = lines.filter((line) => /^(Via|From|Call-ID|CSeq|To):/i.test(line))
    const reply = [
      'SIP/2.0 503 Service Unavailable',
      ...keep.map((line) => (/^To:/i.test(line) && !/;tag=/.test(line) ? `${line};tag=down1` : line)),
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n')
    socket.send(reply, from.port, from.address)
  })
  await new Promise<void>((resolve) => socket.bind(port!, '127.0.0.1', () => resolve()))
  return { port: port!, invites, close: () => socket.close() }
}

async function created(url: string, body: Record<string, unknown>): Promise<number> {
  const response = await admin.post(url, body)
  expect(response.statusCode, response.body).toBe(201)
  return (response.json() as { id: number }).id
}

/** The agent's telephony status as the service socket's change_state reports it, and the channel sign-in. */
async function agentState(userId: number, status: EndpointStatus, loggedIn: boolean) {
  const [user] = await stack.database.db.select().from(users).where(eq(users.id, userId))
  await reportStatus(stack.app.deps, { siteId: user!.siteId, userId }, 'telephony', status)
  await setChannelLogin(stack.app.deps, user!, 'telephony', loggedIn, 'user')
}

const registered = (user: string) => stack.control.events.some((e) => e.event === 'registration' && e.aor === `${user}@localhost` && e.state === 'registered')
const callEvents = (callId: string) => stack.control.events.filter((e): e is CallEvent => e.event === 'call' && e.call_id === callId)
const hasEvent = (callId: string, state: CallEvent['state']) => callEvents(callId).some((e) => e.state === state)

/** The Call-ID of the newest call Kamailio asked about for this dialled number (after `before` routes). */
async function newCall(dialled: string, before: number): Promise<string> {
  await until(() => stack.control.routes.slice(before).some((r) => r.ruri_user === dialled), 10_000, `the route request for ${dialled}`)
  return stack.control.routes.slice(before).find((r) => r.ruri_user === dialled)!.call_id
}

async function steps(callId: string) {
  await stack.control.inner.settled()
  return stepsOf(stack.database.db, callId)
}

/** The SIP messages a traced baresip printed for one call (its log is SIP trace + events). */
const traceOf = (ua: Baresip, callId: string) =>
  ua.events
    .join('')
    .split(/\n(?=(?:INVITE|ACK|BYE|CANCEL|SIP\/2\.0) )/)
    .filter((message) => message.includes(`Call-ID: ${callId}`))

/** RMS of 16-bit little-endian PCM. */
function rms(pcm: Buffer): number {
  let sum = 0
  const n = Math.floor(pcm.length / 2)
  for (let i = 0; i < n; i++) sum += pcm.readInt16LE(i * 2) ** 2
  return n ? Math.sqrt(sum / n) : 0
}

/** An mp3 back to 8 kHz 16-bit mono PCM: with lame (bin/setup --test installs it), else ffmpeg. */
function decodeMp3(mp3: Buffer): Buffer {
  const file = path.join(stack.dir, `decoded-${Date.now()}`)
  writeFileSync(`${file}.mp3`, mp3)
  try {
    execFileSync('lame', ['--quiet', '--decode', '-t', `${file}.mp3`, `${file}.raw`])
    return readFileSync(`${file}.raw`)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error
    return execFileSync('ffmpeg', ['-loglevel', 'error', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', '8000', 'pipe:1'], { input: mp3 })
  }
}

/** Zero crossings per second / 2: the frequency of a pure tone. */
function toneHz(pcm: Buffer, rate: number): number {
  let crossings = 0
  const n = Math.floor(pcm.length / 2)
  for (let i = 1; i < n; i++) if (pcm.readInt16LE((i - 1) * 2) < 0 !== pcm.readInt16LE(i * 2) < 0) crossings++
  return crossings / 2 / (n / rate)
}

beforeAll(async () => {
  stack = await startStackWith((db) => new RecordingControl(createCallControl({ db })))
  admin = await signedIn(stack.app, 'admin')
  supervisor = await signedIn(stack.app, 'supervisor')
  const db = stack.database.db
  const byName = async (username: string) => (await db.select().from(users).where(eq(users.username, username)))[0]!
  const a1 = await byName('agent1')
  const a2 = await byName('agent2')
  Object.assign(ids, { agent1: a1.id, agent2: a2.id, device1: a1.deviceId, device2: a2.deviceId, team: a1.teamId, siteId: a1.siteId })
  // SIP phones here, no webphone to end an after-service: the demo teams' after-service would keep the agents from
  // the queues after each call (after-service.test.ts proves that).
  await db.update(teams).set({ enableAfterService: false }).where(eq(teams.siteId, a1.siteId))

  // Agent 1 rings until told to answer; agent 2 and the desk phone answer at once.
  agent1 = await startBaresip(stack, '10001', stack.secrets['10001']!, { answer: 'manual', trace: true })
  agent2 = await startBaresip(stack, '10002', stack.secrets['10002']!, { trace: true })
  ids.desk = await created('/api/v1/pabx/devices/', { description: 'Mesa da recepção', username: '20010', secret: 'recepcao2025x' })
  started.push(agent1, agent2)

  refuser = await sipRefuser()
  outside = await startBaresip(stack, OUTSIDE_NUMBER, 'unused', { register: false, record: true, trace: true })
  started.push(outside)
  ids.trunkA = await created('/api/v1/pabx/trunks/', { description: 'Operadora A (fora do ar)', host: '127.0.0.1', port: refuser.port, transport: 'udp' })
  ids.trunkB = await created('/api/v1/pabx/trunks/', {
    description: 'Operadora B',
    host: '127.0.0.1',
    port: outside.sipPort,
    transport: 'udp',
    codecs: ['PCMU', 'PCMA'],
  })
  ids.route = await created('/api/v1/pabx/outbound-routes/', {
    description: 'Celulares',
    dial_patterns: '0ZX9XXXXXXXX',
    priority: 0,
    teams: [ids.team],
    record: true,
  })
  await created('/api/v1/pabx/outbound-route-trunks/', { outbound_route: ids.route, trunk: ids.trunkA, order: 0 })
  await created('/api/v1/pabx/outbound-route-trunks/', { outbound_route: ids.route, trunk: ids.trunkB, order: 1 })
  ids.queue = await created('/api/v1/pabx/queues/', {
    description: 'Fila integração',
    strategy: 'linear',
    teams: [ids.team],
    members: [
      { user: ids.agent1, penalty: 0 },
      { user: ids.agent2, penalty: 0 },
    ],
    ring_time: 3,
    max_wait_time: 0,
    overflow: { app: 'pjsip', appdata: ids.desk },
  })
  const inbound = await created('/api/v1/pabx/inbound-routes/', {
    description: 'Entrada integração',
    destination: { app: 'queue', appdata: ids.queue },
    record: false,
  })
  await created('/api/v1/pabx/numbers/', { number: DID, description: 'DID integração', trunk: ids.trunkB, inbound_route: inbound })
  await stack.app.telephony.publisher!.pushChanges()
  // The desk phone registers once Kamailio has its credentials (pushed above): a REGISTER before the push is refused
  // and baresip waits long before trying again.
  desk = await startBaresip(stack, '20010', 'recepcao2025x', { trace: true })
  started.push(desk)
  await until(() => ['10001', '10002', '20010'].every(registered), 30_000, 'the registrations')
  await agentState(ids.agent1, 'not_inuse', true)
  await agentState(ids.agent2, 'not_inuse', true)
}, 120_000)

afterAll(async () => {
  // TELEPHONY_TEST_DUMP=file writes what call control saw and the user agents printed (while a test is written).
  if (process.env.TELEPHONY_TEST_DUMP && stack) {
    const { routes, failures, decisions, events } = stack.control
    const logs = Object.fromEntries(started.map((ua) => [`${ua.user}:${ua.sipPort}`, ua.events.join('')]))
    writeFileSync(process.env.TELEPHONY_TEST_DUMP, JSON.stringify({ routes, failures, decisions, events, logs }, null, 1))
  }
  for (const ua of started) await ua.stop()
  refuser?.close()
  await stack?.close()
})

describe('device to device', () => {
  it('is answered; the call record has answered and total durations, type 31 and who hung up', async () => {
    const before = stack.control.routes.length
    await desk.command('dial', 'sip:10002@localhost')
    const callId = await newCall('10002', before)
    await until(() => hasEvent(callId, 'answered'), 10_000, 'the call answered')
    await new Promise((resolve) => setTimeout(resolve, 1600))
    await desk.command('hangup')
    await until(() => hasEvent(callId, 'ended'), 10_000, 'the call ended')
    const [step, ...more] = await steps(callId)
    expect(more).toEqual([])
    expect(step).toMatchObject({
      kind: 'device',
      direction: 'internal',
      callType: CALL_TYPE.internalOutbound,
      caller: '20010',
      callee: '10002',
      callerDeviceId: ids.desk,
      deviceId: ids.device2,
      userId: ids.agent2,
      dialStatus: 200,
      hungUpBy: 'caller',
    })
    expect(step!.answeredAt).not.toBeNull()
    expect(step!.answeredDuration).toBeGreaterThanOrEqual(1)
    expect(step!.totalDuration).toBeGreaterThanOrEqual(step!.answeredDuration!)
    // The callee was told the call type and who calls.
    const invite = traceOf(agent2, callId).find((m) => m.startsWith('INVITE '))!
    expect(invite).toContain('X-Atende-Call-Type: 30')
    expect(invite).toContain('X-Atende-Phone: 20010')

    const listed = await supervisor.get(`/api/v1/report/call-steps/${encodeURIComponent(callId)}/`)
    expect(listed.statusCode, listed.body).toBe(200)
    expect(listed.json()).toMatchObject({ count: 1 })
  })
})

describe('device to an outside number', () => {
  it('goes out through the route: the first trunk refuses, the next answers, hears the tone and the call is recorded', async () => {
    const before = stack.control.routes.length
    await agent1.command('dial', `sip:${OUTSIDE_NUMBER}@localhost`)
    const callId = await newCall(OUTSIDE_NUMBER, before)
    await until(() => hasEvent(callId, 'answered'), 15_000, 'the outside answered')
    expect(refuser.invites.some((m) => m.includes(callId))).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    await agent1.command('hangup')
    await until(() => hasEvent(callId, 'ended'), 10_000, 'the call ended')

    const [first, second, ...more] = await steps(callId)
    expect(more).toEqual([])
    expect(first).toMatchObject({ kind: 'trunk', trunkId: ids.trunkA, outboundRouteId: ids.route, dialStatus: 503, callType: CALL_TYPE.activeManual })
    expect(second).toMatchObject({
      kind: 'trunk',
      trunkId: ids.trunkB,
      direction: 'outbound',
      callType: CALL_TYPE.activeManual,
      phone: OUTSIDE_NUMBER,
      callerUserId: ids.agent1,
      dialStatus: 200,
      hungUpBy: 'caller',
      record: true,
    })
    expect(second!.recordingPath).toBe(`pcaps/${callId}-`)

    // The outside peer heard agent 1's 440 Hz tone (baresip's dump of what it decoded).
    const dumps = readdirSync(outside.home).filter((f) => f.endsWith('-dec.wav'))
    expect(dumps.length).toBeGreaterThan(0)
    const heard = dumps.map((f) => readFileSync(path.join(outside.home, f)).subarray(44)).sort((a, b) => b.length - a.length)[0]!
    expect(rms(heard)).toBeGreaterThan(1000)
    expect(toneHz(heard, 8000)).toBeGreaterThan(400)
    expect(toneHz(heard, 8000)).toBeLessThan(480)

    // rtpengine's pcap → mp3, served to a supervisor; decoded again it is not silence.
    const recording = await supervisor.get(`/api/v1/report/recordings/${encodeURIComponent(callId)}/`)
    expect(recording.statusCode, recording.body.slice(0, 200)).toBe(200)
    expect(recording.headers['content-type']).toBe('audio/mpeg')
    const pcm = decodeMp3(recording.rawPayload)
    expect(pcm.length / 16000).toBeGreaterThan(1.5)
    expect(rms(pcm)).toBeGreaterThan(1000)
  })
})

describe('the outside calls a DID into a queue', () => {
  it('rings an available agent with the X-Atende headers; the agent answers (type 20)', async () => {
    const before = stack.control.routes.length
    await outside.command('dial', `sip:${DID}@localhost`)
    const callId = await newCall(DID, before)
    await until(() => traceOf(agent1, callId).some((m) => m.startsWith('INVITE ')), 10_000, 'agent 1 rung')
    const invite = traceOf(agent1, callId).find((m) => m.startsWith('INVITE '))!
    expect(invite).toContain('X-Atende-Call-Type: 20')
    expect(invite).toContain(`X-Atende-Queue: ${ids.queue}`)
    expect(invite).toContain('X-Atende-Queue-Name: Fila integração')
    expect(invite).toContain(`X-Atende-Phone: ${OUTSIDE_NUMBER}`)
    await agent1.command('accept')
    await until(() => hasEvent(callId, 'answered'), 10_000, 'agent 1 answered')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await outside.command('hangup')
    await until(() => hasEvent(callId, 'ended'), 10_000, 'the call ended')
    const [step, ...more] = await steps(callId)
    expect(more).toEqual([])
    expect(step).toMatchObject({
      kind: 'queue',
      direction: 'inbound',
      callType: CALL_TYPE.inbound,
      queueId: ids.queue,
      trunkId: ids.trunkB,
      did: DID,
      phone: OUTSIDE_NUMBER,
      userId: ids.agent1,
      dialStatus: 200,
      hungUpBy: 'caller',
    })
    expect(step!.queueWait).not.toBeNull()
  })

  it('offers the next member when an agent does not answer within the ring time', async () => {
    const before = stack.control.routes.length
    await outside.command('dial', `sip:${DID}@localhost`)
    const callId = await newCall(DID, before)
    await until(() => traceOf(agent1, callId).some((m) => m.startsWith('INVITE ')), 10_000, 'agent 1 rung')
    // Agent 1 lets it ring: after the queue's 3 s the call goes to agent 2, who answers.
    await until(() => hasEvent(callId, 'answered'), 15_000, 'agent 2 answered')
    await outside.command('hangup')
    await until(() => hasEvent(callId, 'ended'), 10_000, 'the call ended')
    const [first, second, ...more] = await steps(callId)
    expect(more).toEqual([])
    expect(first).toMatchObject({ kind: 'queue', userId: ids.agent1, answeredAt: null })
    expect(first!.dialStatus).toBeGreaterThanOrEqual(400)
    expect(second).toMatchObject({ kind: 'queue', userId: ids.agent2, dialStatus: 200 })
    expect(second!.answeredAt).not.toBeNull()
    // The second member got the calling headers once each, not the first attempt's again.
    const invite = traceOf(agent2, callId).find((m) => m.startsWith('INVITE '))!
    expect(invite.match(/X-Atende-Queue: /g)).toHaveLength(1)
    expect(invite.match(/X-Atende-Call-Type: /g)).toHaveLength(1)
    const listed = (await supervisor.get(`/api/v1/report/call-steps/${encodeURIComponent(callId)}/`)).json() as { count: number }
    expect(listed.count).toBe(2)
  })

  it('overflows to the queue’s overflow destination when no member is available', async () => {
    await agentState(ids.agent1, 'unavailable', true)
    await agentState(ids.agent2, 'not_inuse', false)
    try {
      const before = stack.control.routes.length
      await outside.command('dial', `sip:${DID}@localhost`)
      const callId = await newCall(DID, before)
      await until(() => hasEvent(callId, 'answered'), 10_000, 'the desk phone answered')
      await outside.command('hangup')
      await until(() => hasEvent(callId, 'ended'), 10_000, 'the call ended')
      const [queued, overflowed, ...more] = await steps(callId)
      expect(more).toEqual([])
      expect(queued).toMatchObject({ kind: 'queue', queueId: ids.queue, dialStatus: 380, dialStatusText: 'Overflowed' })
      expect(overflowed).toMatchObject({ kind: 'device', deviceId: ids.desk, dialStatus: 200, callType: CALL_TYPE.inbound })
      expect(traceOf(agent1, callId)).toEqual([])
      expect(traceOf(agent2, callId)).toEqual([])
    } finally {
      await agentState(ids.agent1, 'not_inuse', true)
      await agentState(ids.agent2, 'not_inuse', true)
    }
  })
})

describe('a call nobody takes', () => {
  it('ends with 480 after the ring time when the queue has no overflow, and leaves no media session behind', async () => {
    await agentState(ids.agent2, 'not_inuse', false)
    try {
      const queue = await created('/api/v1/pabx/queues/', {
        description: 'Fila sem transbordo',
        strategy: 'linear',
        teams: [ids.team],
        members: [{ user: ids.agent1, penalty: 0 }],
        ring_time: 2,
        max_wait_time: 0,
      })
      const inbound = await created('/api/v1/pabx/inbound-routes/', {
        description: 'Entrada sem transbordo',
        destination: { app: 'queue', appdata: queue },
        record: false,
      })
      await created('/api/v1/pabx/numbers/', { number: '551140000002', description: 'DID sem transbordo', trunk: ids.trunkB, inbound_route: inbound })
      const before = stack.control.routes.length
      await outside.command('dial', 'sip:551140000002@localhost')
      const callId = await newCall('551140000002', before)
      // The caller hears 480 (the queue's ring time, then nobody left and no overflow).
      await until(() => traceOf(outside, callId).some((m) => m.startsWith('SIP/2.0 480')), 10_000, 'the 480')
      const [offered, unserved, ...more] = await steps(callId)
      expect(more).toEqual([])
      expect(offered).toMatchObject({ kind: 'queue', userId: ids.agent1, answeredAt: null })
      expect(unserved).toMatchObject({ kind: 'queue', dialStatus: 480 })
      const ng = new NgClient({ port: stack.config.telephony.rtpengineNgPort })
      try {
        await until(async () => (await ng.request({ command: 'query', 'call-id': callId })).result !== 'ok', 3000, 'the media session deleted')
      } finally {
        ng.close()
      }
    } finally {
      await agentState(ids.agent2, 'not_inuse', true)
    }
  })
})

describe('ring-all', () => {
  it('a call group rings every member at once; the step records the device and agent that answered', async () => {
    const group = await created('/api/v1/pabx/call-groups/', { description: 'Recepção', number: '30000', strategy: 'ringall', ring_time: 20 })
    await created('/api/v1/pabx/call-group-members/', { call_group: group, device: ids.device1, order: 0 })
    await created('/api/v1/pabx/call-group-members/', { call_group: group, device: ids.device2, order: 1 })
    const before = stack.control.routes.length
    await desk.command('dial', 'sip:30000@localhost')
    const callId = await newCall('30000', before)
    await until(() => hasEvent(callId, 'answered'), 10_000, 'a member answered')
    // Both rang: agent 1 (who lets it ring) got the INVITE too, and was cancelled when agent 2 answered. (baresip prints
    // its trace when it gets to it: on a busy machine after agent 2's answer.)
    await until(() => traceOf(agent1, callId).some((m) => m.startsWith('INVITE ')), 10_000, "agent 1's INVITE")
    expect(callEvents(callId).find((e) => e.state === 'answered')).toMatchObject({ callee: '10002' })
    await desk.command('hangup')
    await until(() => hasEvent(callId, 'ended'), 10_000, 'the call ended')
    const [step, ...more] = await steps(callId)
    expect(more).toEqual([])
    expect(step).toMatchObject({ kind: 'callgroup', deviceId: ids.device2, userId: ids.agent2, dialStatus: 200 })
  })

  it('a ring-all queue offers every available member; the step records who answered and frees the others', async () => {
    const queue = await created('/api/v1/pabx/queues/', {
      description: 'Fila todos',
      strategy: 'ringall',
      teams: [ids.team],
      members: [
        { user: ids.agent1, penalty: 0 },
        { user: ids.agent2, penalty: 0 },
      ],
      ring_time: 10,
    })
    const inbound = await created('/api/v1/pabx/inbound-routes/', {
      description: 'Entrada todos',
      destination: { app: 'queue', appdata: queue },
      record: false,
    })
    await created('/api/v1/pabx/numbers/', { number: '551140000009', description: 'DID todos', trunk: ids.trunkB, inbound_route: inbound })
    const before = stack.control.routes.length
    await outside.command('dial', 'sip:551140000009@localhost')
    const callId = await newCall('551140000009', before)
    await until(() => hasEvent(callId, 'answered'), 10_000, 'a member answered')
    await until(() => traceOf(agent1, callId).some((m) => m.startsWith('INVITE ')), 10_000, "agent 1's INVITE")
    await stack.control.inner.settled()
    const [step] = await steps(callId)
    expect(step).toMatchObject({ kind: 'queue', queueId: queue, userId: ids.agent2, deviceId: ids.device2 })
    expect([...step!.offeredUserIds].sort()).toEqual([ids.agent1, ids.agent2].sort())
    // While agent 2 talks, agent 1 (rung, not answering) is free for the next call again.
    const engaged = await engagedUsers(stack.database.db, ids.siteId, new Date())
    expect(engaged.has(ids.agent2)).toBe(true)
    expect(engaged.has(ids.agent1)).toBe(false)
    await outside.command('hangup')
    await until(() => hasEvent(callId, 'ended'), 10_000, 'the call ended')
  })
})

// The device rows the test relies on exist with the 5-digit demo extensions.
describe('the demo extensions', () => {
  it('are 10001 and 10002', async () => {
    const rows = await stack.database.db
      .select({ username: pabxDevices.username })
      .from(pabxDevices)
      .where(and(eq(pabxDevices.siteId, ids.siteId)))
    expect(rows.map((r) => r.username)).toEqual(expect.arrayContaining(['10001', '10002']))
  })
})
