import { spawn, execFileSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import dgram from 'node:dgram'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import type { Config } from '../../../server/config.ts'
import { pabxDevices, voipAccounts } from '../../../server/db/schema/index.ts'
import { seedDemoIfEmpty } from '../../../server/seed/demo-seed.ts'
import { INSTALL_HINT } from '../../../server/telephony/engines/index.ts'
import { resolveBinary } from '../../../server/telephony/engines/supervisor.ts'
import type { CallControl, CallEvent, FailureRequest, RegistrationEvent, RouteDecision, RouteRequest } from '../../../server/telephony/types.ts'
import { createTestBus, createTestThrottle, openTestDatabase } from '../helper.ts'
import type { TestDatabase } from '../helper.ts'

// A real telephony stack for one test file: the app with TELEPHONY=embedded on free ports (Kamailio + rtpengine
// spawned by the server's own supervisor), the demo data, a test-double CallControl that routes internal extensions,
// and baresip user agents. Missing engines fail the test with the install hint: nothing is skipped.

export async function requireEngines(): Promise<void> {
  const missing: string[] = []
  for (const bin of ['kamailio', 'rtpengine', 'baresip']) if (!(await resolveBinary(bin))) missing.push(bin)
  if (missing.length) throw new Error(`${missing.join(', ')} missing. Install: ${INSTALL_HINT} baresip (bin/setup --test does)`)
}

async function portFree(port: number): Promise<boolean> {
  const tcp = await new Promise<boolean>((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
  if (!tcp) return false
  return new Promise<boolean>((resolve) => {
    const socket = dgram.createSocket('udp4')
    socket.once('error', () => resolve(false))
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)))
  })
}

/** `count` consecutive ports free for TCP and UDP on loopback, from a random base (several stacks run at once). */
export async function freePorts(count: number, from = 20000, to = 29000): Promise<number[]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = from + Math.floor(Math.random() * ((to - from - count) / 10)) * 10
    const ports = Array.from({ length: count }, (_, i) => base + i)
    let ok = true
    for (const port of ports) if (!(ok = await portFree(port))) break
    if (ok) return ports
  }
  throw new Error('no free ports')
}

/** Routes `ruri_user` to the registered device of that name (lookup), everything else 404. Records what it saw. */
export class InternalRouter implements CallControl {
  routes: RouteRequest[] = []
  failures: FailureRequest[] = []
  events: (CallEvent | RegistrationEvent)[] = []
  extensions = new Set<string>()
  async route(request: RouteRequest): Promise<RouteDecision> {
    this.routes.push(request)
    if (!this.extensions.has(request.ruri_user)) return { action: 'reject', code: 404, reason: 'Not Found' }
    return {
      action: 'relay',
      ruri: `sip:${request.ruri_user}@${request.ruri_domain}`,
      lookup: true,
      dst: null,
      headers: 'X-Atende-Call-Type: 31\r\n',
      timeout: 20,
      on_failure: false,
      record: false,
      auth: null,
    }
  }
  async failure(request: FailureRequest): Promise<RouteDecision> {
    this.failures.push(request)
    return { action: 'reject', code: request.code, reason: request.reason }
  }
  event(event: CallEvent | RegistrationEvent): void {
    this.events.push(event)
  }
}

/** Wraps a real call control and records what it was asked, what it answered and the events it got. */
export class RecordingControl<C extends CallControl> implements CallControl {
  routes: RouteRequest[] = []
  failures: FailureRequest[] = []
  decisions: { call_id: string; decision: RouteDecision }[] = []
  events: (CallEvent | RegistrationEvent)[] = []
  readonly inner: C
  constructor(inner: C) {
    this.inner = inner
  }
  async route(request: RouteRequest): Promise<RouteDecision> {
    this.routes.push(request)
    const decision = await this.inner.route(request)
    this.decisions.push({ call_id: request.call_id, decision })
    return decision
  }
  async failure(request: FailureRequest): Promise<RouteDecision> {
    this.failures.push(request)
    const decision = await this.inner.failure(request)
    this.decisions.push({ call_id: request.call_id, decision })
    return decision
  }
  event(event: CallEvent | RegistrationEvent): void {
    this.events.push(event)
    this.inner.event(event)
  }
}

export type Stack<C extends CallControl = InternalRouter> = {
  app: FastifyInstance
  config: Config
  database: TestDatabase
  control: C
  dir: string
  /** The HTTP port of the listening app (for /ws/sip). */
  httpPort: number
  secrets: Record<string, string>
  close(): Promise<void>
}

export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const stack = await startStackWith(() => new InternalRouter(), env)
  for (const user of Object.keys(stack.secrets)) stack.control.extensions.add(user)
  return stack
}

/** The stack with the call control `make` builds over the test database (the real createCallControl, or a double). */
export async function startStackWith<C extends CallControl>(
  make: (db: TestDatabase['db']) => C,
  env: Record<string, string> = {},
  /** Where the engines' ports are taken (a test file with its own block never meets another's engines). */
  options: { ports?: [number, number]; rtpPorts?: number; rtpRange?: [number, number] } = {},
): Promise<Stack<C>> {
  await requireEngines()
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-tel-'))
  const [sip, ws, evapi, ng, dtmf, mediaSip, mediaControl] = await freePorts(7, ...(options.ports ?? []))
  const rtpCount = options.rtpPorts ?? 100
  const [rtpMin] = await freePorts(rtpCount, ...(options.rtpRange ?? [40000, 50000]))
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dir,
      TELEPHONY: 'embedded',
      SIP_PORT: String(sip),
      SIP_WS_PORT: String(ws),
      EVAPI_PORT: String(evapi),
      RTPENGINE_NG_PORT: String(ng),
      DTMF_LOG_PORT: String(dtmf),
      MEDIA_SIP_PORT: String(mediaSip),
      MEDIA_CONTROL_PORT: String(mediaControl),
      RTP_PORT_MIN: String(rtpMin),
      RTP_PORT_MAX: String(rtpMin! + rtpCount - 1),
      ...env,
    }),
    spaDir: path.join(dir, 'dist'),
    port: 0,
    host: '127.0.0.1',
  }
  const database = await openTestDatabase()
  const bus = await createTestBus()
  const throttle = await createTestThrottle()
  const control = make(database.db)
  // TELEPHONY_TEST_LOG=1 shows the engines' output (debug level) while a test is written.
  if (process.env.TELEPHONY_TEST_LOG) config.logLevel = 'debug'
  const app = await buildApp(config, { db: database.db, bus, throttle, logger: process.env.TELEPHONY_TEST_LOG ? undefined : false, telephony: { control } })
  await seedDemoIfEmpty(database.db, { port: 8080, mediaDir: config.mediaDir })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const httpPort = typeof address === 'object' && address ? address.port : 0
  await app.telephony.engines.ready()
  await until(() => app.telephony.evapi?.connected === true, 10_000, 'evapi connection')
  await app.telephony.publisher!.pushAll()
  const secrets: Record<string, string> = {}
  for (const row of await database.db.select({ user: voipAccounts.endpoint, password: voipAccounts.password }).from(voipAccounts)) {
    secrets[row.user] = row.password
  }
  return {
    app,
    config,
    database,
    control,
    dir,
    httpPort,
    secrets,
    async close() {
      await app.close()
      await bus.close()
      await throttle.close()
      await database.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

export async function setDeviceCap(stack: Stack<CallControl>, user: string, maxCalls: number): Promise<void> {
  await stack.database.db.update(pabxDevices).set({ maxConcurrentCalls: maxCalls }).where(eq(pabxDevices.username, user))
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

// ---- raw SIP over UDP from a chosen loopback address (127.0.0.x): bans and floods stay with that address

export type RawSip = { send(message: string): void; next(timeoutMs: number): Promise<string | null>; close(): void; port: number; ip: string }

export async function rawSip(ip: string, target: number): Promise<RawSip> {
  const socket = dgram.createSocket('udp4')
  const inbox: string[] = []
  let waiter: ((message: string) => void) | null = null
  socket.on('message', (datagram) => {
    const text = datagram.toString('latin1')
    if (waiter) {
      const w = waiter
      waiter = null
      w(text)
    } else inbox.push(text)
  })
  await new Promise<void>((resolve) => socket.bind(0, ip, () => resolve()))
  const port = socket.address().port
  return {
    ip,
    port,
    send: (message) => socket.send(message, target, '127.0.0.1'),
    next(timeoutMs) {
      const queued = inbox.shift()
      if (queued !== undefined) return Promise.resolve(queued)
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiter = null
          resolve(null)
        }, timeoutMs)
        waiter = (message) => {
          clearTimeout(timer)
          resolve(message)
        }
      })
    },
    close: () => socket.close(),
  }
}

export function options(from: { ip: string; port: number }, target: number, userAgent = 'Atende test'): string {
  return [
    `OPTIONS sip:127.0.0.1:${target} SIP/2.0`,
    `Via: SIP/2.0/UDP ${from.ip}:${from.port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
    'Max-Forwards: 70',
    `From: <sip:probe@localhost>;tag=${randomBytes(4).toString('hex')}`,
    `To: <sip:127.0.0.1:${target}>`,
    `Call-ID: ${randomBytes(8).toString('hex')}`,
    'CSeq: 1 OPTIONS',
    `User-Agent: ${userAgent}`,
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n')
}

// ---- baresip user agents

export type Baresip = {
  user: string
  sipPort: number
  command(command: string, params?: string): Promise<string>
  events: string[]
  /** Where it dumps what it hears (`trace`/`record` option): `dump-*-dec.wav`. */
  home: string
  stop(): Promise<void>
}

export type BaresipOptions = {
  /** `auto` (default) answers at once; `manual` rings until the `accept` command. */
  answer?: 'auto' | 'manual'
  /** false: no REGISTER (a trunk's peer, known by its address). */
  register?: boolean
  /** Print the SIP messages (`-s`) into `events`. */
  trace?: boolean
  /** Dump the audio it hears into WAV files in `home` (sndfile). */
  record?: boolean
  /** Use this SIP port (a trunk configured before the peer starts); else a free one. */
  sipPort?: number
  /** The tone it sends (Hz; default 440), to tell the parties apart in what others hear. */
  toneHz?: number
}

async function tone(dir: string, hz = 440): Promise<string> {
  const file = path.join(dir, `tone${hz}.wav`)
  if (!existsSync(file)) execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', file, 'synth', '30', 'sine', String(hz), 'vol', '0.5'])
  return file
}

export async function startBaresip(stack: Stack<CallControl>, user: string, password: string, options: BaresipOptions = {}): Promise<Baresip> {
  // baresip opens TCP on its SIP port + 1: ports are taken in a block.
  const [freeSip, , ctrlPort] = await freePorts(3, 30000, 39000)
  const sipPort = options.sipPort ?? freeSip
  const [rtpBase] = await freePorts(20, 50000, 60000)
  const home = path.join(stack.dir, `baresip-${user}-${sipPort}`)
  await mkdir(home, { recursive: true })
  const wav = await tone(stack.dir, options.toneHz)
  await writeFile(
    path.join(home, 'config'),
    [
      'poll_method epoll',
      `sip_listen 127.0.0.1:${sipPort}`,
      'sip_transports udp',
      'call_local_timeout 120',
      'call_max_calls 4',
      `audio_player aubridge,nil${user}${sipPort}`,
      `audio_source aufile,${wav}`,
      `audio_alert aubridge,nil${user}${sipPort}`,
      'audio_level no',
      `rtp_ports ${rtpBase}-${rtpBase! + 19}`,
      'rtp_stats yes',
      'rtcp_mux no',
      'jitter_buffer_delay 5-10',
      'net_interface 127.0.0.1',
      'module_path /usr/lib/baresip/modules',
      'module g711.so',
      'module aufile.so',
      'module aubridge.so',
      'module_app account.so',
      'module_app menu.so',
      'module_app ctrl_tcp.so',
      `ctrl_tcp_listen 127.0.0.1:${ctrlPort}`,
      ...(options.record ? ['module sndfile.so', `snd_path ${home}`] : []),
      '',
    ].join('\n'),
  )
  const sipTarget = `sip:127.0.0.1:${stack.config.telephony.sipPort};transport=udp`
  await writeFile(
    path.join(home, 'accounts'),
    `<sip:${user}@localhost;transport=udp>;auth_pass=${password};outbound="${sipTarget}";answermode=${options.answer ?? 'auto'};audio_codecs=PCMU,PCMA;regint=${options.register === false ? 0 : 300}\n`,
  )
  await writeFile(path.join(home, 'contacts'), '')
  const child: ChildProcess = spawn('baresip', ['-f', home, ...(options.trace ? ['-s'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] })
  const events: string[] = []
  child.stdout?.on('data', (chunk: Buffer) => events.push(chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => events.push(chunk.toString()))
  const command = (name: string, params = '') =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(ctrlPort!, '127.0.0.1')
      let buffer = ''
      const body = JSON.stringify({ command: name, params, token: 't' })
      socket.on('connect', () => socket.write(`${Buffer.byteLength(body)}:${body},`))
      socket.on('data', (chunk) => {
        buffer += chunk.toString()
        if (buffer.includes('"response"')) {
          socket.end()
          resolve(buffer)
        }
      })
      socket.on('error', reject)
      setTimeout(() => {
        socket.destroy()
        resolve(buffer)
      }, 3000)
    })
  await until(async () => (await command('reginfo').catch(() => '')).includes('response'), 10_000, `baresip ${user} control port`)
  return {
    user,
    sipPort: sipPort!,
    command,
    events,
    home,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}
