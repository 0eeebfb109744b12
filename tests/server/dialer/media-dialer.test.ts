import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EndpointStatus } from '../../../contract/codes/states.ts'
import { dialerPaths } from '../../../contract/api/dialer.ts'
import { setChannelLogin } from '../../../server/agent/channel-service.ts'
import { reportStatus } from '../../../server/agent/status-service.ts'
import { callRecords, crmLeads, dialerCampaignRuns, dialerLeadStates, pabxSounds, pabxSoundsEntries, teams, users } from '../../../server/db/schema/index.ts'
import { saveMedia } from '../../../server/entities/media-store.ts'
import type { MediaKind } from '../../../server/entities/media-store.ts'
import { tablesOf } from '../../../server/entities/tables.ts'
import { createCallControl } from '../../../server/telephony/control/index.ts'
import type { CallControlService } from '../../../server/telephony/control/index.ts'
import { mediaAppAddress } from '../../../server/telephony/index.ts'
import { loadConfig } from '../../../server/config.ts'
import { sites } from '../../../server/db/schema/index.ts'
import { seedRecord } from '../../../server/seed/seed-record.ts'
import type { CallEvent } from '../../../server/telephony/types.ts'
import { signedIn } from '../helper.ts'
import { startSipCarrier } from '../../../e2e/telephony/sip-carrier.ts'
import type { SipCarrier } from '../../../e2e/telephony/sip-carrier.ts'
import type { TestClient } from '../helper.ts'
import { RawUas, callIdOf } from '../telephony/raw-uas.ts'
import { freePorts, rawSip, RecordingControl, startBaresip, startStackWith, until } from '../telephony/stack.ts'
import type { Baresip, Stack } from '../telephony/stack.ts'

// The dialer with the real engines (issue 18): the server's campaign runner asks the media app to call a lead; the
// media app's INVITE goes through Kamailio to the campaign's outbound route (call control, dialer-leg.ts) and reaches
// the "customer" — a baresip that answers, or a raw SIP peer that answers busy — playing the carrier's far end. An
// answered customer is bridged to the free agent of the campaign's queue with the lead's headers; with nobody free
// within 2 s the call counts as abandoned. What the carrier did ends up on the lead, its dialer state and the call
// record. Ports: engines 64000–64490, the media app 64500–64990, RTP 63000–63990's neighbours taken by freePorts.

type Control = RecordingControl<CallControlService>
let stack: Stack<Control>
let admin: TestClient
let agent: Baresip
let customer: Baresip
/** A far end that rings until the test accepts. */
let slow: Baresip
let busy: RawUas
/** A carrier whose far ends speak: a machine's long greeting or a person's short "alô" (AMD). */
let speaking: SipCarrier
const MACHINE = '011987652222'
const PERSON = '011987653333'
/** A fax machine: its CNG tone (1100 Hz, 0.5 s on / 3 s off) from the answer. */
const FAX = '011987654444'
const started: Baresip[] = []
// The far ends answer calls to their own user: the leads' phones.
const ANSWERING = '011987650000'
const SLOW = '011987659999'
const ids = { siteId: 0, agent: 0, team: 0, queue: 0, answering: 0, busy: 0, slow: 0, failover: 0, busyTrunk: 0, answeringTrunk: 0, speaking: 0, recorded: 0 }

async function created(url: string, body: Record<string, unknown>): Promise<number> {
  const response = await admin.post(url, body)
  expect(response.statusCode, response.body).toBe(201)
  return (response.json() as { id: number }).id
}

async function agentState(status: EndpointStatus, loggedIn: boolean) {
  const [user] = await stack.database.db.select().from(users).where(eq(users.id, ids.agent))
  await reportStatus(stack.app.deps, { siteId: user!.siteId, userId: ids.agent }, 'telephony', status)
  await setChannelLogin(stack.app.deps, user!, 'telephony', loggedIn, 'user')
}

const callEnded = (callId: string) => stack.control.events.find((e): e is CallEvent => e.event === 'call' && e.call_id === callId && e.state === 'ended')
const registered = (user: string) => stack.control.events.some((e) => e.event === 'registration' && e.aor === `${user}@localhost` && e.state === 'registered')

/** A campaign of one lead (calling `phone`) on `route`, started. */
async function campaignOf(route: number, name: string, phone: string, fields: Record<string, unknown> = {}) {
  const db = stack.database.db
  const [site] = await db.select().from(sites).where(eq(sites.id, ids.siteId))
  const ctx = { db, site: site!, userId: null, lang: 'pt-BR' as const, mediaDir: '' }
  const mailing = await seedRecord(ctx, 'crm.mailings', { description: `Mailing ${name}` })
  const lead = await seedRecord(ctx, 'crm.leads', { mailing, name, surname: 'Teste', phones: phone })
  const campaign = await created('/api/v1/service/shipments-campaigns/', {
    description: `Campanha ${name}`,
    mailings: [mailing],
    mode: 'progressive',
    queue: ids.queue,
    outbound_route: route,
    caller_id: '1140001234',
    max_attempts: 3,
    min_interval: 30,
    dial_time: 20,
    inactivate_by_duration: 1,
    ...fields,
  })
  const response = await admin.post(dialerPaths.command(campaign, 'start'))
  expect(response.statusCode, response.body).toBe(200)
  return { campaign, lead, phone }
}

function rms(pcm: Buffer): number {
  let sum = 0
  const n = Math.floor(pcm.length / 2)
  for (let i = 0; i < n; i++) sum += pcm.readInt16LE(i * 2) ** 2
  return n ? Math.sqrt(sum / n) : 0
}

function toneHz(pcm: Buffer): number {
  let crossings = 0
  const n = Math.floor(pcm.length / 2)
  for (let i = 1; i < n; i++) if (pcm.readInt16LE((i - 1) * 2) < 0 !== pcm.readInt16LE(i * 2) < 0) crossings++
  return crossings / 2 / (n / 8000)
}

/** What a baresip heard so far in its latest call (its decoded-audio dump, 8 kHz 16-bit). */
function heard(ua: Baresip): Buffer {
  const dumps = readdirSync(ua.home)
    .filter((f) => f.endsWith('-dec.wav'))
    .map((f) => path.join(ua.home, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
  return dumps[0] ? readFileSync(dumps[0]).subarray(44) : Buffer.alloc(0)
}

/** Both sides hear the other's 440 Hz tone (every test baresip sends one): the media of the bridge flows both ways. */
async function talking(a: Baresip, b: Baresip): Promise<void> {
  for (const ua of [a, b]) {
    const from = heard(ua).length
    await until(() => heard(ua).length > from + 2 * 8000 * 2, 15_000, `two seconds heard by ${ua.user}`)
    const part = heard(ua).subarray(from + 8000)
    expect(rms(part), `${ua.user} hears the other side`).toBeGreaterThan(1000)
    expect(toneHz(part)).toBeGreaterThan(400)
    expect(toneHz(part)).toBeLessThan(480)
  }
}

async function leadRow(id: number) {
  const [row] = await stack.database.db.select().from(crmLeads).where(eq(crmLeads.id, id))
  return row!
}
async function leadState(id: number) {
  const [row] = await stack.database.db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, id))
  return row
}
async function firstStep(leadId: number) {
  const [row] = await stack.database.db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.leadId, leadId), eq(callRecords.step, 1)))
  return row
}
async function stopCampaign(campaign: number) {
  const response = await admin.post(dialerPaths.command(campaign, 'stop'))
  expect(response.statusCode, response.body).toBe(200)
}

beforeAll(async () => {
  const [mediaSip, mediaControl] = await freePorts(2, 64500, 64990)
  const env = { MEDIA_SIP_PORT: String(mediaSip), MEDIA_CONTROL_PORT: String(mediaControl) }
  const mediaApp = mediaAppAddress(loadConfig(env).telephony)
  stack = await startStackWith((db) => new RecordingControl(createCallControl({ db, mediaApp })), env, { ports: [64000, 64490], rtpRange: [63000, 63990] })
  admin = await signedIn(stack.app, 'admin')
  const db = stack.database.db
  const [a1] = await db.select().from(users).where(eq(users.username, 'agent1'))
  ids.agent = a1!.id
  ids.siteId = a1!.siteId
  ids.team = a1!.teamId!
  await db.update(teams).set({ enableAfterService: false }).where(eq(teams.siteId, a1!.siteId))

  agent = await startBaresip(stack, '10001', stack.secrets['10001']!, { trace: true, record: true })
  customer = await startBaresip(stack, ANSWERING, 'unused', { register: false, trace: true, record: true })
  slow = await startBaresip(stack, SLOW, 'unused', { register: false, trace: true, answer: 'manual', record: true })
  started.push(agent, customer, slow)
  busy = new RawUas(await rawSip('127.0.0.1', stack.config.telephony.sipPort), 'busy')

  // Two carriers: one whose far end answers (baresip), one whose far end is busy (486).
  const answeringTrunk = await created('/api/v1/pabx/trunks/', {
    description: 'Operadora atende',
    host: '127.0.0.1',
    port: customer.sipPort,
    transport: 'udp',
    codecs: ['PCMU', 'PCMA'],
  })
  const busyTrunk = await created('/api/v1/pabx/trunks/', {
    description: 'Operadora ocupado',
    host: '127.0.0.1',
    port: busy.sip.port,
    transport: 'udp',
    codecs: ['PCMU', 'PCMA'],
  })
  const slowTrunk = await created('/api/v1/pabx/trunks/', {
    description: 'Operadora lenta',
    host: '127.0.0.1',
    port: slow.sipPort,
    transport: 'udp',
    codecs: ['PCMU', 'PCMA'],
  })
  for (const [key, trunk] of [
    ['answering', answeringTrunk],
    ['busy', busyTrunk],
    ['slow', slowTrunk],
  ] as const) {
    ids[key] = await created('/api/v1/pabx/outbound-routes/', {
      description: `Rota ${key}`,
      dial_patterns: '0ZX9XXXXXXXX',
      priority: 0,
      teams: [ids.team],
      record: false,
    })
    await created('/api/v1/pabx/outbound-route-trunks/', { outbound_route: ids[key], trunk, order: 0 })
  }
  // A route whose first carrier is out of order (503): the next trunk takes the call.
  ids.failover = await created('/api/v1/pabx/outbound-routes/', {
    description: 'Rota com reserva',
    dial_patterns: '0ZX9XXXXXXXX',
    priority: 0,
    teams: [ids.team],
    record: false,
  })
  await created('/api/v1/pabx/outbound-route-trunks/', { outbound_route: ids.failover, trunk: busyTrunk, order: 0 })
  await created('/api/v1/pabx/outbound-route-trunks/', { outbound_route: ids.failover, trunk: answeringTrunk, order: 1 })
  const [speakingPort] = await freePorts(1, 64500, 64990)
  speaking = await startSipCarrier({
    port: speakingPort!,
    plan: () => 'answer',
    // The machine talks 4 s without a pause; the person says "alô" (0.5 s) and waits.
    toneHz: (number) => (number.endsWith(FAX) ? 1100 : 440),
    speech: (number) =>
      number.endsWith(FAX)
        ? [
            [500, true],
            [3000, false],
            [500, true],
            [3000, false],
          ]
        : number.endsWith(MACHINE)
          ? [
              [200, false],
              [4000, true],
            ]
          : [
              [300, false],
              [500, true],
            ],
  })
  const speakingTrunk = await created('/api/v1/pabx/trunks/', {
    description: 'Operadora falante',
    host: '127.0.0.1',
    port: speakingPort,
    transport: 'udp',
    codecs: ['PCMU', 'PCMA'],
  })
  ids.speaking = await created('/api/v1/pabx/outbound-routes/', {
    description: 'Rota falante',
    dial_patterns: '0ZX9XXXXXXXX',
    priority: 0,
    teams: [ids.team],
    record: false,
  })
  await created('/api/v1/pabx/outbound-route-trunks/', { outbound_route: ids.speaking, trunk: speakingTrunk, order: 0 })
  // A route that records (the campaign's outbound route says so): the answered customer's call is recorded.
  ids.recorded = await created('/api/v1/pabx/outbound-routes/', {
    description: 'Rota gravada',
    dial_patterns: '0ZX9XXXXXXXX',
    priority: 0,
    teams: [ids.team],
    record: true,
  })
  await created('/api/v1/pabx/outbound-route-trunks/', { outbound_route: ids.recorded, trunk: answeringTrunk, order: 0 })
  ids.busyTrunk = busyTrunk
  ids.answeringTrunk = answeringTrunk
  ids.queue = await created('/api/v1/pabx/queues/', {
    description: 'Fila do discador',
    strategy: 'linear',
    teams: [ids.team],
    members: [{ user: ids.agent, penalty: 0 }],
    ring_time: 10,
    max_wait_time: 0,
  })
  // The abandoned customer's short message: the queue language's (pt-BR) keyed `goodbye` prompt, here a 1 s tone.
  const tone = path.join(stack.dir, 'goodbye.wav')
  execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', tone, 'synth', '1', 'sine', '700', 'vol', '0.5'])
  const plan = tablesOf('pabx.sounds-entries').plan.fields.find((f) => f.kind === 'file' && f.field.name === 'file')
  const WAV: MediaKind = { mime: 'audio/wav', ext: 'wav', maxBytes: 1024 * 1024, matches: () => true }
  const file = await saveMedia(stack.app.deps.config.mediaDir, plan?.kind === 'file' ? plan.dir : '', readFileSync(tone), WAV)
  const [folder] = await db.insert(pabxSounds).values({ siteId: ids.siteId, description: 'Chaves pt-BR', language: 'pt-BR' }).returning()
  await db.insert(pabxSoundsEntries).values({ siteId: ids.siteId, soundId: folder!.id, description: 'goodbye: Tchau', file })
  await stack.app.telephony.publisher!.pushChanges()
  await until(() => registered('10001'), 15_000, 'the agent registered')
  await until(() => stack.app.media?.connected === true, 10_000, 'the media app link')
}, 120_000)

afterAll(async () => {
  // DIALER_TEST_DUMP=file writes what call control saw and the user agents printed (while a test is written).
  if (process.env.DIALER_TEST_DUMP && stack) {
    const { routes, decisions, events } = stack.control
    const logs = Object.fromEntries(started.map((ua) => [ua.user, ua.events.join('')]))
    writeFileSync(process.env.DIALER_TEST_DUMP, JSON.stringify({ routes, decisions, events, logs }, null, 1))
  }
  for (const ua of started) await ua.stop()
  busy?.sip.close()
  await speaking?.stop()
  await stack?.close()
})

describe('a progressive campaign through the media app', () => {
  it("calls the lead: the customer answers, the free agent gets the call with the lead's headers; attempt and status recorded", async () => {
    await agentState('not_inuse', true)
    const { campaign, lead, phone } = await campaignOf(ids.answering, 'Maria', ANSWERING)

    // The media app's INVITE went to call control with the dialer's Call-ID and on to the answering carrier.
    await until(() => customer.events.join('').includes(`INVITE sip:${phone}@`), 20_000, 'the customer rung')
    const outbound = stack.control.routes.find((r) => r.source === 'media' && r.ruri_user === phone)!
    expect(outbound.call_id).toMatch(/^dialer-/)
    // The customer answered (auto): the agent is rung with the lead's headers (spec 000 §7) and answers (auto).
    await until(() => agent.events.join('').includes(`X-Atende-Mailing-Client: ${lead}`), 15_000, 'the agent rung with the lead')
    const invite = agent.events.join('')
    expect(invite).toContain(`X-Atende-Campaign: ${campaign}`)
    expect(invite).toContain(`X-Atende-Dialer: ${campaign}`)
    expect(invite).toContain('X-Atende-Call-Type: 12')
    expect(invite).toContain('X-Atende-Client-Name: Maria%20Teste')
    expect(invite).toContain('X-Atende-Attempts: 1')
    expect(invite).toContain(`X-Atende-Queue: ${ids.queue}`)
    const leg = stack.control.routes.find((r) => r.source === 'media' && r.x_headers['X-Atende-Media-Leg'] === outbound.call_id)!
    expect(leg.ruri_user).toBe(`queue.${ids.queue}`)
    await until(async () => (await firstStep(lead))?.userId === ids.agent, 15_000, 'the dialer call names the agent')
    // Talking while the call is in flight: the lead is held by the dialer, its attempt counted.
    expect(await leadRow(lead)).toMatchObject({ attempts: 1 })
    expect((await leadState(lead))?.callId).toBe(outbound.call_id)
    // They talk: the customer hears the agent and the agent the customer (the customer's leg, answered to the parking
    // sink, was joined to the agent's in rtpengine without a re-INVITE).
    await talking(customer, agent)
    // Talked past the campaign's inactivation by duration (1 s), the agent hangs up: the B2BUA ends the customer too.
    await agent.command('hangup')

    await until(async () => (await leadState(lead))?.callId === null, 15_000, 'the outcome recorded')
    // The customer's leg was ended by the media app (the caller of that dialog).
    await until(() => callEnded(outbound.call_id) !== undefined, 10_000, 'the customer hung up by the media app')
    expect(callEnded(outbound.call_id)!.by).toBe('caller')
    expect(await leadRow(lead)).toMatchObject({ attempts: 1, status: 'done' })
    expect(await leadState(lead)).toMatchObject({ lastStatus: 200, reservedUntil: null })
    const step = (await firstStep(lead))!
    expect(step).toMatchObject({ dialStatus: 200, trunkId: expect.any(Number), userId: ids.agent, callType: 12 })
    expect(step.answeredAt).not.toBeNull()
    expect(step.answeredDuration).toBeGreaterThanOrEqual(1)
    const [run] = await stack.database.db.select().from(dialerCampaignRuns).where(eq(dialerCampaignRuns.campaignId, campaign))
    expect(run!.abandoned).toBe(0)
    await stopCampaign(campaign)
    await until(() => stack.app.media!.dialerCalls() === 0, 10_000, 'no dialer call left')
  }, 90_000)

  it('a busy customer: 486 recorded, the lead due again after the minimum interval', async () => {
    await agentState('not_inuse', true)
    const { campaign, lead } = await campaignOf(ids.busy, 'Joana', '011987651111')
    const invite = await busy.next('INVITE', 20_000)
    expect(invite, 'the busy carrier rung').not.toBeNull()
    busy.reply(invite!, 100, 'Trying')
    busy.reply(invite!, 486, 'Busy Here')
    await until(async () => (await leadState(lead))?.lastStatus === 486, 15_000, 'the busy outcome recorded')
    expect(callIdOf(invite!)).toMatch(/^dialer-/)
    const state = (await leadState(lead))!
    expect(state).toMatchObject({ callId: null, reservedUntil: null })
    // Busy: the same phone after the minimum interval (30 minutes), the attempt spent.
    expect(state.nextAt!.getTime() - Date.now()).toBeGreaterThan(29 * 60_000)
    expect(await leadRow(lead)).toMatchObject({ attempts: 1, status: 'pending' })
    expect(await firstStep(lead)).toMatchObject({ dialStatus: 486, answeredAt: null })
    await stopCampaign(campaign)
  }, 60_000)

  it('answered with no agent free within 2 s: the customer is hung up and the call counts as abandoned', async () => {
    // The agent is free when the runner paces the call (progressive: one call per free agent), then gone before the
    // customer answers: this customer rings until the test accepts, after the agent has left.
    await agentState('not_inuse', true)
    const { campaign, lead, phone } = await campaignOf(ids.slow, 'Pedro', SLOW)
    await until(() => slow.events.join('').includes(`INVITE sip:${phone}@`), 20_000, 'the customer rung')
    await agentState('unavailable', false)
    await slow.command('accept')
    await until(async () => (await leadState(lead))?.callId === null, 20_000, 'the outcome recorded')
    const [run] = await stack.database.db.select().from(dialerCampaignRuns).where(eq(dialerCampaignRuns.campaignId, campaign))
    expect(run!.abandoned).toBe(1)
    expect(await leadState(lead)).toMatchObject({ lastStatus: 200 })
    const step = (await firstStep(lead))!
    expect(step.answeredAt).not.toBeNull()
    expect(step.userId).toBeNull()
    // Nobody took it: no leg toward the queue was placed for this call.
    const outbound = stack.control.routes.find((r) => r.source === 'media' && r.ruri_user === phone)!
    expect(stack.control.routes.some((r) => r.x_headers['X-Atende-Media-Leg'] === outbound.call_id)).toBe(false)
    // The media app hung the customer up (after the message, when the demo has one).
    await until(() => callEnded(outbound.call_id) !== undefined, 10_000, 'the customer hung up by the media app')
    expect(callEnded(outbound.call_id)!.by).toBe('caller')
    // …after the short message (the `goodbye` prompt: a 700 Hz tone here).
    // The 100 ms windows with sound (the customer's leg stayed silent while parked, if anything was dumped then).
    const all = heard(slow)
    const windows = Array.from({ length: Math.floor(all.length / 1600) }, (_, i) => all.subarray(i * 1600, (i + 1) * 1600))
    const message = Buffer.concat(windows.filter((w) => rms(w) > 1000))
    expect(message.length, 'at least half a second of message').toBeGreaterThan(8000)
    expect(rms(message), 'the customer heard the message').toBeGreaterThan(1000)
    expect(toneHz(message)).toBeGreaterThan(600)
    expect(toneHz(message)).toBeLessThan(800)
    await stopCampaign(campaign)
  }, 60_000)

  it('nobody answers within the dial time: the INVITE is cancelled and 480 (not answered) recorded', async () => {
    await agentState('not_inuse', true)
    const before = slow.events.join('').length
    const { campaign, lead, phone } = await campaignOf(ids.slow, 'Ana', SLOW, { dial_time: 5 })
    await until(() => slow.events.join('').slice(before).includes(`INVITE sip:${phone}@`), 20_000, 'the customer rung')
    await until(async () => (await leadState(lead))?.lastStatus != null, 20_000, 'the outcome recorded')
    expect(slow.events.join('').slice(before)).toContain('CANCEL sip:')
    expect(await leadState(lead)).toMatchObject({ lastStatus: 480, callId: null })
    expect(await leadRow(lead)).toMatchObject({ attempts: 1, status: 'pending' })
    expect(await firstStep(lead)).toMatchObject({ dialStatus: 480, answeredAt: null })
    await stopCampaign(campaign)
  }, 60_000)

  it("a carrier out of order: the route's next trunk places the call, which reaches the agent", async () => {
    await agentState('not_inuse', true)
    const before = agent.events.join('').length
    const { campaign, lead } = await campaignOf(ids.failover, 'Rita', ANSWERING)
    const invite = await busy.next('INVITE', 20_000)
    expect(invite, 'the first carrier rung').not.toBeNull()
    busy.reply(invite!, 503, 'Service Unavailable')
    await until(() => agent.events.join('').slice(before).includes(`X-Atende-Mailing-Client: ${lead}`), 15_000, 'the agent rung with the lead')
    await talking(customer, agent)
    await agent.command('hangup')
    await until(async () => (await leadState(lead))?.callId === null, 15_000, 'the outcome recorded')
    expect(await leadState(lead)).toMatchObject({ lastStatus: 200 })
    const steps = await stack.database.db
      .select()
      .from(callRecords)
      .where(eq(callRecords.callId, callIdOf(invite!)!))
      .orderBy(callRecords.step)
    expect(steps.map((s) => s.trunkId)).toEqual([ids.busyTrunk, ids.answeringTrunk])
    await stopCampaign(campaign)
  }, 60_000)
  it('answering-machine detection: a long greeting is hung up as 552 without an agent; a short "alô" reaches the agent', async () => {
    await agentState('not_inuse', true)
    const before = agent.events.join('').length
    const machine = await campaignOf(ids.speaking, 'Secretária', MACHINE, { amd: true })
    await until(async () => (await leadState(machine.lead))?.lastStatus != null, 30_000, 'the machine outcome recorded')
    expect(await leadState(machine.lead)).toMatchObject({ lastStatus: 552, callId: null })
    expect(await firstStep(machine.lead)).toMatchObject({ dialStatus: 552, userId: null })
    // Never bridged: the agent was not rung for it, and the app hung the machine up.
    expect(agent.events.join('').slice(before)).not.toContain(`X-Atende-Mailing-Client: ${machine.lead}`)
    const machineCall = speaking.calls.find((c) => c.number.endsWith(MACHINE))!
    expect(machineCall).toMatchObject({ endedBy: 'caller' })
    // Judged on the first 3.5 s: hung up before the 4 s greeting was over.
    expect(machineCall.endedAt! - machineCall.answeredAt!).toBeLessThan(4200)
    await stopCampaign(machine.campaign)

    const person = await campaignOf(ids.speaking, 'Pessoa', PERSON, { amd: true })
    await until(() => agent.events.join('').slice(before).includes(`X-Atende-Mailing-Client: ${person.lead}`), 30_000, 'the agent rung with the person')
    await until(async () => (await firstStep(person.lead))?.userId === ids.agent, 15_000, 'the agent took it')
    await agent.command('hangup')
    await until(async () => (await leadState(person.lead))?.callId === null, 15_000, 'the outcome recorded')
    expect(await leadState(person.lead)).toMatchObject({ lastStatus: 200 })
    await stopCampaign(person.campaign)
  }, 90_000)
  it('fax detection: a CNG tone (1100 Hz, 0.5 s on / 3 s off) is hung up as 510 without an agent', async () => {
    await agentState('not_inuse', true)
    const before = agent.events.join('').length
    const fax = await campaignOf(ids.speaking, 'Fax', FAX, { amd: true })
    await until(async () => (await leadState(fax.lead))?.lastStatus != null, 30_000, 'the fax outcome recorded')
    expect(await leadState(fax.lead)).toMatchObject({ lastStatus: 510, callId: null })
    expect(await firstStep(fax.lead)).toMatchObject({ dialStatus: 510, userId: null })
    // Fax (510) disables the phone: the lead's only one, so it is not dialled again.
    expect((await leadState(fax.lead))?.nextAt ?? null).toBeNull()
    expect(agent.events.join('').slice(before)).not.toContain(`X-Atende-Mailing-Client: ${fax.lead}`)
    const call = speaking.calls.find((c) => c.number.endsWith(FAX))!
    expect(call).toMatchObject({ endedBy: 'caller' })
    // Judged on the answer analysis' 3.5 s (the first burst), never bridged.
    expect(call.endedAt! - call.answeredAt!).toBeLessThan(4500)
    await stopCampaign(fax.campaign)
  }, 60_000)

  it("recording: on a route that records, the answered customer's call is recorded and served on the dialer call", async () => {
    await agentState('not_inuse', true)
    const before = agent.events.join('').length
    const { campaign, lead } = await campaignOf(ids.recorded, 'Gravada', ANSWERING)
    await until(() => agent.events.join('').slice(before).includes(`X-Atende-Mailing-Client: ${lead}`), 20_000, 'the agent rung with the lead')
    await until(async () => (await firstStep(lead))?.userId === ids.agent, 15_000, 'the agent took it')
    await talking(customer, agent)
    await agent.command('hangup')
    await until(async () => (await leadState(lead))?.callId === null, 15_000, 'the outcome recorded')
    const step = (await firstStep(lead))!
    expect(step).toMatchObject({ dialStatus: 200, record: true, userId: ids.agent })
    // The calls API lists the dialer call as recorded, like other calls.
    const listed = await admin.get(`/api/v1/report/calls/?search=${ANSWERING}&limit=50`)
    expect(listed.statusCode, listed.body.slice(0, 200)).toBe(200)
    const row = (listed.json() as { results: { call_id: string; recording: boolean }[] }).results.find((r) => r.call_id === step.callId)
    expect(row, 'the dialer call in the list').toBeDefined()
    expect(row!.recording).toBe(true)
    // …and its recording (rtpengine's pcaps of the agent's leg, which carried the customer) plays: both tones in it.
    let wav: Buffer = Buffer.alloc(0)
    await until(
      async () => {
        const response = await admin.get(`/api/v1/report/recordings/${encodeURIComponent(step.callId)}/?extension=wav`)
        if (response.statusCode !== 200) return false
        wav = response.rawPayload
        return wav.length > 44 + 2 * 8000 * 2
      },
      15_000,
      'the recording served',
    )
    const pcm = wav.subarray(44)
    expect(pcm.length / 16000, 'seconds recorded').toBeGreaterThan(1.5)
    expect(rms(pcm), 'the recording is not silence').toBeGreaterThan(1000)
    await stopCampaign(campaign)
  }, 90_000)
  it('a media app killed while a dialer call talks: the call is adopted, talks on, and its end is the outcome', async () => {
    await agentState('not_inuse', true)
    const before = agent.events.join('').length
    const { campaign, lead, phone } = await campaignOf(ids.answering, 'Reinício', ANSWERING)
    await until(() => agent.events.join('').slice(before).includes(`X-Atende-Mailing-Client: ${lead}`), 20_000, 'the agent rung with the lead')
    await until(async () => (await firstStep(lead))?.userId === ids.agent, 15_000, 'the agent took it')
    await talking(customer, agent)
    const outbound = [...stack.control.routes].reverse().find((r) => r.source === 'media' && r.ruri_user === phone)!
    await until(() => stack.app.media!.adoptable(outbound.call_id), 5_000, "the call's dialogs kept by the brain")
    const supervisor = stack.app.telephony.engines.supervisors.mediaapp!
    const restarts = supervisor.status.restarts
    process.kill(supervisor.status.pid!, 'SIGKILL')
    await until(() => supervisor.status.restarts > restarts && supervisor.status.state === 'running', 15_000, 'the media app started again')
    await until(() => stack.app.media!.connected, 10_000, 'the brain linked to the new app')
    // Still one dialer call, still talking both ways after the restart (its media never left rtpengine).
    expect(stack.app.media!.dialerCalls()).toBe(1)
    expect(await leadState(lead)).toMatchObject({ callId: outbound.call_id })
    await talking(customer, agent)
    // The agent hangs up: the adopted dialog ends the customer's leg and the runner gets the outcome (answered, talked).
    await agent.command('hangup')
    await until(() => callEnded(outbound.call_id) !== undefined, 10_000, 'the customer hung up by the restarted app')
    await until(async () => (await leadState(lead))?.callId === null, 15_000, 'the outcome recorded')
    expect(await leadState(lead)).toMatchObject({ lastStatus: 200 })
    const step = (await firstStep(lead))!
    expect(step).toMatchObject({ dialStatus: 200, userId: ids.agent })
    expect(step.answeredDuration).toBeGreaterThanOrEqual(2)
    await stopCampaign(campaign)
  }, 120_000)
})
