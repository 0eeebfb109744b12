import { randomBytes } from 'node:crypto'
import dgram from 'node:dgram'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { and, eq, sql } from 'drizzle-orm'
import { setChannelLogin } from '../server/agent/channel-service.ts'
import { reportStatus } from '../server/agent/status-service.ts'
import { loadConfig } from '../server/config.ts'
import type { Db } from '../server/db/client.ts'
import { sites, users, voipAccounts } from '../server/db/schema/index.ts'
import { seedRecord } from '../server/seed/seed-record.ts'
import { startServer } from '../server/startup.ts'
import { createCallControl } from '../server/telephony/control/index.ts'
import type { CallControlService } from '../server/telephony/control/index.ts'
import { telephonyPaths } from '../server/telephony/engines/generate.ts'
import { scratchDatabase } from './lib.ts'
import { hv, hvs, md5, parse, statusOf } from './sip-message.ts'
import type { Msg } from './sip-message.ts'

// The telephony figures (QUALITY.md): the real server with Kamailio + rtpengine on loopback ports of their own (apart
// from `npm start`'s and e2e's), on a fresh PostgreSQL database, and raw UDP SIP/RTP clients in this process:
//  (a) INVITE from the trunk's address → a DID → a queue → the agent's UA gets the INVITE / the caller gets 180;
//  (b) 1,000 devices: created, credentials pushed, then REGISTER with digest from 50 loopback addresses;
//  (c) device↔device calls held with G.711 RTP both ways through rtpengine at 10, 25, 50, 100 at once: packet loss
//      and CPU, stopping at the first level over 1 % loss or with the CPU saturated.
// Every loop is bounded (BENCH_CALLS, BENCH_DEVICES, the levels, BENCH_HOLD_SECONDS) and every address is 127.0.0.x.

const CALLS = Number(process.env.BENCH_CALLS ?? 200)
const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000)
const LEVELS = (process.env.BENCH_LEVELS ?? '10,25,50,100').split(',').map(Number)
const HOLD_SECONDS = Number(process.env.BENCH_HOLD_SECONDS ?? 10)
const SIP = 25060
const ENV = {
  TELEPHONY: 'embedded',
  SIP_PORT: String(SIP),
  SIP_WS_PORT: '28088',
  EVAPI_PORT: '28448',
  RTPENGINE_NG_PORT: '22223',
  RTP_PORT_MIN: '42000',
  RTP_PORT_MAX: '43999',
  DTMF_LOG_PORT: '29999',
  // 50 source addresses × 20 devices × 2 requests each stay under pike's limit; raised anyway so a slow start
  // (everything in one 2 s window) does not ban the bench.
  SIP_FLOOD_REQUESTS: '400',
  SIP_AUTH_FAIL_LIMIT: '100000',
}

// ------------------------------------------------------------------------------------------------ SIP messages

const cseqOf = (m: Msg) => hv(m, 'CSeq')
const token = () => randomBytes(6).toString('hex')
const tagOf = (value: string) => /;tag=([^;>\s]+)/.exec(value)?.[1] ?? ''
const uriOf = (value: string) => /<([^>]+)>/.exec(value)?.[1] ?? value.split(';')[0]!

function build(first: string, headers: [string, string | number][], body = '', contentType = 'application/sdp'): string {
  const lines = headers.map(([n, v]) => `${n}: ${v}`)
  if (body) lines.push(`Content-Type: ${contentType}`)
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  return `${first}\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}

function sdp(ip: string, port: number): string {
  return [
    'v=0',
    `o=- ${Date.now()} 1 IN IP4 ${ip}`,
    's=-',
    `c=IN IP4 ${ip}`,
    't=0 0',
    `m=audio ${port} RTP/AVP 0 101`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:101 telephone-event/8000',
    'a=sendrecv',
    '',
  ].join('\r\n')
}

function mediaOf(body: string): { ip: string; port: number } {
  return { ip: /c=IN IP4 (\S+)/.exec(body)?.[1] ?? '127.0.0.1', port: Number(/m=audio (\d+)/.exec(body)?.[1] ?? 0) }
}

/** A SIP endpoint on one loopback address: sends requests, collects responses by Call-ID + CSeq, serves requests. */
class Endpoint {
  private waiters = new Map<string, (m: Msg) => void>()
  onRequest: (m: Msg, reply: (text: string) => void) => void = () => {}
  readonly socket: dgram.Socket
  readonly ip: string
  readonly port: number
  private constructor(socket: dgram.Socket, ip: string, port: number) {
    this.socket = socket
    this.ip = ip
    this.port = port
    socket.on('message', (data, from) => {
      const m = parse(data.toString('latin1'))
      if (m.first.startsWith('SIP/2.0')) this.waiters.get(`${hv(m, 'Call-ID')}|${cseqOf(m)}`)?.(m)
      else this.onRequest(m, (text) => socket.send(text, from.port, from.address))
    })
  }
  static async open(ip: string, port = 0): Promise<Endpoint> {
    const socket = dgram.createSocket('udp4')
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      socket.bind(port, ip, () => resolve())
    })
    return new Endpoint(socket, ip, socket.address().port)
  }
  via() {
    return `SIP/2.0/UDP ${this.ip}:${this.port};branch=z9hG4bK${token()};rport`
  }
  send(text: string) {
    this.socket.send(text, SIP, '127.0.0.1')
  }
  /** Sends and resolves with the first final response (every provisional one goes to `progress`). */
  transact(text: string, progress: (m: Msg) => void = () => {}, timeoutMs = 8000): Promise<Msg> {
    const m = parse(text)
    const key = `${hv(m, 'Call-ID')}|${cseqOf(m)}`
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(key)
        reject(new Error(`no final answer to ${m.first}`))
      }, timeoutMs)
      this.waiters.set(key, (reply) => {
        if (statusOf(reply) < 200) return progress(reply)
        clearTimeout(timer)
        this.waiters.delete(key)
        resolve(reply)
      })
      this.send(text)
    })
  }
  close() {
    this.socket.close()
  }
}

/** A response to `request` (its Via, From, To + tag, Call-ID, CSeq, Record-Route). */
function answer(request: Msg, code: number, reason: string, extra: [string, string | number][] = [], body = ''): string {
  const to = hv(request, 'To')
  const headers: [string, string | number][] = [
    ...hvs(request, 'Via').map((v): [string, string] => ['Via', v]),
    ...hvs(request, 'Record-Route').map((v): [string, string] => ['Record-Route', v]),
    ['From', hv(request, 'From')],
    ['To', code > 100 && !tagOf(to) ? `${to};tag=${tagOf(hv(request, 'Call-ID')) || 'uas'}${code}` : to],
    ['Call-ID', hv(request, 'Call-ID')],
    ['CSeq', cseqOf(request)],
    ...extra,
  ]
  return build(`SIP/2.0 ${code} ${reason}`, headers, body)
}

function digest(challenge: Msg, method: string, uri: string, user: string, password: string): [string, string] {
  const header = hv(challenge, 'WWW-Authenticate') || hv(challenge, 'Proxy-Authenticate')
  const realm = /realm="([^"]+)"/.exec(header)![1]!
  const nonce = /nonce="([^"]+)"/.exec(header)![1]!
  const response = md5(`${md5(`${user}:${realm}:${password}`)}:${nonce}:${md5(`${method}:${uri}`)}`)
  const name = statusOf(challenge) === 407 ? 'Proxy-Authorization' : 'Authorization'
  return [name, `Digest username="${user}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=MD5`]
}

async function register(ep: Endpoint, user: string, password: string): Promise<number> {
  const callId = token()
  const from = `<sip:${user}@localhost>;tag=${token()}`
  const base = (cseq: number): [string, string | number][] => [
    ['Via', ep.via()],
    ['Max-Forwards', 70],
    ['From', from],
    ['To', `<sip:${user}@localhost>`],
    ['Call-ID', callId],
    ['CSeq', `${cseq} REGISTER`],
    ['Contact', `<sip:${user}@${ep.ip}:${ep.port}>;expires=600`],
    ['User-Agent', 'Atende bench'],
  ]
  const challenge = await ep.transact(build('REGISTER sip:localhost SIP/2.0', base(1)))
  if (statusOf(challenge) !== 401) return statusOf(challenge)
  return statusOf(await ep.transact(build('REGISTER sip:localhost SIP/2.0', [...base(2), digest(challenge, 'REGISTER', 'sip:localhost', user, password)])))
}

/** The ACK of a non-2xx final answer (same branch as the INVITE: hop by hop). */
function ackFor(invite: string, final: Msg): string {
  const m = parse(invite)
  return build(m.first.replace(/^INVITE/, 'ACK'), [
    ['Via', hv(m, 'Via')],
    ['Max-Forwards', 70],
    ['From', hv(m, 'From')],
    ['To', hv(final, 'To')],
    ['Call-ID', hv(m, 'Call-ID')],
    ['CSeq', `${cseqOf(m).split(' ')[0]} ACK`],
  ])
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
const ms = (value: number) => `${value.toFixed(1)} ms`

// ------------------------------------------------------------------------------------------------ CPU

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  const idle = cpu[3]! + cpu[4]!
  const total = cpu.reduce((a, b) => a + b, 0)
  return { busy: total - idle, total }
}
const pidOf = (file: string) => Number(readFileSync(file, 'utf8').trim())
/** Kamailio's children are separate processes: every process whose parent is the main one. */
function kamailioPids(main: number): number[] {
  const pids = [main]
  for (const entry of readdirSafe('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (Number(stat.split(') ')[1]!.split(' ')[1]) === main) pids.push(Number(entry))
    } catch {
      // gone
    }
  }
  return pids
}
function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

// ------------------------------------------------------------------------------------------------ the bench

async function main() {
  const database = await scratchDatabase('atende_bench_tel')
  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-tel-'))
  const config = loadConfig({ ...process.env, ...ENV, DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' })
  // The real call control, timed: how much of (a) is Node's decision (its database queries included).
  let control: CallControlService | null = null
  const decisionMs: number[] = []
  const asked = new Map<string, { in: number; out: number }>()
  const timed = async <T>(work: Promise<T>, callId = '', started = performance.now()) => {
    const result = await work
    decisionMs.push(performance.now() - started)
    if (callId && !asked.has(callId)) asked.set(callId, { in: started, out: performance.now() })
    return result
  }
  const { app } = await startServer(config, {
    telephony: {
      control: {
        route: (request) => timed(control!.route(request), request.call_id),
        failure: (request) => timed(control!.failure(request)),
        event: (event) => control?.event(event),
      },
    },
  })
  control = createCallControl({ db: app.deps.db })
  const endpoints: Endpoint[] = []
  try {
    await app.telephony.engines.ready()
    for (let i = 0; i < 200 && !app.telephony.evapi?.connected; i++) await new Promise((r) => setTimeout(r, 50))
    if (!app.telephony.evapi?.connected) throw new Error('evapi not connected: are kamailio and rtpengine installed?')
    const db = app.deps.db as Db
    const [site] = await db.select().from(sites).where(eq(sites.domain, 'localhost'))
    const ctx = { db, site: site!, userId: null, lang: 'pt-BR' as const, mediaDir: '' }
    const [agent] = await db
      .select()
      .from(users)
      .where(and(eq(users.siteId, site!.id), eq(users.username, 'agent1')))
    const [account] = await db.select().from(voipAccounts).where(eq(voipAccounts.userId, agent!.id))

    // ---- (a) INVITE → agent ringing through a queue
    const trunkEp = await Endpoint.open('127.0.0.2')
    const agentEp = await Endpoint.open('127.0.0.3')
    endpoints.push(trunkEp, agentEp)
    const trunk = await seedRecord(ctx, 'pabx.trunks', { description: 'Bench trunk', host: '127.0.0.2', port: trunkEp.port, transport: 'udp' })
    const queue = await seedRecord(ctx, 'pabx.queues', {
      description: 'Bench queue',
      strategy: 'linear',
      queue_type: 'inbound',
      members: [{ user: agent!.id, penalty: 0 }],
      ring_time: 15,
      max_wait_time: 0,
    })
    const inbound = await seedRecord(ctx, 'pabx.inbound-routes', { description: 'Bench in', destination: { app: 'queue', appdata: queue }, record: false })
    await seedRecord(ctx, 'pabx.numbers', { number: '551150000000', description: 'Bench DID', trunk, inbound_route: inbound })
    await reportStatus(app.deps, { siteId: site!.id, userId: agent!.id }, 'telephony', 'not_inuse')
    await setChannelLogin(app.deps, agent!, 'telephony', true, 'user')
    await app.telephony.publisher!.pushAll()
    if ((await register(agentEp, account!.endpoint, account!.password)) !== 200) throw new Error('agent REGISTER refused')
    await new Promise((r) => setTimeout(r, 300))

    const agentGot = new Map<string, () => void>()
    agentEp.onRequest = (m, reply) => {
      if (m.first.startsWith('INVITE ')) {
        agentGot.get(hv(m, 'Call-ID'))?.()
        reply(answer(m, 180, 'Ringing'))
        // A moment later, so that Kamailio's two UDP workers cannot take the 486 before the 180 (a 180 after the final
        // answer is not forwarded, and the caller would never hear it ring).
        setTimeout(() => reply(answer(m, 486, 'Busy Here')), 30)
      } else if (!m.first.startsWith('ACK ')) reply(answer(m, 200, 'OK'))
    }
    decisionMs.length = 0
    const segments: [number, number, number][] = []
    const toAgent: number[] = []
    const to180: number[] = []
    const unanswered: string[] = []
    for (let i = 0; i < CALLS; i++) {
      if (process.env.BENCH_GAP_MS) await new Promise((r) => setTimeout(r, Number(process.env.BENCH_GAP_MS)))
      const callId = token()
      const ruri = `sip:551150000000@127.0.0.1:${SIP}`
      const invite = build(
        `INVITE ${ruri} SIP/2.0`,
        [
          ['Via', trunkEp.via()],
          ['Max-Forwards', 70],
          ['From', `<sip:11987650000@127.0.0.2>;tag=${token()}`],
          ['To', `<sip:551150000000@127.0.0.1>`],
          ['Call-ID', callId],
          ['CSeq', '1 INVITE'],
          ['Contact', `<sip:11987650000@127.0.0.2:${trunkEp.port}>`],
        ],
        sdp('127.0.0.2', 50000 + 2 * (i % 500)),
      )
      const t0 = performance.now()
      const atAgent = new Promise<number>((resolve) => agentGot.set(callId, () => resolve(performance.now() - t0)))
      let ringing = -1
      const final = await trunkEp.transact(invite, (m) => {
        if (statusOf(m) === 180 && ringing < 0) ringing = performance.now() - t0
      })
      trunkEp.send(ackFor(invite, final))
      const agentMs = await Promise.race([atAgent, new Promise<number>((r) => setTimeout(() => r(-1), 1000))])
      agentGot.delete(callId)
      const seen = asked.get(callId)
      if (seen && agentMs >= 0) segments.push([seen.in - t0, seen.out - seen.in, agentMs - (seen.out - t0)])
      if (agentMs < 0 || ringing < 0) {
        await new Promise((r) => setTimeout(r, 200))
        const rows = await db.execute(sql`select step, kind, dial_status, user_id from call_records where call_id = ${callId} order by step`)
        unanswered.push(`#${i}: ${final.first.slice(8)} ${JSON.stringify((rows as unknown as { rows: unknown[] }).rows)}`)
      } else {
        toAgent.push(agentMs)
        to180.push(ringing)
      }
    }
    toAgent.sort((a, b) => a - b)
    to180.sort((a, b) => a - b)
    console.log(`(a) INVITE → agent's UA through a queue, ${toAgent.length} calls: p50 ${ms(percentile(toAgent, 50))}, p99 ${ms(percentile(toAgent, 99))}`)
    console.log(
      `    INVITE → 180 back at the caller              : p50 ${ms(percentile(to180, 50))}, p99 ${ms(percentile(to180, 99))}${unanswered.length ? ` (never rang: ${unanswered.join(', ')})` : ''}`,
    )
    const routeMs = decisionMs.filter((_, i) => i % 2 === 0).sort((a, b) => a - b)
    console.log(
      `    of which call control's decision (Node + PostgreSQL), the route question: p50 ${ms(percentile(routeMs, 50))}, p99 ${ms(percentile(routeMs, 99))}`,
    )
    const part = (i: number) =>
      ms(
        percentile(
          segments.map((x) => x[i]!).sort((a, b) => a - b),
          50,
        ),
      )
    console.log(`    p50 per segment: INVITE → Node asked ${part(0)}, Node deciding ${part(1)}, decision → agent's INVITE ${part(2)}`)

    // ---- (b) 1,000 devices registering
    let t = performance.now()
    const secrets: string[] = []
    for (let i = 0; i < DEVICES; i++) {
      secrets.push(`bench${token()}`)
      await seedRecord(ctx, 'pabx.devices', { description: `Bench ${i}`, username: String(20000 + i), secret: secrets[i] })
    }
    const created = performance.now() - t
    // Pushed: every device's credentials are in Kamailio once the last one created registers (polled from an address
    // of its own; SIP_AUTH_FAIL_LIMIT is raised for the bench so the polling is not banned).
    t = performance.now()
    await app.telephony.publisher!.pushAll()
    const probe = await Endpoint.open('127.0.0.4')
    endpoints.push(probe)
    for (let i = 0; i < 200 && (await register(probe, String(20000 + DEVICES - 1), secrets[DEVICES - 1]!).catch(() => 0)) !== 200; i++) {
      await new Promise((r) => setTimeout(r, 10))
    }
    const pushed = performance.now() - t
    const sources = await Promise.all(Array.from({ length: 50 }, (_, i) => Endpoint.open(`127.0.0.${100 + i}`)))
    endpoints.push(...sources)
    const latencies: number[] = []
    const refused: Record<string, number> = {}
    t = performance.now()
    await Promise.all(
      sources.map(async (ep, s) => {
        for (let i = s; i < DEVICES; i += sources.length) {
          const started = performance.now()
          const code = await register(ep, String(20000 + i), secrets[i]!).catch(() => 0)
          if (code === 200) latencies.push(performance.now() - started)
          else refused[code] = (refused[code] ?? 0) + 1
        }
      }),
    )
    const registered = performance.now() - t
    latencies.sort((a, b) => a - b)
    console.log(
      `(b) ${DEVICES} devices: created in ${(created / 1000).toFixed(1)} s, credentials pushed and usable in ${ms(pushed)}, registered in ${(registered / 1000).toFixed(2)} s from 50 addresses (${((latencies.length / registered) * 1000).toFixed(0)} REGISTER/s; challenge + answer p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))})${Object.keys(refused).length ? `; not registered (code: count, 0 = no answer): ${JSON.stringify(refused)}` : ''}`,
    )

    // ---- (c) concurrent calls with RTP both ways through rtpengine
    const paths = telephonyPaths(config.telephony)
    const rtpenginePid = pidOf(paths.rtpenginePid)
    const kamailioMain = pidOf(paths.kamailioPid)
    const epOf = (device: number) => sources[device % sources.length]!
    type Leg = { socket: dgram.Socket; peer: { ip: string; port: number } | null; sent: number; received: number; seq: number; ts: number; ssrc: number }
    const openLeg = async (ip: string): Promise<Leg> => {
      const socket = dgram.createSocket('udp4')
      await new Promise<void>((resolve) => socket.bind(0, ip, () => resolve()))
      const leg: Leg = { socket, peer: null, sent: 0, received: 0, seq: 0, ts: 0, ssrc: randomBytes(4).readUInt32BE() }
      socket.on('message', () => leg.received++)
      return leg
    }
    // The callee side: every device answers on the endpoint it registered from.
    const calleeLegs = new Map<string, Leg>()
    for (const ep of sources) {
      ep.onRequest = (m, reply) => {
        const method = m.first.split(' ')[0]
        if (method === 'INVITE') {
          const leg = calleeLegs.get(hv(m, 'Call-ID'))
          if (!leg) return reply(answer(m, 480, 'Unknown'))
          leg.peer = mediaOf(m.body)
          const user = /sip:(\d+)@/.exec(m.first)?.[1] ?? 'x'
          reply(answer(m, 180, 'Ringing'))
          reply(answer(m, 200, 'OK', [['Contact', `<sip:${user}@${ep.ip}:${ep.port}>`]], sdp(ep.ip, (leg.socket.address() as { port: number }).port)))
        } else if (method !== 'ACK') reply(answer(m, 200, 'OK'))
      }
    }
    type Call = { caller: Leg; callee: Leg; bye: () => Promise<void> }
    async function placeCall(k: number): Promise<Call> {
      const from = 20000 + 2 * k
      const to = from + 1
      const ep = epOf(2 * k)
      const caller = await openLeg(ep.ip)
      const callee = await openLeg(epOf(2 * k + 1).ip)
      const callId = token()
      calleeLegs.set(callId, callee)
      const fromHdr = `<sip:${from}@localhost>;tag=${token()}`
      const ruri = `sip:${to}@localhost`
      const body = sdp(ep.ip, (caller.socket.address() as { port: number }).port)
      const invite = (cseq: number, auth?: [string, string]) =>
        build(
          `INVITE ${ruri} SIP/2.0`,
          [
            ['Via', ep.via()],
            ['Max-Forwards', 70],
            ['From', fromHdr],
            ['To', `<${ruri}>`],
            ['Call-ID', callId],
            ['CSeq', `${cseq} INVITE`],
            ['Contact', `<sip:${from}@${ep.ip}:${ep.port}>`],
            ...(auth ? [auth] : []),
          ],
          body,
        )
      const first = invite(1)
      const challenge = await ep.transact(first)
      ep.send(ackFor(first, challenge))
      const second = invite(2, digest(challenge, 'INVITE', ruri, String(from), secrets[from - 20000]!))
      const ok = await ep.transact(second)
      if (statusOf(ok) !== 200) throw new Error(`call ${k}: ${ok.first}`)
      caller.peer = mediaOf(ok.body)
      const routes = hvs(ok, 'Record-Route').reverse()
      const target = uriOf(hv(ok, 'Contact'))
      const inDialog = (method: string, cseq: number): [string, string | number][] => [
        ['Via', ep.via()],
        ['Max-Forwards', 70],
        ...routes.map((r): [string, string] => ['Route', r]),
        ['From', fromHdr],
        ['To', hv(ok, 'To')],
        ['Call-ID', callId],
        ['CSeq', `${cseq} ${method}`],
      ]
      ep.send(build(`ACK ${target} SIP/2.0`, inDialog('ACK', 2)))
      return {
        caller,
        callee,
        async bye() {
          await ep.transact(build(`BYE ${target} SIP/2.0`, inDialog('BYE', 3))).catch(() => undefined)
          calleeLegs.delete(callId)
          caller.socket.close()
          callee.socket.close()
        },
      }
    }
    const payload = Buffer.alloc(160, 0xff)
    function sendFrame(leg: Leg) {
      if (!leg.peer) return
      const header = Buffer.alloc(12)
      header[0] = 0x80
      header[1] = 0
      header.writeUInt16BE(leg.seq++ & 0xffff, 2)
      header.writeUInt32BE((leg.ts += 160) >>> 0, 4)
      header.writeUInt32BE(leg.ssrc, 8)
      leg.sent++
      leg.socket.send(Buffer.concat([header, payload]), leg.peer.port, leg.peer.ip)
    }
    for (const level of LEVELS) {
      const calls: Call[] = []
      t = performance.now()
      for (let k = 0; k < level; k += 5) calls.push(...(await Promise.all(Array.from({ length: Math.min(5, level - k) }, (_, j) => placeCall(k + j)))))
      const setup = performance.now() - t
      // Media: every leg sends one 20 ms PCMU frame per tick for HOLD_SECONDS; then a second for the tail to arrive.
      const legs = calls.flatMap((c) => [c.caller, c.callee])
      const cpu0 = {
        rtp: cpuTicks(rtpenginePid),
        kam: kamailioPids(kamailioMain).reduce((a, p) => a + cpuTicks(p), 0),
        node: process.cpuUsage(),
        machine: machineTicks(),
        at: performance.now(),
      }
      const start = performance.now()
      let ticks = 0
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          // Catch up on late timer ticks so each leg sends 50 frames a second.
          const due = Math.floor((performance.now() - start) / 20)
          while (ticks < due && ticks < HOLD_SECONDS * 50) {
            for (const leg of legs) sendFrame(leg)
            ticks++
          }
          if (ticks >= HOLD_SECONDS * 50) {
            clearInterval(timer)
            resolve()
          }
        }, 5)
      })
      await new Promise((r) => setTimeout(r, 1000))
      const seconds = (performance.now() - cpu0.at) / 1000
      const hz = 100
      const rtpCpu = (cpuTicks(rtpenginePid) - cpu0.rtp) / hz / seconds
      const kamCpu = (kamailioPids(kamailioMain).reduce((a, p) => a + cpuTicks(p), 0) - cpu0.kam) / hz / seconds
      const nodeUsage = process.cpuUsage(cpu0.node)
      const nodeCpu = (nodeUsage.user + nodeUsage.system) / 1e6 / seconds
      const machine = machineTicks()
      const machineBusy = (machine.busy - cpu0.machine.busy) / (machine.total - cpu0.machine.total)
      const sent = calls.reduce((a, c) => a + c.caller.sent + c.callee.sent, 0)
      const received = calls.reduce((a, c) => a + c.caller.received + c.callee.received, 0)
      const loss = 1 - received / sent
      console.log(
        `(c) ${String(level).padStart(3)} calls: set up in ${(setup / 1000).toFixed(2)} s; ${sent} RTP packets sent, loss ${(loss * 100).toFixed(2)} %; CPU rtpengine ${(rtpCpu * 100).toFixed(0)} %, kamailio ${(kamCpu * 100).toFixed(0)} %, this process (server + generator) ${(nodeCpu * 100).toFixed(0)} % of one core; machine ${(machineBusy * 100).toFixed(0)} % busy`,
      )
      for (const call of calls) await call.bye()
      // Saturated: the engines and this process together use over 90 % of the machine's cores (the machine's own
      // figure includes whatever else runs on it).
      const ours = (rtpCpu + kamCpu + nodeCpu) / cpus().length
      if (loss > 0.01 || ours > 0.9) {
        console.log(`    stopped: ${loss > 0.01 ? 'loss over 1 %' : 'CPU saturated'} at ${level} calls`)
        break
      }
    }
    // The last BYEs' events reach call control after their answers: let them be written before the database closes.
    await new Promise((r) => setTimeout(r, 1500))
  } finally {
    for (const ep of endpoints) ep.close()
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
    await database.drop()
  }
}

await main()
