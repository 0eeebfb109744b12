import { execFile, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import WebSocket from 'ws'
import { loadConfig } from '../server/config.ts'
import { pabxDevices, voipAccounts } from '../server/db/schema/index.ts'
import { startServer } from '../server/startup.ts'
import type { CallControl, RouteDecision } from '../server/telephony/types.ts'

// The SIP edge's figures (issue 10): (a) calls/s through Kamailio + rtpengine with digest auth, SIPp (Debian's
// `sip-tester`) as caller and callee, rate raised step by step until calls fail; (b) registered webphones on one
// Kamailio: WebSocket connections as the /ws/sip proxy opens them, each registering with digest, while Kamailio's
// shared memory is read, until registrations fail or BENCH_WEBPHONES is reached. Call control is a double that relays
// every call to the callee's registration: this measures the edge, not Node's routing (bench/telephony.ts does that).
// Ports of its own: SIP 26560, WS 26588, evapi 26548, ng 26523, RTP 44000–45999.

const RATES = (process.env.BENCH_RATES ?? '20,50,100,150,200,300')
  .split(',')
  .map(Number)
  .filter((rate) => rate > 0)
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 8)
const WEBPHONES = Number(process.env.BENCH_WEBPHONES ?? 3000)
const SHM_MB = process.env.BENCH_SHM_MB ?? '256'
const SIP = 26560
const CALLEE_PORT = 26570
const ENV = {
  TELEPHONY: 'embedded',
  SIP_PORT: String(SIP),
  SIP_WS_PORT: '26588',
  EVAPI_PORT: '26548',
  RTPENGINE_NG_PORT: '26523',
  RTP_PORT_MIN: '44000',
  RTP_PORT_MAX: '45999',
  DTMF_LOG_PORT: '26599',
  SIP_SHM_MB: SHM_MB,
  // The generator is one address: trusted load, not a flood to ban.
  SIP_FLOOD_REQUESTS: '100000',
  SIP_TCP_PER_ADDRESS: '100000',
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex')

/** Relays every call to the dialled extension's registration. */
const relayAll: CallControl = {
  async route(request): Promise<RouteDecision> {
    return {
      action: 'relay',
      ruri: `sip:${request.ruri_user}@${request.ruri_domain}`,
      lookup: true,
      dst: null,
      headers: '',
      timeout: 20,
      on_failure: false,
      record: false,
      auth: null,
    }
  },
  async failure(request) {
    return { action: 'reject', code: request.code, reason: request.reason }
  },
  event() {},
}

const UAC = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="atende digest uac">
  <send retrans="500"><![CDATA[
INVITE sip:[service]@localhost SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: <sip:[field0]@localhost>;tag=[pid]SIPpTag00[call_number]
To: <sip:[service]@localhost>
Call-ID: [call_id]
CSeq: 1 INVITE
Contact: <sip:[field0]@[local_ip]:[local_port]>
Max-Forwards: 70
Content-Type: application/sdp
Content-Length: [len]

v=0
o=- 1 1 IN IP[local_ip_type] [local_ip]
s=-
c=IN IP[media_ip_type] [media_ip]
t=0 0
m=audio [media_port] RTP/AVP 0
a=rtpmap:0 PCMU/8000
]]></send>
  <recv response="100" optional="true"/>
  <recv response="407" auth="true"/>
  <send><![CDATA[
ACK sip:[service]@localhost SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: <sip:[field0]@localhost>;tag=[pid]SIPpTag00[call_number]
To: <sip:[service]@localhost>[peer_tag_param]
Call-ID: [call_id]
CSeq: 1 ACK
Max-Forwards: 70
Content-Length: 0
]]></send>
  <send retrans="500"><![CDATA[
INVITE sip:[service]@localhost SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: <sip:[field0]@localhost>;tag=[pid]SIPpTag00[call_number]
To: <sip:[service]@localhost>
Call-ID: [call_id]
CSeq: 2 INVITE
Contact: <sip:[field0]@[local_ip]:[local_port]>
[field1]
Max-Forwards: 70
Content-Type: application/sdp
Content-Length: [len]

v=0
o=- 1 1 IN IP[local_ip_type] [local_ip]
s=-
c=IN IP[media_ip_type] [media_ip]
t=0 0
m=audio [media_port] RTP/AVP 0
a=rtpmap:0 PCMU/8000
]]></send>
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
  <send><![CDATA[
ACK [next_url] SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: <sip:[field0]@localhost>;tag=[pid]SIPpTag00[call_number]
To: <sip:[service]@localhost>[peer_tag_param]
Call-ID: [call_id]
[routes]
CSeq: 2 ACK
Max-Forwards: 70
Content-Length: 0
]]></send>
  <pause milliseconds="1000"/>
  <send retrans="500"><![CDATA[
BYE [next_url] SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: <sip:[field0]@localhost>;tag=[pid]SIPpTag00[call_number]
To: <sip:[service]@localhost>[peer_tag_param]
Call-ID: [call_id]
[routes]
CSeq: 3 BYE
Max-Forwards: 70
Content-Length: 0
]]></send>
  <recv response="200"/>
</scenario>
`

/** The callee: answers at once and keeps Kamailio's Record-Route (SIPp's built-in UAS drops it). */
const UAS = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="atende uas">
  <recv request="INVITE"/>
  <send><![CDATA[
SIP/2.0 200 OK
[last_Via:]
[last_From:]
[last_To:];tag=[pid]SIPpTag01[call_number]
[last_Call-ID:]
[last_CSeq:]
[last_Record-Route:]
Contact: <sip:[local_ip]:[local_port];transport=[transport]>
Content-Type: application/sdp
Content-Length: [len]

v=0
o=- 1 1 IN IP[local_ip_type] [local_ip]
s=-
c=IN IP[media_ip_type] [media_ip]
t=0 0
m=audio [media_port] RTP/AVP 0
a=rtpmap:0 PCMU/8000
]]></send>
  <recv request="ACK"/>
  <recv request="BYE"/>
  <send><![CDATA[
SIP/2.0 200 OK
[last_Via:]
[last_From:]
[last_To:]
[last_Call-ID:]
[last_CSeq:]
Content-Length: 0
]]></send>
</scenario>
`

function sipp(args: string[], timeoutMs: number): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile('sipp', args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stdout })
    })
    void child
  })
}

/** A REGISTER with digest for `user` binding `contact`, over UDP (the callee SIPp has no registrar client). */
async function registerUdp(user: string, password: string, contact: string): Promise<void> {
  const dgram = await import('node:dgram')
  const socket = dgram.createSocket('udp4')
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()))
  const port = socket.address().port
  const callId = randomBytes(6).toString('hex')
  const send = (cseq: number, auth = '') =>
    socket.send(
      [
        'REGISTER sip:localhost SIP/2.0',
        `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
        `From: <sip:${user}@localhost>;tag=${callId}`,
        `To: <sip:${user}@localhost>`,
        `Call-ID: ${callId}`,
        `CSeq: ${cseq} REGISTER`,
        `Contact: <${contact}>;expires=3600`,
        ...(auth ? [auth] : []),
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n'),
      SIP,
      '127.0.0.1',
    )
  const next = () => new Promise<string>((resolve) => socket.once('message', (m) => resolve(m.toString())))
  send(1)
  const challenge = await next()
  const nonce = /nonce="([^"]+)"/.exec(challenge)![1]
  const response = md5(`${md5(`${user}:localhost:${password}`)}:${nonce}:${md5('REGISTER:sip:localhost')}`)
  send(2, `Authorization: Digest username="${user}", realm="localhost", nonce="${nonce}", uri="sip:localhost", response="${response}", algorithm=MD5`)
  const reply = await next()
  socket.close()
  if (!reply.startsWith('SIP/2.0 200')) throw new Error(`callee REGISTER refused: ${reply.split('\r\n')[0]}`)
}

/** One webphone as the proxy connects it: a WebSocket to Kamailio and a REGISTER with digest; resolves its status. */
function webphone(ws: string, user: string, password: string, index: number, sockets: WebSocket[]): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(ws, 'sip', {
      headers: { 'X-Forwarded-For': `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`, 'X-Atende-User': String(index) },
    })
    sockets.push(socket)
    const callId = randomBytes(6).toString('hex')
    const message = (cseq: number, auth = '') =>
      [
        'REGISTER sip:localhost SIP/2.0',
        `Via: SIP/2.0/WS w${index}.invalid;branch=z9hG4bK${randomBytes(6).toString('hex')}`,
        `From: <sip:${user}@localhost>;tag=${callId}`,
        `To: <sip:${user}@localhost>`,
        `Call-ID: ${callId}`,
        `CSeq: ${cseq} REGISTER`,
        `Contact: <sip:w${index}@w${index}.invalid;transport=ws>;expires=300`,
        ...(auth ? [auth] : []),
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n')
    const timer = setTimeout(() => resolve(0), 10_000)
    socket.on('open', () => socket.send(message(1)))
    socket.on('message', (data) => {
      const text = data.toString()
      if (text.startsWith('SIP/2.0 401')) {
        const nonce = /nonce="([^"]+)"/.exec(text)![1]
        const response = md5(`${md5(`${user}:localhost:${password}`)}:${nonce}:${md5('REGISTER:sip:localhost')}`)
        socket.send(
          message(
            2,
            `Authorization: Digest username="${user}", realm="localhost", nonce="${nonce}", uri="sip:localhost", response="${response}", algorithm=MD5`,
          ),
        )
      } else if (/^SIP\/2\.0 [2-6]\d\d/.test(text)) {
        clearTimeout(timer)
        resolve(Number(text.slice(8, 11)))
      }
    })
    socket.on('error', () => {
      clearTimeout(timer)
      resolve(0)
    })
    socket.on('unexpected-response', () => {
      clearTimeout(timer)
      resolve(0)
    })
  })
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-edge-'))
  const config = loadConfig({ ...process.env, ...ENV, DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0', HOST: '127.0.0.1' })
  const { app } = await startServer(config, { telephony: { control: relayAll } })
  try {
    await app.telephony.engines.ready()
    for (let i = 0; i < 200 && !app.telephony.evapi?.connected; i++) await new Promise((r) => setTimeout(r, 50))
    if (!app.telephony.evapi?.connected) throw new Error('evapi not connected: are kamailio and rtpengine installed?')
    const db = app.deps.db
    // No per-device call cap: the bench drives one caller and one callee.
    await db.update(pabxDevices).set({ maxConcurrentCalls: 0 })
    await app.telephony.publisher!.pushAll()
    const accounts = await db.select({ user: voipAccounts.endpoint, password: voipAccounts.password }).from(voipAccounts)
    const caller = accounts.find((a) => a.user === '10001')!
    const callee = accounts.find((a) => a.user === '10002')!
    await registerUdp(callee.user, callee.password, `sip:${callee.user}@127.0.0.1:${CALLEE_PORT}`)
    const dir = mkdtempSync(join(tmpdir(), 'atende-sipp-'))
    writeFileSync(join(dir, 'uac.xml'), UAC)
    writeFileSync(join(dir, 'caller.csv'), `SEQUENTIAL\n${caller.user};[authentication username=${caller.user} password=${caller.password}]\n`)

    console.log(`## (a) calls/s through the edge, digest auth (SIPp; ${STEP_SECONDS} s per step, 1 s calls)`)
    console.log('rate/s | calls | ok | failed | Kamailio shm used')
    // The callee answers every INVITE (SIPp's built-in UAS), killed with the bench.
    writeFileSync(join(dir, 'uas.xml'), UAS)
    const uas = spawn('sipp', ['-sf', join(dir, 'uas.xml'), '-mp', '48000', '-i', '127.0.0.1', '-p', String(CALLEE_PORT), '-nostdin'], { stdio: 'ignore' })
    let best = 0
    for (const rate of RATES) {
      const total = rate * STEP_SECONDS
      const stats = join(dir, `uac-${rate}.csv`)
      await sipp(
        [
          '127.0.0.1:' + SIP,
          '-sf',
          join(dir, 'uac.xml'),
          '-inf',
          join(dir, 'caller.csv'),
          '-s',
          callee.user,
          '-i',
          '127.0.0.1',
          '-p',
          String(26580),
          '-mp',
          '46000',
          '-r',
          String(rate),
          '-m',
          String(total),
          '-l',
          String(rate * 4),
          '-nostdin',
          '-timeout',
          `${STEP_SECONDS + 30}s`,
          '-recv_timeout',
          '10000',
          '-trace_stat',
          '-stf',
          stats,
          '-fd',
          '1',
          '-trace_err',
          '-error_file',
          join(dir, `uac-${rate}.err`),
          ...(process.env.BENCH_KEEP ? ['-trace_msg', '-message_file', join(dir, `uac-${rate}.msg`)] : []),
        ],
        (STEP_SECONDS + 40) * 1000,
      )
      const lines = readFileSync(stats, 'utf8').trim().split('\n')
      const head = lines[0]!.split(';')
      const last = lines.at(-1)!.split(';')
      const col = (name: string) => Number(last[head.indexOf(name)])
      const ok = col('SuccessfulCall(C)')
      const failed = col('FailedCall(C)')
      const load = (await app.telephony.status()).kamailio_load
      console.log(`${rate} | ${total} | ${ok} | ${failed} | ${load ? `${(load.shm_used / 1048576).toFixed(1)} of ${load.shm_total / 1048576} MB` : '-'}`)
      if (failed > 0 || ok < total) break
      best = rate
    }
    console.log(`highest rate without a failed call: ${best} calls/s`)
    if (process.env.BENCH_KEEP) console.log(`SIPp files in ${dir}`)
    uas.kill('SIGKILL')

    console.log(`\n## (b) registered webphones on one Kamailio (SIP_SHM_MB=${SHM_MB}; each its own WebSocket, as /ws/sip opens them)`)
    // One device per webphone, straight into Kamailio's table (the way Node pushes them; no database rows needed).
    const password = 'bench-webphone'
    const users = Array.from({ length: WEBPHONES }, (_, i) => `7${String(i).padStart(6, '0')}`)
    for (let i = 0; i < users.length; i += 25) {
      const entries = users.slice(i, i + 25).map((user) => ({ user, domain: 'localhost', ha1: md5(`${user}:localhost:${password}`), max_calls: 0 }))
      app.telephony.evapi!.send({ cmd: 'creds', reset: false, entries })
    }
    await new Promise((r) => setTimeout(r, 1000))
    const ws = `ws://127.0.0.1:${ENV.SIP_WS_PORT}/`
    const sockets: WebSocket[] = []
    const before = (await app.telephony.status()).kamailio_load
    let registered = 0
    let firstFailure = 0
    for (let i = 0; i < WEBPHONES; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, WEBPHONES - i) }, (_, j) => webphone(ws, users[i + j]!, password, i + j, sockets)))
      registered += batch.filter((status) => status === 200).length
      if (batch.some((status) => status !== 200)) {
        firstFailure = i + batch.findIndex((status) => status !== 200)
        break
      }
    }
    await new Promise((r) => setTimeout(r, 6000))
    const after = (await app.telephony.status()).kamailio_load
    const per = before && after && registered > 0 ? (after.shm_used - before.shm_used) / registered : 0
    console.log(`registered: ${registered}${firstFailure ? `, the first failure at webphone ${firstFailure + 1}` : ' (no failure)'}`)
    if (after)
      console.log(
        `Kamailio shm: ${(after.shm_used / 1048576).toFixed(1)} of ${after.shm_total / 1048576} MB (${Math.round(after.pressure * 100)} %), websockets ${after.websockets}`,
      )
    if (per) console.log(`≈ ${(per / 1024).toFixed(1)} KB of shared memory per registered webphone`)
    for (const socket of sockets) socket.terminate()
  } finally {
    await app.close()
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
