import { readFile, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { and, asc, eq, isNull } from 'drizzle-orm'
import { createActor } from 'xstate'
import type { AnyActorRef } from 'xstate'
import type { Db } from '../../db/client.ts'
import { callRecords, pabxInboundRoutes, pabxIvrs, pabxIvrsOptions, sites } from '../../db/schema/index.ts'
import type { CallRecordRow } from '../../db/schema/index.ts'
import { calendarOpen } from '../../acd/calendar-open.ts'
import { loadMembers, loadQueue } from '../../telephony/control/acd.ts'
import type { QueueRow } from '../../telephony/control/acd.ts'
import { closeStep, latestStep, recordSteps, stepsOf } from '../../telephony/control/records.ts'
import type { StepDraft } from '../../telephony/control/records.ts'
import { resolveMohPlaylist, resolvePromptSet, resolveSound } from '../library.ts'
import type { OriginateOutcome, OriginateRequest, QueueAgents } from './originate-types.ts'
// A pure leaf (no database, no media app): the dialer's answering-machine heuristic.
import { detectAnsweringMachine, detectFaxTone, wavSamples } from './amd.ts'
import { announceMachine, ivrMachine, queueWaitMachine } from './machines.ts'
import { QueueVoice } from './queue-voice.ts'
import type { MediaEvent } from './machines.ts'
import { parseLine, WorkerEventSchema } from './protocol.ts'
import { announceThen, enterAnnounce } from './announce.ts'
import type { MediaCall, MediaHooks } from './call-context.ts'
import { enterNps } from './nps.ts'
import { enterVoicemail } from './voicemail.ts'
import type { CallState, WorkerCommand, WorkerEvent } from './protocol.ts'

// The media app's brain, inside the server (README.md): it holds the control link to the media app process, one
// XState machine per call the app holds (machines.ts), and the database side — which queue, which music, which agent
// is free. The worker only plays, listens and bridges.

export type BrainLog = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void }

export type WaitingCaller = { callId: string; siteId: number; queueId: number; since: string; phone: string }

type Held = {
  id: string
  siteId: number
  domain: string
  app: string
  appdata: string
  actor: AnyActorRef | null
  playToken: number
  /** Queue wait: when the caller entered, and the queue. */
  queue: QueueRow | null
  enteredAt: Date | null
  phone: string
  /** The calling number or extension. */
  caller: string
  /** The NPS survey of the caller's inbound route (undefined until looked up). */
  routeNps?: number | null
  /** The last `play` sent (a restarted app plays it again from the start). */
  lastPlay?: { files: string[]; loop: boolean }
  /** A `bridge` was sent and has no answer yet. */
  bridging?: boolean
}

const MEDIA_APPS = new Set(['queue', 'ivrbasic', 'announce', 'voicemail', 'nps'])
const TICK_MS = 500
/** An answered dialer call waits this long for a free agent of its queue, then counts as abandoned (issue 18). */
export const DIALER_AGENT_WAIT_MS = 2000
/** AMD hears this much of the answered customer (the worker's recording ends then) before judging: a person's "alô"
 * and its silence fit, a machine's greeting is cut short. */
const DIALER_AMD_MS = 3500
/** How often the dialer call's wait looks for a free agent. */
const DIALER_AGENT_POLL_MS = 200
/** The abandoned customer hears this keyed prompt of the queue's language (the demo's), at most this long. */
const DIALER_ABANDON_PROMPT = 'goodbye'
const DIALER_ABANDON_PROMPT_MS = 8000

/** A customer leg the dialer asked for (`originate`): what the runner gets when it ends. */
type Dialing = {
  request: OriginateRequest
  domain: string
  answeredAt: Date | null
  bridgedAt: Date | null
  abandoned: boolean
  /** The final SIP answer of the origination (0 while it rings). */
  code: number
  playToken: number
  timer: NodeJS.Timeout | null
  resolve: (outcome: OriginateOutcome) => void
  done: boolean
  /** Answering-machine detection found a machine: the call ends as 552 (voicemail), never bridged. */
  machine?: boolean
  /** The answer analysis heard a fax machine's CNG tone: the call ends as 510 (fax), never bridged. */
  fax?: boolean
}

export class MediaBrain {
  private readonly calls = new Map<string, Held>()
  private socket: net.Socket | null = null
  private stopped = false
  private retry: NodeJS.Timeout | null = null
  private tick: NodeJS.Timeout | null = null
  private ticking = false
  private token = 0
  private readonly voice: QueueVoice
  connected = false
  private readonly db: Db
  private readonly host: string
  private readonly port: number
  private readonly log: BrainLog
  private readonly onWaiting: ((siteId: number, callers: WaitingCaller[]) => void) | undefined
  private readonly hooks: MediaHooks
  /** Callers whose queue asks its NPS survey after the agent hangs up: call id → survey id. */
  private readonly npsAfterAgent = new Map<string, number>()
  /** Customers the dialer is calling or has on the line, by Call-ID. */
  private readonly dialing = new Map<string, Dialing>()
  /**
   * The app's latest `state` of each held call: what a restarted app takes over (`adopt`). Its own map: the `state`
   * that follows a `call` may be handled before `onCall` has looked the call up and added it.
   */
  private readonly states = new Map<string, CallState>()

  constructor(options: {
    db: Db
    host: string
    port: number
    log: BrainLog
    onWaiting?: (siteId: number, callers: WaitingCaller[]) => void
    hooks?: MediaHooks
  }) {
    this.db = options.db
    this.host = options.host
    this.port = options.port
    this.log = options.log
    this.onWaiting = options.onWaiting
    this.hooks = options.hooks ?? {}
    this.voice = new QueueVoice(options.db)
  }

  start(): void {
    this.stopped = false
    this.connect()
    this.tick = setInterval(() => void this.offerFreeAgents(), TICK_MS)
    this.tick.unref()
  }

  stop(): void {
    this.stopped = true
    if (this.retry) clearTimeout(this.retry)
    if (this.tick) clearInterval(this.tick)
    for (const held of this.calls.values()) held.actor?.stop()
    this.calls.clear()
    this.states.clear()
    for (const call of [...this.dialing.values()]) this.finishDialing(call, 559)
    this.socket?.destroy()
  }

  /** The callers waiting in queues now (for the service socket and tests). */
  waiting(siteId?: number): WaitingCaller[] {
    const out: WaitingCaller[] = []
    for (const held of this.calls.values()) {
      if (!held.queue || !held.enteredAt || (siteId !== undefined && held.siteId !== siteId)) continue
      if (!held.actor?.getSnapshot().matches('holding')) continue
      out.push({ callId: held.id, siteId: held.siteId, queueId: held.queue.id, since: held.enteredAt.toISOString(), phone: held.phone })
    }
    return out.sort((a, b) => a.since.localeCompare(b.since))
  }

  /** Whether a restarted app could take the call over bridged: its dialogs and the agent's are kept (tests). */
  adoptable(callId: string): boolean {
    return this.states.get(callId)?.agent != null
  }

  /** The state of a held call's machine (tests). */
  stateOf(callId: string): unknown {
    return this.calls.get(callId)?.actor?.getSnapshot().value ?? null
  }

  private connect(): void {
    if (this.stopped) return
    const socket = net.connect(this.port, this.host)
    socket.setNoDelay(true)
    socket.on('connect', () => {
      this.socket = socket
      this.connected = true
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      if (this.socket === socket) this.socket = null
      this.connected = false
      if (!this.stopped) this.retry = setTimeout(() => this.connect(), 300)
    })
    const lines = readline.createInterface({ input: socket })
    // The socket's errors (the app not up yet) are its 'close'; readline re-emits them and must not throw.
    lines.on('error', () => {})
    lines.on('line', (line) => {
      const event = parseLine(WorkerEventSchema, line)
      if (!event) return this.log.warn({ line: line.slice(0, 200) }, 'media app: malformed event')
      this.onEvent(event).catch((err: unknown) => this.log.warn({ err }, 'media app: handling an event failed'))
    })
  }

  /** Hears the monitoring events (monitor.ts); `command` sends its commands. */
  onSpy: ((event: Extract<WorkerEvent, { ev: 'spy_started' | 'spy_failed' | 'spy_ended' }>) => void) | null = null
  command(command: Extract<WorkerCommand, { cmd: 'spy_start' | 'spy_mode' | 'spy_stop' }>): void {
    if (!this.connected || !this.socket) throw new Error('the media app is not connected')
    this.send(command)
  }

  private send(command: WorkerCommand): void {
    if (command.cmd === 'bridge' || command.cmd === 'stop') {
      const held = this.calls.get(command.id)
      if (held && command.cmd === 'bridge') held.bridging = true
      if (held && command.cmd === 'stop') held.lastPlay = undefined
    }
    this.socket?.write(`${JSON.stringify(command)}\n`)
  }

  /**
   * A restarted app takes over a held or bridged call: its dialogs (`adopt`); a bridged call talks on; a bridge that
   * was ringing is lost with the old app (the machine hears it failed and goes back to the music); otherwise what was
   * playing starts again (music, or the prompt the machine waits the end of).
   */
  private adopt(held: Held, state: CallState): void {
    this.send({ cmd: 'adopt', id: held.id, state })
    this.log.info({ callId: held.id, bridged: state.agent !== null }, 'media app: call adopted by the restarted app')
    if (state.agent) return
    if (held.bridging) {
      held.bridging = false
      held.actor?.send({ type: 'BRIDGE_FAILED', code: 503 })
      return
    }
    if (held.lastPlay) this.send({ cmd: 'play', id: held.id, files: held.lastPlay.files, loop: held.lastPlay.loop, token: held.playToken })
  }

  private async onEvent(event: WorkerEvent): Promise<void> {
    if (event.ev === 'hello') {
      // The app restarted: it takes over every call whose dialogs we kept (README.md "Surviving a restart"); the rest
      // (a call not answered yet) are gone.
      const alive = new Set(event.calls)
      // A dialer call the new app does not hold: a customer bridged to an agent is adopted like a bridged queue caller
      // (it talks on; its end is the outcome); any other's result is unknown (559) unless it was answered.
      for (const [id, call] of this.dialing) {
        if (alive.has(id)) continue
        const state = this.states.get(id)
        if (call.bridgedAt && state?.agent) {
          this.send({ cmd: 'adopt', id, state })
          this.log.info({ callId: id }, 'media app: dialer call adopted by the restarted app')
          continue
        }
        this.finishDialing(call, call.answeredAt ? 200 : 559)
      }
      for (const [id, held] of this.calls) {
        if (alive.has(id)) continue
        const state = this.states.get(id)
        if (state) {
          this.adopt(held, state)
          continue
        }
        held.actor?.stop()
        this.calls.delete(id)
      }
      for (const id of this.states.keys()) if (!this.calls.has(id) && !this.dialing.has(id)) this.states.delete(id)
      this.send({ cmd: 'adopted' })
      return
    }
    // Monitoring sessions are the monitor service's (monitor.ts).
    if (event.ev === 'spy_started' || event.ev === 'spy_failed' || event.ev === 'spy_ended') return void this.onSpy?.(event)
    if (event.ev === 'state') {
      this.states.set(event.id, event.state)
      return
    }
    if (event.ev === 'ended') this.states.delete(event.id)
    if (event.ev === 'call') return this.onCall(event.id, event.user)
    const dialing = this.dialing.get(event.id)
    if (dialing) return this.onDialerEvent(dialing, event)
    const held = this.calls.get(event.id)
    if (!held) return
    const forward = (e: MediaEvent) => held.actor?.send(e)
    switch (event.ev) {
      case 'dtmf':
        forward({ type: 'DTMF', digit: event.digit })
        return
      case 'played':
        if (event.token === held.playToken) {
          held.lastPlay = undefined
          forward({ type: 'PLAYED' })
        }
        return
      case 'bridged':
        held.bridging = false
        forward({ type: 'BRIDGED', leg: event.leg })
        return
      case 'bridge_failed':
        held.bridging = false
        forward({ type: 'BRIDGE_FAILED', code: event.code })
        return
      case 'ended':
        held.bridging = false
        forward({ type: 'ENDED' })
        held.actor?.stop()
        this.calls.delete(event.id)
        this.npsAfterAgent.delete(event.id)
        this.publish(held.siteId)
        return
      case 'recorded':
        forward({ type: 'RECORDED', file: event.file, ms: event.ms })
        return
      case 'unbridged': {
        // The agent hung up on a caller whose queue asks its NPS survey afterwards (nps.ts).
        const npsId = this.npsAfterAgent.get(event.id)
        this.npsAfterAgent.delete(event.id)
        if (npsId) await this.goTo(held, 'nps', String(npsId), 0)
        else this.send({ cmd: 'hangup', id: held.id })
        return
      }
    }
  }

  private async onCall(id: string, user: string): Promise<void> {
    const match = /^([a-z]+)\.(\d{1,9})$/.exec(user)
    const step = await latestStep(this.db, id)
    if (!match || !step) {
      this.send({ cmd: 'hangup', id })
      return
    }
    const [site] = await this.db.select({ domain: sites.domain }).from(sites).where(eq(sites.id, step.siteId))
    const held: Held = {
      id,
      siteId: step.siteId,
      domain: site?.domain ?? 'localhost',
      app: match[1]!,
      appdata: match[2]!,
      actor: null,
      playToken: 0,
      queue: null,
      enteredAt: null,
      phone: step.phone || step.caller,
      caller: step.caller,
    }
    this.calls.set(id, held)
    await this.goTo(held, held.app, held.appdata, 0)
  }

  private play(held: Held, files: string[], loop: boolean): void {
    held.playToken = ++this.token
    held.lastPlay = { files, loop }
    this.send({ cmd: 'play', id: held.id, files, loop, token: held.playToken })
  }

  /** Sends the held caller on to a destination: inside the app (queue, IVR, announce...) or bridged through Kamailio. */
  private async goTo(held: Held, app: string, appdata: string, hops: number): Promise<void> {
    held.actor?.stop()
    held.actor = null
    held.queue = null
    held.enteredAt = null
    if (hops > 5 || app === 'hangup' || app === '') {
      this.send({ cmd: 'hangup', id: held.id })
      return
    }
    held.app = app
    held.appdata = appdata
    const id = Number(appdata)
    if (app === 'queue') return this.enterQueue(held, id, hops)
    if (app === 'ivrbasic') return this.enterIvr(held, id, hops)
    if (app === 'voicemail') return enterVoicemail(this.mediaCall(held, hops), id)
    if (app === 'announce') return enterAnnounce(this.mediaCall(held, hops), id, await announceThen(this.db, held.siteId, id))
    if (app === 'nps') return enterNps(this.mediaCall(held, hops), id)
    if (MEDIA_APPS.has(app)) {
      // A media destination without a handler here: the caller is not left in silence.
      this.log.warn({ app }, 'media app: destination not available yet')
      this.send({ cmd: 'hangup', id: held.id })
      return
    }
    // A device, a call group...: bridged through Kamailio (call control routes `<app>.<id>` from the media app). When
    // the caller's inbound route names a survey, the app keeps the caller after the agent hangs up (nps.ts).
    const npsId = await this.routeNpsOf(held)
    if (npsId) this.npsAfterAgent.set(held.id, npsId)
    this.send({
      cmd: 'bridge',
      id: held.id,
      target: `sip:${app}.${appdata}@${held.domain}`,
      headers: [`X-Atende-Media-Leg: ${held.id}`],
      timeout: 120,
      ...(npsId ? { keep: true } : {}),
    })
    const passing = announceMachine.provide({ actions: { playSound: () => {}, goOn: () => {} } })
    held.actor = createActor(passing).start()
  }

  // ---- the dialer (server/dialer/README.md "Runtime"): the customer's leg, then a free agent or the abandon message

  /**
   * Calls the lead's phone through Kamailio (call control routes the dialer's Call-ID to the campaign's outbound route)
   * and resolves when the call is over: the dial status, when the customer answered, the talk seconds, and whether
   * the customer was left without an agent (abandoned). On answer, a free member of the campaign's queue (the same
   * count the queue wait uses: available members minus calls being offered) gets the call with the lead's headers
   * within 2 s, else the customer hears a short message and is hung up.
   */
  async originate(request: OriginateRequest): Promise<OriginateOutcome> {
    if (!this.connected || !this.socket) throw new Error('the media app is not connected')
    if (this.dialing.has(request.callId)) throw new Error(`already dialling ${request.callId}`)
    const [site] = await this.db.select({ domain: sites.domain }).from(sites).where(eq(sites.id, request.siteId))
    const domain = site?.domain ?? 'localhost'
    const number = request.phone.replace(/[^0-9+*#]/g, '')
    const from = (request.callerId || 'dialer').replace(/[^0-9A-Za-z+._-]/g, '') || 'dialer'
    return new Promise<OriginateOutcome>((resolve) => {
      const call: Dialing = { request, domain, answeredAt: null, bridgedAt: null, abandoned: false, code: 0, playToken: 0, timer: null, resolve, done: false }
      this.dialing.set(request.callId, call)
      // The worker answers `originated` within the dial time; one that never does (a lost link) is given up on.
      call.timer = setTimeout(() => {
        if (call.code === 0) this.finishDialing(call, 408)
      }, request.dialTimeoutMs + 30_000)
      call.timer.unref()
      this.send({
        cmd: 'originate',
        id: request.callId,
        target: `sip:${number}@${domain}`,
        from: `sip:${from}@${domain}`,
        headers: [],
        timeout: Math.max(1, Math.round(request.dialTimeoutMs / 1000)),
      })
    })
  }

  /** A campaign's calls that may still need an agent: ringing, in the answer analysis, or answered and waiting (the pacer's in flight). */
  dialerPending(campaignId: number): number {
    let n = 0
    for (const call of this.dialing.values())
      if (call.request.campaignId === campaignId && !call.bridgedAt && !call.abandoned && !call.fax && !call.machine) n++
    return n
  }

  /** Dialer calls not over yet (tests). */
  dialerCalls(): number {
    return this.dialing.size
  }

  private async onDialerEvent(call: Dialing, event: WorkerEvent): Promise<void> {
    const id = call.request.callId
    switch (event.ev) {
      case 'originated':
        if (call.code !== 0) return
        call.code = event.code
        if (event.code !== 200) return this.finishDialing(call, event.code)
        call.answeredAt = new Date()
        // AMD: the customer's first seconds recorded (the parked leg's sink hears them), judged on `recorded`.
        if (call.request.amd) {
          return this.send({ cmd: 'record', id, file: path.join(tmpdir(), `atende-amd-${id}.wav`), maxMs: DIALER_AMD_MS })
        }
        return this.offerDialerCall(call)
      case 'recorded':
        return this.judgeDialerGreeting(call, event.file)
      case 'bridged':
        call.bridgedAt = new Date()
        await this.markDialerBridged(call, event.leg).catch((err: unknown) => this.log.warn({ err }, 'dialer: recording the agent failed'))
        return
      case 'bridge_failed':
        // The agent did not take it (rang out, refused): the customer was answered and nobody came.
        return this.abandonDialerCall(call)
      case 'played':
        if (event.token === call.playToken) this.send({ cmd: 'hangup', id })
        return
      case 'ended':
        return this.finishDialing(call, call.fax ? 510 : call.machine ? 552 : call.answeredAt ? 200 : call.code || 487)
      default:
        return
    }
  }

  /** The answer analysis of the customer's first seconds: a fax (CNG) is hung up as 510, a machine (AMD) as 552; a person or an uncertain answer goes to an agent. */
  private async judgeDialerGreeting(call: Dialing, file: string): Promise<void> {
    const wav = await readFile(file).catch(() => null)
    await rm(file, { force: true }).catch(() => {})
    if (call.done) return
    const pcm = wav ? wavSamples(wav) : null
    // A fax answering (its CNG tone) first: it would pass for a person saying one short word.
    const fax = pcm ? detectFaxTone(pcm, 8000) : null
    const result = pcm && !fax?.fax ? detectAnsweringMachine(pcm, 8000, { totalMs: DIALER_AMD_MS }) : null
    this.log.info({ call: call.request.callId, amd: result, fax }, 'dialer: answer analysis')
    if (fax?.fax) {
      call.fax = true
      return void this.send({ cmd: 'hangup', id: call.request.callId })
    }
    if (result?.verdict === 'machine') {
      call.machine = true
      return void this.send({ cmd: 'hangup', id: call.request.callId })
    }
    return this.offerDialerCall(call)
  }

  /** Waits up to 2 s for a free member of the campaign's queue, then bridges the customer to the queue (the ACD picks). */
  private async offerDialerCall(call: Dialing): Promise<void> {
    const { request } = call
    const deadline = Date.now() + DIALER_AGENT_WAIT_MS
    const queue = await loadQueue(this.db, request.siteId, request.queueId)
    while (!call.done && queue) {
      const members = await loadMembers(this.db, request.siteId, request.queueId, new Date())
      if (members.filter((m) => m.available).length - this.offering(request.siteId, request.queueId, call) > 0) {
        this.send({
          cmd: 'bridge',
          id: request.callId,
          target: `sip:queue.${request.queueId}@${call.domain}`,
          // Kamailio passes the lead's headers to call control, which puts them on the agent's leg (routing.ts).
          headers: [`X-Atende-Media-Leg: ${request.callId}`, ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`)],
          timeout: queue.ringTime + 5,
        })
        return
      }
      if (Date.now() + DIALER_AGENT_POLL_MS > deadline) break
      await new Promise((resolve) => setTimeout(resolve, DIALER_AGENT_POLL_MS))
    }
    if (!call.done) await this.abandonDialerCall(call, queue?.language)
  }

  /** The queue's members and those available for a call now (the ACD's count): the dialer pacer's agents. */
  async queueAgents(siteId: number, queueId: number, at: Date): Promise<QueueAgents> {
    const members = await loadMembers(this.db, siteId, queueId, at)
    return { members: members.length, idle: members.filter((m) => m.available).length }
  }

  /** Calls of this brain being offered to the queue's members now: queue callers in `offering` and dialer calls ringing an agent. */
  private offering(siteId: number, queueId: number, except: Dialing): number {
    let n = 0
    for (const held of this.calls.values()) {
      if (held.siteId === siteId && held.queue?.id === queueId && held.actor?.getSnapshot().matches({ holding: 'offering' })) n++
    }
    for (const other of this.dialing.values()) {
      if (other !== except && other.request.siteId === siteId && other.request.queueId === queueId && other.answeredAt && !other.bridgedAt && !other.abandoned)
        n++
    }
    return n
  }

  /** Nobody free: the short message (the queue language's `goodbye` prompt, the demo's), then the app hangs up. */
  private async abandonDialerCall(call: Dialing, language?: string): Promise<void> {
    if (call.abandoned || call.done) return
    call.abandoned = true
    const id = call.request.callId
    const prompts = await resolvePromptSet(this.db, call.request.siteId, language || 'pt-BR').catch(() => new Map<string, string>())
    const prompt = prompts.get(DIALER_ABANDON_PROMPT)
    if (!prompt) return void this.send({ cmd: 'hangup', id })
    call.playToken = ++this.token
    this.send({ cmd: 'play', id, files: [prompt], loop: false, token: call.playToken })
    // A prompt that never reports its end does not keep the line.
    setTimeout(() => {
      if (!call.done) this.send({ cmd: 'hangup', id })
    }, DIALER_ABANDON_PROMPT_MS).unref()
  }

  /**
   * The dialer call's record names the agent who took it (the agent leg's own steps are its call's), and is recorded
   * when its leg is (the queue's `record_calls` or the campaign's outbound route's `record`: Kamailio's rtpengine
   * records the leg, which carries the customer; the recording API finds it under the dialer call, routes.ts).
   */
  private async markDialerBridged(call: Dialing, leg: string): Promise<void> {
    const agentStep = await latestStep(this.db, leg)
    if (!agentStep?.userId) return
    await this.db
      .update(callRecords)
      .set({ userId: agentStep.userId, deviceId: agentStep.deviceId, record: agentStep.record })
      .where(and(eq(callRecords.siteId, call.request.siteId), eq(callRecords.callId, call.request.callId), eq(callRecords.step, 1)))
  }

  private finishDialing(call: Dialing, status: number): void {
    if (call.done) return
    call.done = true
    if (call.timer) clearTimeout(call.timer)
    this.dialing.delete(call.request.callId)
    this.states.delete(call.request.callId)
    const end = Date.now()
    call.resolve({
      status,
      answeredAt: call.answeredAt,
      talkSeconds: call.bridgedAt ? Math.round((end - call.bridgedAt.getTime()) / 1000) : 0,
      abandoned: call.abandoned,
    })
  }

  /** The telephony NPS survey the caller's inbound route names (the first step's route), looked up once per call. */
  private async routeNpsOf(held: Held): Promise<number | null> {
    if (held.routeNps !== undefined) return held.routeNps
    const [first] = await stepsOf(this.db, held.siteId, held.id)
    const routeId = first?.inboundRouteId ?? null
    const [route] = routeId
      ? await this.db
          .select({ npsId: pabxInboundRoutes.npsId })
          .from(pabxInboundRoutes)
          .where(and(eq(pabxInboundRoutes.id, routeId), eq(pabxInboundRoutes.siteId, held.siteId)))
      : []
    held.routeNps = route?.npsId ?? null
    return held.routeNps
  }

  // ---- queues

  private async enterQueue(held: Held, queueId: number, hops: number): Promise<void> {
    const queue = await loadQueue(this.db, held.siteId, queueId)
    if (!queue) return void this.send({ cmd: 'hangup', id: held.id })
    const steps = await stepsOf(this.db, held.siteId, held.id)
    let step = steps.find((s) => s.kind === 'queue' && s.queueId === queue.id && s.endedAt === null)
    if (!step) step = await this.addStep(held, steps, { kind: 'queue', queueId: queue.id, queueStartedAt: new Date(), record: queue.recordCalls })
    const enteredAt = step.queueStartedAt ?? new Date()
    held.queue = queue
    held.enteredAt = enteredAt
    const music = queue.mohId ? await resolveMohPlaylist(this.db, held.siteId, queue.mohId) : []
    const entry = queue.announceEntryId ? await resolveSound(this.db, held.siteId, queue.announceEntryId) : null
    const periodic = queue.periodicAnnounceId ? await resolveSound(this.db, held.siteId, queue.periodicAnnounceId) : null
    const waited = Date.now() - enteredAt.getTime()
    // Position and estimated wait follow the entry and the periodic announcement (queue-voice.ts).
    const speaks = queue.announcePosition || queue.announceHoldtime
    const announce = (first: string | null) => {
      const token = ++this.token
      held.playToken = token
      void this.voice
        .say(held.siteId, queue, this.positionOf(held), 1)
        .catch((err: unknown) => {
          this.log.warn({ err }, 'media app: the position announcement failed')
          return []
        })
        .then((spoken) => {
          if (held.playToken === token) this.play(held, [...(first ? [first] : []), ...spoken], false)
        })
    }
    const npsId = queue.npsId ?? (await this.routeNpsOf(held))
    const machine = queueWaitMachine.provide({
      actions: {
        playEntry: () => announce(entry),
        playMusic: () => this.play(held, music, true),
        playAnnouncement: () => announce(periodic),
        offer: () =>
          this.send({
            cmd: 'bridge',
            id: held.id,
            target: `sip:queue.${queue.id}@${held.domain}`,
            headers: [`X-Atende-Media-Leg: ${held.id}`],
            timeout: queue.ringTime + 5,
            // A queue with a telephony NPS (else its inbound route's) keeps the caller when the agent hangs up, for
            // the survey (nps.ts).
            ...(npsId ? { keep: true } : {}),
          }),
        bridged: (_, params) => {
          if (npsId) this.npsAfterAgent.set(held.id, npsId)
          void this.markBridged(held, params.leg).catch((err: unknown) => this.log.warn({ err }, 'media app: recording the bridge failed'))
        },
        overflow: () => void this.overflow(held, queue, hops),
        leave: () => void this.overflow(held, queue, hops, 'exit'),
      },
    })
    held.actor = createActor(machine, {
      input: {
        maxWaitMs: queue.maxWaitTime > 0 ? Math.max(0, queue.maxWaitTime * 1000 - waited) : null,
        announceEveryMs: (periodic || speaks) && queue.periodicAnnounceFrequency > 0 ? queue.periodicAnnounceFrequency * 1000 : null,
        hasEntryAnnouncement: entry !== null || speaks,
        exitKey: queue.exitKey || null,
      },
    }).start()
    this.publish(held.siteId)
  }

  /** Offers free members to the oldest callers of each queue (the ACD picks which member when the bridge is routed). */
  private async offerFreeAgents(): Promise<void> {
    if (this.ticking || !this.connected) return
    this.ticking = true
    try {
      const byQueue = new Map<string, Held[]>()
      for (const held of this.calls.values()) {
        if (!held.queue || !held.actor) continue
        const key = `${held.siteId}:${held.queue.id}`
        byQueue.set(key, [...(byQueue.get(key) ?? []), held])
      }
      const now = new Date()
      for (const callers of byQueue.values()) {
        const waiting = callers
          .filter((c) => c.actor!.getSnapshot().matches({ holding: 'waiting' }))
          .sort((a, b) => a.enteredAt!.getTime() - b.enteredAt!.getTime())
        if (waiting.length === 0) continue
        const offering = callers.filter((c) => c.actor!.getSnapshot().matches({ holding: 'offering' })).length
        const first = waiting[0]!
        const members = await loadMembers(this.db, first.siteId, first.queue!.id, now)
        let free = members.filter((m) => m.available).length - offering
        for (const caller of waiting) {
          if (free-- <= 0) break
          caller.actor!.send({ type: 'AGENT_FREE' })
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'media app: offering queue callers failed')
    } finally {
      this.ticking = false
    }
  }

  /** The caller's queue step records who took the call and how long the caller waited. */
  private async markBridged(held: Held, leg: string): Promise<void> {
    const now = new Date()
    const agentStep = await latestStep(this.db, leg)
    const steps = await stepsOf(this.db, held.siteId, held.id)
    const step = [...steps].reverse().find((s) => s.kind === 'queue' && s.queueId === held.queue?.id)
    if (step) {
      await this.db
        .update(callRecords)
        .set({
          answeredAt: now,
          userId: agentStep?.userId ?? null,
          deviceId: agentStep?.deviceId ?? null,
          queueWait: held.enteredAt ? Math.round((now.getTime() - held.enteredAt.getTime()) / 1000) : null,
        })
        .where(and(eq(callRecords.id, step.id), isNull(callRecords.answeredAt)))
    }
    held.queue = null
    this.publish(held.siteId)
  }

  /** Max wait over (the overflow destination), or the caller pressed the exit key (the exit destination). */
  private async overflow(held: Held, queue: QueueRow, hops: number, why: 'overflow' | 'exit' = 'overflow'): Promise<void> {
    held.queue = null
    const steps = await stepsOf(this.db, held.siteId, held.id)
    const step = [...steps].reverse().find((s) => s.kind === 'queue' && s.queueId === queue.id && s.endedAt === null)
    if (step) await closeStep(this.db, step, why === 'exit' ? 487 : 380, why === 'exit' ? 'Left By Key' : 'Overflowed', new Date())
    held.playToken = ++this.token
    this.send({ cmd: 'stop', id: held.id })
    this.publish(held.siteId)
    if (why === 'exit') await this.goTo(held, queue.exitApp, queue.exitAppdata, hops + 1)
    else await this.goTo(held, queue.overflowApp, queue.overflowAppdata, hops + 1)
  }

  /** 1 for the caller of the queue waiting longest (among the callers this app holds in it). */
  private positionOf(held: Held): number {
    if (!held.queue || !held.enteredAt) return 1
    let ahead = 0
    for (const other of this.calls.values()) {
      if (other === held || other.siteId !== held.siteId || other.queue?.id !== held.queue.id || !other.enteredAt) continue
      if (other.enteredAt < held.enteredAt || (other.enteredAt.getTime() === held.enteredAt.getTime() && other.id < held.id)) ahead++
    }
    return ahead + 1
  }

  // ---- IVRs

  private async enterIvr(held: Held, ivrId: number, hops: number): Promise<void> {
    const [ivr] = await this.db
      .select()
      .from(pabxIvrs)
      .where(and(eq(pabxIvrs.siteId, held.siteId), eq(pabxIvrs.id, ivrId), eq(pabxIvrs.isActive, true)))
    if (!ivr) return void this.send({ cmd: 'hangup', id: held.id })
    // The IVR's time condition: outside its calendar's hours the caller goes to the closed destination.
    if (ivr.calendarId !== null && !(await calendarOpen(this.db, held.siteId, ivr.calendarId, new Date()))) {
      return this.goTo(held, ivr.closedDestinationApp, ivr.closedDestinationAppdata, hops + 1)
    }
    const options = await this.db.select().from(pabxIvrsOptions).where(eq(pabxIvrsOptions.ivrId, ivr.id)).orderBy(asc(pabxIvrsOptions.position))
    const greeting = await resolveSound(this.db, held.siteId, ivr.greetingId)
    const timeoutAudio = ivr.timeoutAudioId ? await resolveSound(this.db, held.siteId, ivr.timeoutAudioId) : null
    const invalidAudio = ivr.invalidAudioId ? await resolveSound(this.db, held.siteId, ivr.invalidAudioId) : null
    const steps = await stepsOf(this.db, held.siteId, held.id)
    if (!steps.some((s) => s.kind === 'media' && s.endedAt === null)) await this.addStep(held, steps, { kind: 'media' })
    const byDigit = new Map(options.filter((o) => /^[0-9*#]$/.test(o.digit)).map((o) => [o.digit, o]))
    const machine = ivrMachine.provide({
      actions: {
        playGreeting: () => this.play(held, greeting ? [greeting] : [], false),
        playTimeout: () => this.play(held, timeoutAudio ? [timeoutAudio] : [], false),
        playInvalid: () => this.play(held, invalidAudio ? [invalidAudio] : [], false),
        stopPlaying: () => {
          held.playToken = ++this.token
          this.send({ cmd: 'stop', id: held.id })
        },
        goToOption: (_, params) => {
          const option = byDigit.get(params.digit)
          if (option) setImmediate(() => void this.goTo(held, option.destinationApp, option.destinationAppdata, hops + 1))
        },
        goToTimeout: () => setImmediate(() => void this.goTo(held, ivr.timeoutDestinationApp, ivr.timeoutDestinationAppdata, hops + 1)),
      },
    })
    held.actor = createActor(machine, {
      input: { options: [...byDigit.keys()], timeoutMs: Math.max(1, ivr.timeout) * 1000, repeatCount: ivr.repeatCount },
    }).start()
  }

  /** What a destination run in its own file (voicemail.ts, announce.ts, nps.ts) may do with the held call. */
  private mediaCall(held: Held, hops: number): MediaCall {
    return {
      db: this.db,
      log: this.log,
      hooks: this.hooks,
      id: held.id,
      siteId: held.siteId,
      caller: held.caller,
      phone: held.phone,
      play: (files, loop) => this.play(held, files, loop),
      stop: () => {
        held.playToken = ++this.token
        this.send({ cmd: 'stop', id: held.id })
      },
      send: (command) => this.send(command),
      hangup: () => this.send({ cmd: 'hangup', id: held.id }),
      goTo: (app, appdata) => void this.goTo(held, app, appdata, hops + 1),
      setActor: (actor) => {
        held.actor = actor
      },
    }
  }

  // ---- records

  /** A step of the held call (entering a queue or an IVR from inside the app), after its last one. */
  private async addStep(held: Held, steps: CallRecordRow[], fields: Partial<StepDraft> & { kind: string }): Promise<CallRecordRow> {
    const first = steps[0]!
    const last = steps[steps.length - 1]!
    const draft: StepDraft = {
      direction: first.direction,
      callType: first.callType,
      caller: first.caller,
      callee: first.callee,
      phone: first.phone,
      callerDeviceId: first.callerDeviceId,
      callerUserId: first.callerUserId,
      inboundRouteId: first.inboundRouteId,
      trunkId: first.trunkId,
      did: first.did,
      areaCode: first.areaCode,
      record: first.record,
      transferOfUid: first.transferOfUid,
      transferType: first.transferType,
      activityId: first.activityId,
      ...fields,
      // Held in the app: no decision for Kamailio (a relay to nowhere, stored for the record).
      decision: { action: 'relay', ruri: '', lookup: false, dst: null, headers: '', timeout: 0, on_failure: false, record: false, auth: null, media: true },
    }
    // The previous step (the IVR's) ends where this one starts.
    if (last.endedAt === null && last.kind !== fields.kind) await closeStep(this.db, last, 200, 'Media App', new Date())
    await recordSteps(this.db, { siteId: held.siteId, callId: held.id, after: last.step, parentUid: first.uid, now: new Date() }, [draft])
    return (await latestStep(this.db, held.id))!
  }

  private publish(siteId: number): void {
    this.onWaiting?.(siteId, this.waiting(siteId))
  }
}
