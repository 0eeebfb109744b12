import { execFileSync, spawn } from 'node:child_process'
import dgram from 'node:dgram'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { loadConfig } from '../server/config.ts'
import type { Db } from '../server/db/client.ts'
import { pabxIvrs, pabxIvrsOptions, pabxMoh, pabxMohEntries, pabxQueues, pabxSounds, pabxSoundsEntries, sites } from '../server/db/schema/index.ts'
import { saveMedia } from '../server/entities/media-store.ts'
import type { MediaKind } from '../server/entities/media-store.ts'
import { tablesOf } from '../server/entities/tables.ts'
import { seedRecord } from '../server/seed/seed-record.ts'
import { startServer } from '../server/startup.ts'
import { scratchDatabase } from './lib.ts'

// The media app's figures (issue 16): callers parked in a queue with music and periodic announcements, SIPp (Debian
// `sip-tester`) placing the calls through Kamailio from the trunk's address; each call's SDP points its audio at a
// socket of this process (127.0.0.5, a port per call from SIPp's injection file) that counts what rtpengine plays to
// it: packets lost (RTP sequence gaps) and interarrival jitter (RFC 3550). CPU of rtpengine and of the media app
// from /proc while the callers wait. Then the IVR: this process sends the key (RFC 2833 from the call's own media
// socket) and times key → the first packet of the next prompt (a different tone), p50/p99.
// Levels BENCH_LEVELS (100,200,300), callers arriving at BENCH_RATE (10) calls/s, held BENCH_HOLD_SECONDS (10) each
// once all are in. Ports of its own (SIP 26060, RTP 44000–47999). On a shared 2-core machine the figures are an upper
// bound of the cost: say how loaded the machine was.
//
// The arrival rate is not the figure measured (how many callers can wait is): each arriving call costs a routing
// decision (database transactions) and the media app's answer, and at 50 calls/s on a loaded machine call control's
// decisions passed Kamailio's 5 s deadline (`evapi: no routing decision`), every later call queued behind them and was
// refused 503 — "300 callers, none parked". 10 calls/s brings 300 callers in within 30 s.

const LEVELS = (process.env.BENCH_LEVELS ?? '100,200,300').split(',').map(Number)
const HOLD_SECONDS = Number(process.env.BENCH_HOLD_SECONDS ?? 10)
const IVR_CALLS = Number(process.env.BENCH_IVR_CALLS ?? 30)
const RATE = Number(process.env.BENCH_RATE ?? 10)
const SIP = 26060
const TRUNK_PORT = 26090
const MEDIA_IP = '127.0.0.5'
const ENV = {
  TELEPHONY: 'embedded',
  SIP_PORT: String(SIP),
  SIP_WS_PORT: '28188',
  EVAPI_PORT: '28548',
  RTPENGINE_NG_PORT: '22323',
  RTP_PORT_MIN: '44000',
  RTP_PORT_MAX: '47999',
  DTMF_LOG_PORT: '29899',
  MEDIA_SIP_PORT: '26070',
  MEDIA_CONTROL_PORT: '28549',
  SIP_FLOOD_REQUESTS: '100000',
}
const WAV: MediaKind = { mime: 'audio/wav', ext: 'wav', maxBytes: 20 * 1024 * 1024, matches: () => true }

function toneWav(dir: string, name: string, hz: number, seconds: number): string {
  const file = join(dir, `${name}.wav`)
  execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', file, 'synth', String(seconds), 'sine', String(hz), 'vol', '0.5'])
  return file
}

/** μ-law → linear, for the tone check of the IVR latency. */
function ulaw(byte: number): number {
  const u = ~byte & 0xff
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4)
  return u & 0x80 ? 0x84 - t : t - 0x84
}
function crossings(payload: Buffer): number {
  let n = 0
  for (let i = 1; i < payload.length; i++) if (ulaw(payload[i - 1]!) < 0 !== ulaw(payload[i]!) < 0) n++
  return n
}

/** One caller's media socket: counts rtpengine's packets, loss by sequence, RFC 3550 jitter. */
class MediaSink {
  received = 0
  lost = 0
  jitter = 0
  private lastSeq = -1
  private lastTransit = 0
  from: { address: string; port: number } | null = null
  onPacket: ((payload: Buffer, at: number) => void) | null = null
  readonly socket: dgram.Socket
  constructor(socket: dgram.Socket) {
    this.socket = socket
    socket.on('message', (packet, from) => {
      if (packet.length < 12 || (packet[0]! & 0xc0) !== 0x80) return
      this.from = { address: from.address, port: from.port }
      const seq = packet.readUInt16BE(2)
      const ts = packet.readUInt32BE(4)
      const now = performance.now()
      if (this.lastSeq >= 0) {
        const gap = (seq - this.lastSeq + 65536) % 65536
        if (gap > 1 && gap < 1000) this.lost += gap - 1
        const transit = now * 8 - ts
        const d = Math.abs(transit - this.lastTransit)
        this.jitter += (d - this.jitter) / 16
        this.lastTransit = transit
      } else this.lastTransit = now * 8 - ts
      this.lastSeq = seq
      this.received++
      this.onPacket?.(packet.subarray(12), now)
    })
  }
  reset() {
    this.received = 0
    this.lost = 0
  }
  static async open(port: number): Promise<MediaSink> {
    const socket = dgram.createSocket('udp4')
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      socket.bind(port, MEDIA_IP, () => resolve())
    })
    return new MediaSink(socket)
  }
}

/** SIPp's caller: INVITE the DID, ACK, wait `pause` ms, BYE. The SDP's port is the injection file's field. */
function scenario(pauseMs: number): string {
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="parked caller">
  <send retrans="500"><![CDATA[
INVITE sip:[service]@127.0.0.1:${SIP} SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: <sip:bench@[local_ip]:[local_port]>;tag=[call_number]
To: <sip:[service]@127.0.0.1:${SIP}>
Call-ID: [call_id]
CSeq: 1 INVITE
Contact: <sip:bench@[local_ip]:[local_port]>
Max-Forwards: 70
Content-Type: application/sdp
Content-Length: [len]

v=0
o=- 1 1 IN IP4 ${MEDIA_IP}
s=-
c=IN IP4 ${MEDIA_IP}
t=0 0
m=audio [field0] RTP/AVP 0 101
a=rtpmap:0 PCMU/8000
a=rtpmap:101 telephone-event/8000
a=sendrecv
]]></send>
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="183" optional="true"/>
  <recv response="200" rrs="true"/>
  <send><![CDATA[
ACK [next_url] SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
[routes]
From: <sip:bench@[local_ip]:[local_port]>;tag=[call_number]
[last_To:]
Call-ID: [call_id]
CSeq: 1 ACK
Max-Forwards: 70
Content-Length: 0
]]></send>
  <pause milliseconds="${pauseMs}"/>
  <send retrans="500"><![CDATA[
BYE [next_url] SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
[routes]
From: <sip:bench@[local_ip]:[local_port]>;tag=[call_number]
[last_To:]
Call-ID: [call_id]
CSeq: 2 BYE
Max-Forwards: 70
Content-Length: 0
]]></send>
  <recv response="200" crlf="true"/>
</scenario>
`
}

const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(f[11]) + Number(f[12])
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN

async function main() {
  const database = await scratchDatabase('atende_bench_media')
  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-media-'))
  const config = loadConfig({ ...process.env, ...ENV, DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', PORT: '0', HOST: '127.0.0.1' })
  const { app } = await startServer(config, {})
  const sipps: ReturnType<typeof spawn>[] = []
  try {
    await app.telephony.engines.ready()
    for (let i = 0; i < 400 && !(app.media?.connected && app.telephony.evapi?.connected); i++) await new Promise((r) => setTimeout(r, 50))
    if (!app.media?.connected) throw new Error('the media app did not start: are kamailio and rtpengine installed?')
    const db = app.deps.db as Db
    const [site] = await db.select().from(sites).where(eq(sites.domain, 'localhost'))
    const siteId = site!.id
    const ctx = { db, site: site!, userId: null, lang: 'pt-BR' as const, mediaDir: config.mediaDir }
    const store = (entity: 'pabx.sounds-entries' | 'pabx.moh-entries', file: string) => {
      const plan = tablesOf(entity).plan.fields.find((f) => f.kind === 'file' && f.field.name === 'file')
      return saveMedia(config.mediaDir, plan?.kind === 'file' ? plan.dir : '', readFileSync(file), WAV)
    }
    const [moh] = await db.insert(pabxMoh).values({ siteId, description: 'Bench music' }).returning()
    await db.insert(pabxMohEntries).values({ siteId, mohId: moh!.id, description: '660', file: await store('pabx.moh-entries', toneWav(dataDir, 'moh', 660, 5)), order: 0 })
    const [folder] = await db.insert(pabxSounds).values({ siteId, description: 'Bench', language: 'pt-BR' }).returning()
    const sound = async (description: string, hz: number, seconds: number) =>
      (await db.insert(pabxSoundsEntries).values({ siteId, soundId: folder!.id, description, file: await store('pabx.sounds-entries', toneWav(dataDir, description, hz, seconds)) }).returning())[0]!.id
    const periodic = await sound('periodic', 440, 1)
    const greeting = await sound('greeting', 880, 8)
    const trunk = await seedRecord(ctx, 'pabx.trunks', { description: 'Bench trunk', host: '127.0.0.1', port: TRUNK_PORT, transport: 'udp', codecs: ['PCMU'] })
    const queue = await seedRecord(ctx, 'pabx.queues', { description: 'Bench queue', strategy: 'linear', queue_type: 'inbound', ring_time: 15, max_wait_time: 0 })
    // Music with an announcement every 3 s (below the form's minimum, so the bench hears several).
    await db.update(pabxQueues).set({ mohId: moh!.id, periodicAnnounceId: periodic, periodicAnnounceFrequency: 3 }).where(eq(pabxQueues.id, queue))
    const [ivr] = await db.insert(pabxIvrs).values({ siteId, description: 'Bench IVR', greetingId: greeting, timeout: 10, repeatCount: 1 }).returning()
    await db.insert(pabxIvrsOptions).values({ siteId, ivrId: ivr!.id, position: 0, digit: '2', destinationApp: 'queue', destinationAppdata: String(queue) })
    const inQueue = await seedRecord(ctx, 'pabx.inbound-routes', { description: 'Bench queue', destination: { app: 'queue', appdata: queue }, record: false })
    const inIvr = await seedRecord(ctx, 'pabx.inbound-routes', { description: 'Bench IVR', destination: { app: 'ivrbasic', appdata: ivr!.id }, record: false })
    await seedRecord(ctx, 'pabx.numbers', { number: '551160000000', description: 'Bench queue', trunk, inbound_route: inQueue })
    await seedRecord(ctx, 'pabx.numbers', { number: '551160000001', description: 'Bench IVR', trunk, inbound_route: inIvr })
    await app.telephony.publisher!.pushAll()
    await new Promise((r) => setTimeout(r, 500))

    const engines = app.telephony.engines.supervisors
    const pidOf = (name: 'rtpengine' | 'mediaapp') => (engines as Record<string, { status: { pid: number | null } } | null | undefined>)[name]?.status.pid ?? 0
    const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
    console.log(`media bench: ${LEVELS.join(', ')} parked callers arriving at ${RATE}/s, ${HOLD_SECONDS} s each; machine load ${load()} (2 cores, shared)`)

    let portBase = 30000
    const run = async (calls: number, did: string, holdMs: number, each: (sinks: MediaSink[]) => Promise<void>) => {
      const sinks = await Promise.all(Array.from({ length: calls }, (_, i) => MediaSink.open(portBase + i * 2)))
      const dir = mkdtempSync(join(tmpdir(), 'atende-bench-sipp-'))
      writeFileSync(join(dir, 'ports.csv'), `SEQUENTIAL\n${sinks.map((s) => `${s.socket.address().port};`).join('\n')}\n`)
      writeFileSync(join(dir, 'uac.xml'), scenario(holdMs))
      portBase += calls * 2 + 10
      const sipp = spawn('sipp', ['127.0.0.1:' + SIP, '-sf', join(dir, 'uac.xml'), '-inf', join(dir, 'ports.csv'), '-s', did, '-i', '127.0.0.1', '-p', String(TRUNK_PORT), '-m', String(calls), '-l', String(calls), '-r', String(RATE), '-nostdin', '-trace_err'], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      sipps.push(sipp)
      let errors = ''
      sipp.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
      const exited = new Promise<void>((resolve) =>
        sipp.once('exit', (code) => {
          // In the foreground (not `-bg`, whose parent exits at once and left the next run's SIPp finding the trunk port
          // taken): 0 every call succeeded, 1 some failed; anything else, it could not run.
          if (code !== null && code > 1) console.log(`  SIPp exited ${code}: ${errors.trim().slice(0, 500)}`)
          resolve()
        }),
      )
      try {
        await each(sinks)
      } finally {
        // SIPp hangs its calls up itself (BYE after the pause) and must be gone before the next one binds the trunk port.
        const killer = setTimeout(() => sipp.kill('SIGKILL'), holdMs + 15_000)
        await exited
        clearTimeout(killer)
        for (const s of sinks) s.socket.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }

    for (const level of LEVELS) {
      // The first caller stays until the last is in (level / RATE s, and a margin) and the window is over.
      await run(level, '551160000000', (HOLD_SECONDS + 20 + level / RATE) * 1000, async (sinks) => {
        // Every caller answered and hearing the music, then a clean window.
        const deadline = Date.now() + 15_000 + (level / RATE) * 1000
        while (Date.now() < deadline && sinks.some((s) => s.received < 10)) await new Promise((r) => setTimeout(r, 200))
        const parked = sinks.filter((s) => s.received >= 10).length
        for (const s of sinks) s.reset()
        const rtp = pidOf('rtpengine')
        const media = pidOf('mediaapp')
        const [r0, m0, n0, t0] = [rtp ? ticks(rtp) : 0, media ? ticks(media) : 0, ticks(process.pid), performance.now()]
        await new Promise((r) => setTimeout(r, HOLD_SECONDS * 1000))
        const seconds = (performance.now() - t0) / 1000
        const cpu = (pid: number, before: number) => (pid ? `${(((ticks(pid) - before) / 100 / seconds) * 100).toFixed(1)} %` : 'n/a')
        const received = sinks.reduce((n, s) => n + s.received, 0)
        const lost = sinks.reduce((n, s) => n + s.lost, 0)
        const jitters = sinks.map((s) => s.jitter / 8).sort((a, b) => a - b)
        console.log(
          `  ${level} callers: ${parked} parked with music${parked < level ? ` (${level - parked} not)` : ''}; RTP ${received} packets (${(received / Math.max(1, parked) / seconds).toFixed(1)} pps per caller), ` +
            `lost ${lost} (${((lost / Math.max(1, received + lost)) * 100).toFixed(3)} %), jitter p50 ${pct(jitters, 50).toFixed(2)} ms p99 ${pct(jitters, 99).toFixed(2)} ms; ` +
            `CPU rtpengine ${cpu(rtp, r0)}, media app ${cpu(media, m0)}, server+bench ${cpu(process.pid, n0)}; load ${load()}`,
        )
      })
    }

    // IVR: the key (RFC 2833 '2' from the call's own media socket) → the first packet of the queue's music (660 Hz,
    // after the 880 Hz greeting).
    const latencies: number[] = []
    let greeted = 0
    await run(IVR_CALLS, '551160000001', 15_000, async (sinks) => {
      await Promise.all(
        sinks.map(async (sink, i) => {
          await new Promise((r) => setTimeout(r, i * 100))
          const deadline = Date.now() + 20_000
          while (Date.now() < deadline && sink.received < 25) await new Promise((r) => setTimeout(r, 50))
          if (!sink.from) return
          greeted++
          const to = sink.from
          // A phone sends its audio all along (silence here), and the key on the same stream: the same SSRC, sequence
          // and clock (rtpengine may ignore events of a stream it never saw).
          const ssrc = 0x1234 + i
          let seq = 1
          let clock = 0
          const rtp = (pt: number, payload: Buffer, marker = false) => {
            const packet = Buffer.alloc(12 + payload.length)
            packet[0] = 0x80
            packet[1] = (marker ? 0x80 : 0) | pt
            packet.writeUInt16BE(seq++ & 0xffff, 2)
            packet.writeUInt32BE(clock >>> 0, 4)
            packet.writeUInt32BE(ssrc, 8)
            payload.copy(packet, 12)
            sink.socket.send(packet, to.port, to.address)
          }
          const silence = Buffer.alloc(160, 0xff)
          let speaking = true
          const talk = (async () => {
            while (speaking) {
              rtp(0, silence)
              clock += 160
              await new Promise((r) => setTimeout(r, 20))
            }
          })()
          await new Promise((r) => setTimeout(r, 500))
          let pressed = 0
          const heardMusic = new Promise<number>((resolve) => {
            sink.onPacket = (payload, at) => {
              const c = crossings(payload)
              if (pressed && c >= 22 && c <= 31) resolve(at)
            }
            setTimeout(() => resolve(0), 10_000)
          })
          speaking = false
          await talk
          pressed = performance.now()
          const start = clock
          for (let n = 0; n < 6; n++) {
            const event = Buffer.alloc(4)
            event[0] = 2
            event[1] = n >= 3 ? 0x80 | 10 : 10
            event.writeUInt16BE(160 * (n + 1), 2)
            clock = start
            rtp(101, event, n === 0)
            await new Promise((r) => setTimeout(r, 20))
          }
          clock = start + 160 * 6
          speaking = true
          const after = (async () => {
            while (speaking) {
              rtp(0, silence)
              clock += 160
              await new Promise((r) => setTimeout(r, 20))
            }
          })()
          const at = await heardMusic
          speaking = false
          await after
          if (at) latencies.push(at - pressed)
        }),
      )
    })
    latencies.sort((a, b) => a - b)
    console.log(`  IVR key → next prompt: ${latencies.length}/${IVR_CALLS} calls (${greeted} heard the greeting), p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms`)
  } finally {
    for (const sipp of sipps) sipp.kill('SIGKILL')
    await app.close()
    await database.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
