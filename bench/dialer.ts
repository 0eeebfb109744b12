import { randomBytes } from 'node:crypto'
import dgram from 'node:dgram'
import { mkdtempSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { and, eq, sql } from 'drizzle-orm'
import { startSipCarrier } from '../e2e/telephony/sip-carrier.ts'
import type { CarrierOutcome } from '../e2e/telephony/sip-carrier.ts'
import { setChannelLogin } from '../server/agent/channel-service.ts'
import { reportStatus } from '../server/agent/status-service.ts'
import { loadConfig } from '../server/config.ts'
import type { Db } from '../server/db/client.ts'
import { dialerPaths } from '../contract/api/dialer.ts'
import { crmLeads, dialerCampaignRuns, dialerPacingLog, permissionGroups, sites, teams, users } from '../server/db/schema/index.ts'
import { seedRecord } from '../server/seed/seed-record.ts'
import { startServer } from '../server/startup.ts'
import { createUser } from '../server/users/user-repo.ts'
import { scratchDatabase, tokenFor } from './lib.ts'
import { hv, hvs, md5, parse, statusOf } from './sip-message.ts'
import type { Msg } from './sip-message.ts'

// The dialer with the real engines (issue 18): the server's campaign runner (the live pacing code, pacer.ts) asks the
// media app to call leads through Kamailio + rtpengine to a SIP carrier (e2e/telephony/sip-carrier.ts, a UDP user
// agent server in this process on 127.0.0.2) that answers 30 % (after 5–20 s of ringing), is busy 20 % and rings out
// 50 % (the campaign's dial time, 30 s, then CANCEL: 480); an answered customer talks 60–180 s, then the carrier
// hangs up. 20 agents (each a SIP user agent of this process on its own 127.0.1.x address, registered with digest as
// an extension, logged in to the campaign's queue) answer at once whatever reaches them. All times are scaled by
// BENCH_SCALE (0.2: talk 12–36 s, ring 1–4 s, dial time 6 s); the runner's tick (1 s) and the 2 s an answered
// customer waits for an agent are not scaled, which favours the abandon rate and coarsens the pacing.
// Phases: (a) predictive, (b) progressive, each a fresh campaign (BENCH_WINDOW, below: warm or cold) with fresh leads
// for BENCH_SECONDS (240): agent occupancy = the agents' talk time (their 200 OK → the BYE) over their logged-in time
// (all of the phase), and abandon rate = abandoned / answered; (c) calls originated per second: an all-busy carrier
// and a progressive campaign's runner replaced by the brain's `originate` called at BENCH_RATES (5,10,20,40) per
// second for BENCH_RATE_SECONDS (8) each: originations completed per second and their p50/p99 (INVITE → 486 back).
// Run alone: npm exec -- node bench/dialer.ts (ports SIP 27060, RTP 48000–49999; PostgreSQL BENCH_PG_URL).

const SCALE = Number(process.env.BENCH_SCALE ?? 0.2)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 240)
const AGENTS = Number(process.env.BENCH_AGENTS ?? 20)
const RATES = (process.env.BENCH_RATES ?? '5,10,20,40').split(',').map(Number)
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 8)
const MODES = (process.env.BENCH_MODES ?? 'predictive,progressive').split(',')
/**
 * `warm` (default): the campaign starts with a 30-day window of 10,000 answered calls, 150 (1.5 %) abandoned — a
 * campaign that has been running, as the simulator's warm case; `cold`: an empty window, where the abandon cap allows
 * no call beyond the idle agents until answered calls earn some (3 % of them), so predictive starts as progressive.
 */
const WINDOW = process.env.BENCH_WINDOW === 'cold' ? 'cold' : 'warm'
const SIP = 27060
const ENV = {
  TELEPHONY: 'embedded',
  SIP_PORT: String(SIP),
  SIP_WS_PORT: '27088',
  EVAPI_PORT: '27448',
  RTPENGINE_NG_PORT: '27223',
  RTP_PORT_MIN: '48000',
  RTP_PORT_MAX: '49999',
  DTMF_LOG_PORT: '27999',
  MEDIA_SIP_PORT: '27090',
  MEDIA_CONTROL_PORT: '27449',
  SIP_FLOOD_REQUESTS: '2000',
  SIP_AUTH_FAIL_LIMIT: '100000',
}

/** A seeded random number generator (mulberry32): the carrier's plan is the same every run. */
function seeded(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// ------------------------------------------------------------------------------------------------ the agents' UAs

const token = () => randomBytes(6).toString('hex')

function build(first: string, headers: [string, string | number][], body = ''): string {
  const lines = headers.map(([n, v]) => `${n}: ${v}`)
  if (body) lines.push('Content-Type: application/sdp')
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  return `${first}\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}

function answer(request: Msg, code: number, reason: string, toTag: string, extra: [string, string | number][] = [], body = ''): string {
  const to = hv(request, 'To')
  return build(
    `SIP/2.0 ${code} ${reason}`,
    [
      ...hvs(request, 'Via').map((v): [string, string] => ['Via', v]),
      ...hvs(request, 'Record-Route').map((v): [string, string] => ['Record-Route', v]),
      ['From', hv(request, 'From')],
      ['To', code > 100 && !/;tag=/.test(to) ? `${to};tag=${toTag}` : to],
      ['Call-ID', hv(request, 'Call-ID')],
      ['CSeq', hv(request, 'CSeq')],
      ...extra,
    ],
    body,
  )
}

/** An agent's SIP user agent: registers, answers every INVITE at once, counts its talk time (200 OK → BYE). */
class AgentUa {
  talkMs = 0
  calls = 0
  private open = new Map<string, number>()
  private waiters = new Map<string, (m: Msg) => void>()
  readonly socket: dgram.Socket
  readonly ip: string
  readonly port: number
  readonly user: string
  secret = ''
  userId = 0
  private constructor(socket: dgram.Socket, ip: string, port: number, user: string) {
    this.socket = socket
    this.ip = ip
    this.port = port
    this.user = user
    socket.on('message', (data, from) => {
      const m = parse(data.toString('latin1'))
      if (m.first.startsWith('SIP/2.0')) return this.waiters.get(`${hv(m, 'Call-ID')}|${hv(m, 'CSeq')}`)?.(m)
      const reply = (text: string) => socket.send(text, from.port, from.address)
      const callId = hv(m, 'Call-ID')
      const tag = md5(callId).slice(0, 8)
      if (m.first.startsWith('INVITE ')) {
        if (this.open.has(callId)) return // a retransmission: our 200 is on its way
        const sdp = [
          'v=0',
          `o=- ${Date.now()} 1 IN IP4 ${this.ip}`,
          's=-',
          `c=IN IP4 ${this.ip}`,
          't=0 0',
          `m=audio ${this.port + 1} RTP/AVP 0 101`,
          'a=rtpmap:0 PCMU/8000',
          'a=rtpmap:101 telephone-event/8000',
          'a=sendrecv',
          '',
        ].join('\r\n')
        this.open.set(callId, performance.now())
        this.calls++
        reply(answer(m, 200, 'OK', tag, [['Contact', `<sip:${this.user}@${this.ip}:${this.port}>`]], sdp))
      } else if (m.first.startsWith('BYE ') || m.first.startsWith('CANCEL ')) {
        const since = this.open.get(callId)
        if (since !== undefined) {
          this.talkMs += performance.now() - since
          this.open.delete(callId)
        }
        reply(answer(m, 200, 'OK', tag))
      } else if (!m.first.startsWith('ACK ')) reply(answer(m, 200, 'OK', tag))
    })
  }
  static async open(ip: string, user: string): Promise<AgentUa> {
    const socket = dgram.createSocket('udp4')
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      socket.bind(0, ip, () => resolve())
    })
    return new AgentUa(socket, ip, socket.address().port, user)
  }
  /** Talk time so far, the calls still open counted up to now. */
  talkedMs(): number {
    let ms = this.talkMs
    for (const since of this.open.values()) ms += performance.now() - since
    return ms
  }
  reset() {
    this.talkMs = 0
    this.calls = 0
    for (const key of this.open.keys()) this.open.set(key, performance.now())
  }
  private transact(text: string): Promise<Msg> {
    const m = parse(text)
    const key = `${hv(m, 'Call-ID')}|${hv(m, 'CSeq')}`
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${m.first}`)), 8000)
      this.waiters.set(key, (reply) => {
        if (statusOf(reply) < 200) return
        clearTimeout(timer)
        this.waiters.delete(key)
        resolve(reply)
      })
      this.socket.send(text, SIP, '127.0.0.1')
    })
  }
  async register(password: string): Promise<number> {
    const callId = token()
    const from = `<sip:${this.user}@localhost>;tag=${token()}`
    const base = (cseq: number): [string, string | number][] => [
      ['Via', `SIP/2.0/UDP ${this.ip}:${this.port};branch=z9hG4bK${token()};rport`],
      ['Max-Forwards', 70],
      ['From', from],
      ['To', `<sip:${this.user}@localhost>`],
      ['Call-ID', callId],
      ['CSeq', `${cseq} REGISTER`],
      ['Contact', `<sip:${this.user}@${this.ip}:${this.port}>;expires=3600`],
    ]
    const challenge = await this.transact(build('REGISTER sip:localhost SIP/2.0', base(1)))
    if (statusOf(challenge) !== 401) return statusOf(challenge)
    const header = hv(challenge, 'WWW-Authenticate')
    const realm = /realm="([^"]+)"/.exec(header)![1]!
    const nonce = /nonce="([^"]+)"/.exec(header)![1]!
    const response = md5(`${md5(`${this.user}:${realm}:${password}`)}:${nonce}:${md5('REGISTER:sip:localhost')}`)
    const auth = `Digest username="${this.user}", realm="${realm}", nonce="${nonce}", uri="sip:localhost", response="${response}", algorithm=MD5`
    return statusOf(await this.transact(build('REGISTER sip:localhost SIP/2.0', [...base(2), ['Authorization', auth]])))
  }
  close() {
    this.socket.close()
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN

async function main() {
  const database = await scratchDatabase('atende_bench_dialer')
  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-dialer-'))
  const config = loadConfig({ ...process.env, ...ENV, DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'fatal', PORT: '0', HOST: '127.0.0.1' })
  const { app, url } = await startServer(config)
  const agents: AgentUa[] = []
  const random = seeded(18)
  /** What the carrier does with each number (drawn once per number, from the seeded plan). */
  const plans = new Map<string, { outcome: CarrierOutcome; ringMs: number; talkMs: number }>()
  const planOf = (number: string) => {
    let plan = plans.get(number)
    if (!plan) {
      const r = random()
      const outcome: CarrierOutcome = r < 0.3 ? 'answer' : r < 0.5 ? 'busy' : 'ringout'
      plan = { outcome, ringMs: (5 + random() * 15) * 1000 * SCALE, talkMs: (60 + random() * 120) * 1000 * SCALE }
      plans.set(number, plan)
    }
    return plan
  }
  let allBusy = false
  const carrier = await startSipCarrier({
    port: 27070,
    host: '127.0.0.2',
    plan: (number) => (allBusy ? 'busy' : planOf(number).outcome),
    answerAfterMs: (number) => planOf(number).ringMs,
    talkMs: (number) => planOf(number).talkMs,
    rtpPorts: [47000, 47999],
  })
  try {
    await app.telephony.engines.ready()
    for (let i = 0; i < 400 && !(app.telephony.evapi?.connected && app.media?.connected); i++) await sleep(50)
    if (!app.telephony.evapi?.connected) throw new Error('evapi not connected: are kamailio and rtpengine installed?')
    if (!app.media?.connected) throw new Error('the media app did not connect')
    const db = app.deps.db as Db
    const [site] = await db.select().from(sites).where(eq(sites.domain, 'localhost'))
    const siteId = site!.id
    const ctx = { db, site: site!, userId: null, lang: 'pt-BR' as const, mediaDir: '' }
    const [team] = await db.select().from(teams).where(eq(teams.siteId, siteId))
    // No after-call work: an agent is free again when the call ends (the simulator's wrap-up is 5–15 s).
    await db.update(teams).set({ enableAfterService: false }).where(eq(teams.siteId, siteId))
    const [agentGroup] = await db
      .select()
      .from(permissionGroups)
      .where(and(eq(permissionGroups.siteId, siteId), eq(permissionGroups.name, 'Agentes')))
    for (const deadline = Date.now() + 60_000; (await fetch(`${url}/api/pre-session/`)).status === 503 && Date.now() < deadline;) await sleep(200)
    const adminToken = await tokenFor(url)
    const command = async (campaign: number, kind: 'start' | 'stop') => {
      const response = await fetch(`${url}${dialerPaths.command(campaign, kind)}`, {
        method: 'POST',
        headers: { authorization: `Token ${adminToken}`, accept: 'application/json' },
      })
      if (!response.ok) throw new Error(`${kind} campaign ${campaign}: ${response.status} ${await response.text()}`)
    }

    // ---- the carrier's trunk and route, the agents, the queue
    const trunk = await seedRecord(ctx, 'pabx.trunks', { description: 'Operadora (bench)', host: '127.0.0.2', port: 27070, transport: 'udp', codecs: ['PCMU'] })
    const route = await seedRecord(ctx, 'pabx.outbound-routes', {
      description: 'Rota do discador',
      dial_patterns: '0ZX9XXXXXXXX',
      priority: 0,
      teams: [team!.id],
      record: false,
    })
    await seedRecord(ctx, 'pabx.outbound-route-trunks', { outbound_route: route, trunk, order: 0 })
    const members: { user: number; penalty: number }[] = []
    const userRows = new Map<number, Awaited<ReturnType<typeof createUser>>>()
    let t = performance.now()
    for (let i = 0; i < AGENTS; i++) {
      const username = String(30000 + i)
      const secret = `bench${token()}`
      const user = await createUser(db, {
        siteId,
        username: `benchagent${i}`,
        password: `Senha${token()}9`,
        firstName: 'Agente',
        lastName: String(i),
        teamId: team!.id,
        groupIds: agentGroup ? [agentGroup.id] : [],
      })
      const device = await seedRecord(ctx, 'pabx.devices', { description: `Ramal ${username}`, username, secret, transport: 'udp', recording: 'never' })
      await db.update(users).set({ deviceId: device }).where(eq(users.id, user.id))
      members.push({ user: user.id, penalty: 0 })
      const ua = await AgentUa.open(`127.0.1.${10 + i}`, username)
      agents.push(ua)
      ua.secret = secret
      ua.userId = user.id
      userRows.set(user.id, user)
    }
    const queue = await seedRecord(ctx, 'pabx.queues', {
      description: 'Fila do discador (bench)',
      strategy: 'rrmemory',
      queue_type: 'outbound',
      teams: [team!.id],
      members,
      ring_time: 10,
      max_wait_time: 0,
    })
    await app.telephony.publisher!.pushAll()
    await sleep(500)
    for (const ua of agents) {
      let code = 0
      for (let i = 0; i < 50 && code !== 200; i++) {
        code = await ua.register(ua.secret).catch(() => 0)
        if (code !== 200) await sleep(100)
      }
      if (code !== 200) throw new Error(`agent ${ua.user} REGISTER refused (${code})`)
      await reportStatus(app.deps, { siteId, userId: ua.userId }, 'telephony', 'not_inuse')
      await setChannelLogin(app.deps, userRows.get(ua.userId)!, 'telephony', true, 'user')
    }
    console.log(`${AGENTS} agents registered and logged in (${((performance.now() - t) / 1000).toFixed(1)} s); load average ${load()}`)
    const idle = await app.media.queueAgents(siteId, queue, new Date())
    if (idle.idle !== AGENTS) console.log(`  (the queue counts ${idle.idle} of ${idle.members} members free)`)

    // ---- (a), (b): a campaign per mode
    let phoneBase = 11_980_000_000
    const leadsPerRun = Math.ceil((SECONDS / (SCALE * 20)) * AGENTS * 4) + 200
    console.log(
      `\ncarrier: answer 30 % (ring ${(5 * SCALE).toFixed(1)}–${(20 * SCALE).toFixed(1)} s), busy 20 %, ring-out 50 % (dial time ${Math.round(30 * SCALE)} s); talk ${(60 * SCALE).toFixed(0)}–${(180 * SCALE).toFixed(0)} s (×${SCALE}); ${AGENTS} agents, no wrap-up; ${SECONDS} s per mode, ${leadsPerRun} leads; ${WINDOW === 'warm' ? 'warm 30-day window (10,000 answered, 1.5 % abandoned)' : 'cold start (empty 30-day window)'}`,
    )
    console.log('mode          occupancy  occupancy after 1st min  attempts  answered  abandoned  abandon rate  dials/s  pacing decisions  load (1/5/15 min)')
    for (const mode of MODES) {
      t = performance.now()
      const mailing = await seedRecord(ctx, 'crm.mailings', { description: `Mailing ${mode}` })
      const values = Array.from({ length: leadsPerRun }, () => {
        const phone = `0${phoneBase++}`
        return { siteId, mailingId: mailing, name: 'Lead', surname: mode, phones: phone }
      })
      for (let i = 0; i < values.length; i += 500) await db.insert(crmLeads).values(values.slice(i, i + 500) as never)
      const campaign = await seedRecord(ctx, 'service.shipments-campaigns', {
        description: `Campanha ${mode}`,
        mailings: [mailing],
        mode,
        queue,
        outbound_route: route,
        caller_id: '1140001234',
        max_attempts: 1,
        min_interval: 60,
        dial_time: Math.max(1, Math.round(30 * SCALE)),
        inactivate_by_duration: 0,
        max_abandon_rate: 3,
      })
      if (WINDOW === 'warm') {
        // The past month: answered calls two days ago (outside the pacer's one-hour statistics), on a lead already done.
        const [past] = await db
          .insert(crmLeads)
          .values({ siteId, mailingId: mailing, name: 'Histórico', phones: '011999999999', status: 'done' } as never)
          .returning({ id: crmLeads.id })
        await db.execute(sql`insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, callee, phone, lead_id, started_at, answered_at, ended_at, dial_status, decision, record)
          select ${siteId}, 'history-' || ${mode} || '-' || i, 1, gen_random_uuid()::text, 'outbound', 12, 'trunk', '011999999999', '011999999999', ${past!.id},
            now() - interval '2 days', now() - interval '2 days', now() - interval '2 days', 200, '{}'::jsonb, false
          from generate_series(1, 10000) as i`)
      }
      for (const ua of agents) ua.reset()
      const phaseStart = new Date()
      const started = performance.now()
      await command(campaign, 'start')
      if (WINDOW === 'warm') await db.update(dialerCampaignRuns).set({ abandoned: 150 }).where(eq(dialerCampaignRuns.campaignId, campaign))
      let firstMinute = 0
      while (performance.now() - started < SECONDS * 1000) {
        await sleep(1000)
        if (!firstMinute && performance.now() - started >= 60_000) firstMinute = agents.reduce((n, ua) => n + ua.talkedMs(), 0)
      }
      const elapsed = performance.now() - started
      const talked = agents.reduce((n, ua) => n + ua.talkedMs(), 0)
      await command(campaign, 'stop')
      const [counts] = (
        (await db.execute(sql`select count(*)::int as attempts, count(answered_at)::int as answered,
          count(*) filter (where dial_status_text = 'Abandoned')::int as abandoned
          from call_records where site_id = ${siteId} and step = 1 and call_id like 'dialer-%' and started_at >= ${phaseStart.toISOString()}::timestamptz
          and lead_id in (select id from crm_leads where mailing_id = ${mailing})`)) as unknown as {
          rows: { attempts: number; answered: number; abandoned: number }[]
        }
      ).rows
      const [run] = await db.select().from(dialerCampaignRuns).where(eq(dialerCampaignRuns.campaignId, campaign))
      const [decisions] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(dialerPacingLog)
        .where(eq(dialerPacingLog.campaignId, campaign))
      const abandoned = Math.max(counts!.abandoned, (run?.abandoned ?? 0) - (WINDOW === 'warm' ? 150 : 0))
      console.log(
        [
          mode.padEnd(12),
          pct(talked / (AGENTS * elapsed)).padStart(10),
          pct((talked - firstMinute) / (AGENTS * (elapsed - 60_000))).padStart(25),
          String(counts!.attempts).padStart(9),
          String(counts!.answered).padStart(9),
          String(abandoned).padStart(10),
          pct(abandoned / Math.max(1, counts!.answered)).padStart(13),
          (counts!.attempts / (elapsed / 1000)).toFixed(2).padStart(8),
          String(decisions?.n ?? 0).padStart(17),
          `  ${load()}`,
        ].join(' '),
      )
      // The calls in flight end (ring-outs within the dial time, talks within their talk time) before the next mode.
      for (let i = 0; i < 600 && app.media.dialerCalls() > 0; i++) await sleep(100)
    }

    // ---- (c) originations per second: every number busy (486), the brain's originate called at a fixed rate
    allBusy = true
    const mailing = await seedRecord(ctx, 'crm.mailings', { description: 'Mailing taxa' })
    const campaign = await seedRecord(ctx, 'service.shipments-campaigns', {
      description: 'Campanha taxa',
      mailings: [mailing],
      mode: 'progressive',
      queue,
      outbound_route: route,
      caller_id: '1140001234',
      max_attempts: 1,
      dial_time: 5,
    })
    console.log(`\n(c) originations per second (carrier busy: INVITE → 486 → the outcome): offered rate, completed/s, p50/p99 ms, failures`)
    for (const rate of RATES) {
      const latencies: number[] = []
      const failures: Record<string, number> = {}
      const pending: Promise<void>[] = []
      const started = performance.now()
      const total = rate * RATE_SECONDS
      for (let i = 0; i < total; i++) {
        const due = started + (i * 1000) / rate
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        const phone = `0${phoneBase++}`
        const callId = `dialer-${randomBytes(12).toString('hex')}`
        const uid = randomBytes(16)
          .toString('hex')
          .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')
        const t0 = performance.now()
        pending.push(
          (async () => {
            // The runner's startAttempt writes step 1 (call control routes the call by it); here only the record.
            await db.execute(sql`insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, callee, phone, queue_id, outbound_route_id, started_at, decision, record)
              values (${siteId}, ${callId}, 1, ${uid}, 'outbound', 12, 'trunk', ${phone}, ${phone}, ${queue}, ${route}, now(), ${JSON.stringify({ dialer: campaign, campaign, mailing })}::jsonb, false)`)
            const outcome = await app.media!.originate({
              siteId,
              campaignId: campaign,
              queueId: queue,
              callId,
              uid,
              phone,
              callerId: '1140001234',
              outboundRouteId: route,
              dialTimeoutMs: 5000,
              headers: {},
            })
            if (outcome.status === 486) latencies.push(performance.now() - t0)
            else failures[outcome.status] = (failures[outcome.status] ?? 0) + 1
          })().catch((err: unknown) => {
            const key = String((err as Error).message).slice(0, 40)
            failures[key] = (failures[key] ?? 0) + 1
          }),
        )
      }
      await Promise.all(pending)
      const elapsed = (performance.now() - started) / 1000
      latencies.sort((a, b) => a - b)
      console.log(
        `    ${String(rate).padStart(3)}/s: ${(latencies.length / elapsed).toFixed(1)}/s completed, p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms${Object.keys(failures).length ? `, failed ${JSON.stringify(failures)}` : ''}  (load ${load()})`,
      )
      if (Object.keys(failures).length || percentile(latencies, 99) > 2000) break
    }
  } finally {
    for (const ua of agents) ua.close()
    await carrier.stop()
    await app.close()
    await database.drop()
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  },
)
