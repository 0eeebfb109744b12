import dgram from 'node:dgram'
import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import net from 'node:net'
import readline from 'node:readline'
import { Inviter, SessionState, UserAgent } from 'sip.js'
import type { Invitation, Session } from 'sip.js'
import { NgClient } from '../../telephony/ng.ts'
import type { MediaAppArgs } from '../../telephony/engines/index.ts'
import { decodePayload } from '../../telephony/control/recordings/g711.ts'
import { wavFile } from '../../telephony/control/recordings/mix.ts'
import { parseLine, WorkerCommandSchema } from './protocol.ts'
import type { CallState, DialogInfo, WorkerCommand, WorkerEvent } from './protocol.ts'
import { AdoptedDialogs, dialogOf, reanswer } from './adopted.ts'
import type { AdoptedSide } from './adopted.ts'
import { RtpengineSdh, ngOk, sinkSdp, towards } from './sdh.ts'
import type { AgentLeg, CallerLeg, CustomerLeg, Leg } from './sdh.ts'
import { UdpTransport } from './udp-transport.ts'
import { SpyDesk } from './spy.ts'

// The media app process (README.md): a sip.js user agent on UDP that Kamailio hands media destinations to. It answers
// callers, plays prompts and music into their legs through rtpengine, reports their keys (rtpengine's DTMF log and SIP
// INFO), records them, and bridges them to whoever the server names — staying in the signalling path as a B2BUA.
// It decides nothing: the server (brain.ts) drives every call over the control link (protocol.ts). Each call's dialogs
// go to the server as they change (`state`), so a restarted app takes them over (`adopt`, adopted.ts): a bridged call's
// media runs in rtpengine and its dialogs in Kamailio, so killing this process leaves talking parties talking, and
// either party's BYE still ends the other leg; waiting callers stay in their queue.

export type WorkerOptions = MediaAppArgs & { log?: (line: string) => void }

type Call = {
  leg: CallerLeg
  /** The caller's session: the INVITE the app answered, or the one it placed to a customer (`originate`); null when adopted. */
  invitation: Invitation | Inviter | null
  /** An adopted call's caller dialog (answered by adopted.ts, not sip.js). */
  callerDialog: DialogInfo | null
  /** An adopted bridge's agent dialog. */
  agentDialog: DialogInfo | null
  sink: dgram.Socket
  agentSession: Inviter | null
  agentTarget: string | null
  bridged: boolean
  ended: boolean
  playTimer: NodeJS.Timeout | null
  playToken: number
  recording: { file: string; chunks: Int16Array[]; timer: NodeJS.Timeout; started: number } | null
  /** The bridge's `keep`: the agent hanging up parks the caller again instead of ending the call. */
  keep: boolean
}

const DIGITS = '0123456789*#ABCD'
const CONTACT_USER = 'atende-media'
/** Where the Request-URI's user of a new call goes (intercept). */
const TARGET_HEADER = 'X-Atende-Media-Target'
const rnd = () => randomBytes(5).toString('hex')

export class MediaWorker {
  private readonly calls = new Map<string, Call>()
  private readonly legs = new WeakMap<Session, Leg>()
  private readonly ng: NgClient
  private ua: UserAgent | null = null
  private control: net.Server | null = null
  private client: net.Socket | null = null
  private dtmf: dgram.Socket | null = null
  private adopted: AdoptedDialogs | null = null
  /**
   * Until the brain has sent its `adopt`s (`adopted`, at most 10 s after start), an in-dialog request of a dialog this
   * app does not know yet gets no answer: its retransmission finds the adopted dialog (a 481 would end the leg).
   */
  private adopting = true
  private readonly log: (line: string) => void

  private readonly options: WorkerOptions

  constructor(options: WorkerOptions) {
    this.options = options
    this.ng = new NgClient({ host: options.ngHost, port: options.ngPort, timeoutMs: 2000 })
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`))
    this.spy = new SpyDesk({
      ua: () => this.ua,
      ng: this.ng,
      listenHost: options.listenHost,
      send: (event) => this.send(event),
      log: (line) => this.log(line),
      guard: (work) => this.guard(work),
      bridgedCall: (id) => this.bridgedCall(id),
    })
  }

  /** Supervisors' monitoring sessions (spy.ts). */
  readonly spy: SpyDesk

  /** A bridged call by the caller's Call-ID or by its agent leg's. */
  private bridgedCall(id: string): { leg: CallerLeg; callId: string } | null {
    for (const call of this.calls.values()) {
      if (call.ended || !call.bridged || !call.agentSession) continue
      if (call.leg.callId === id || call.agentSession.request.callId === id) return { leg: call.leg, callId: call.leg.callId }
    }
    return null
  }

  async start(): Promise<void> {
    const { options } = this
    this.ua = new UserAgent({
      uri: UserAgent.makeURI(`sip:atende-media@${options.sipHost}`),
      viaHost: `${options.listenHost}`,
      contactName: CONTACT_USER,
      contactParams: { transport: 'udp' },
      userAgentString: 'Atende media app',
      logLevel: 'error',
      logBuiltinEnabled: false,
      noAnswerTimeout: 3600,
      transportConstructor: UdpTransport,
      transportOptions: {
        listenHost: options.listenHost,
        listenPort: options.listenPort,
        proxyHost: options.sipHost,
        proxyPort: options.sipPort,
        intercept: (message: string, reply: (text: string) => void) => this.intercept(message, reply),
      },
      sessionDescriptionHandlerFactory: (session: Session) => this.spy.sdhFor(session) ?? new RtpengineSdh(session, this.ng, (s) => this.legs.get(s)),
      delegate: { onInvite: (invitation) => this.guard(() => this.onInvite(invitation)) },
    })
    // The contact must carry our port (sip.js builds it from viaHost alone).
    this.ua.contact.uri.port = options.listenPort
    await this.ua.start()
    setTimeout(() => (this.adopting = false), 10_000).unref()
    const transport = this.ua.transport as unknown as UdpTransport
    this.adopted = new AdoptedDialogs({
      send: (text) => void transport.send(text).catch(() => {}),
      host: options.listenHost,
      port: options.listenPort,
      contactUser: CONTACT_USER,
      handlers: {
        onBye: (id, side) => this.guard(() => this.adoptedBye(id, side)),
        onDtmf: (id, digit) => this.send({ ev: 'dtmf', id, digit }),
        onReinvite: async (id, side, sdp) => {
          const call = this.calls.get(id)
          if (!call || call.ended || side !== 'caller') return null
          return reanswer(this.ng, call.leg, sdp)
        },
      },
    })

    const dtmf = dgram.createSocket({ type: 'udp4', reuseAddr: true })
    dtmf.on('message', (datagram) => this.guard(async () => this.onDtmfLog(datagram.toString())))
    await new Promise<void>((resolve, reject) => {
      dtmf.once('error', reject)
      dtmf.bind(options.dtmfPort, options.listenHost, () => resolve())
    })
    dtmf.on('error', () => {})
    this.dtmf = dtmf

    this.control = net.createServer((socket) => this.onClient(socket))
    await new Promise<void>((resolve, reject) => {
      this.control!.once('error', reject)
      this.control!.listen(options.controlPort, options.listenHost, () => resolve())
    })
    this.log(`media app ready: SIP udp:${options.listenHost}:${options.listenPort}, control ${options.controlPort}`)
  }

  async stop(): Promise<void> {
    await this.spy.stopAll()
    for (const call of [...this.calls.values()]) await this.end(call, 'app')
    this.client?.destroy()
    this.control?.close()
    this.dtmf?.close()
    await this.ua?.stop().catch(() => {})
    this.ng.close()
  }

  /** Runs a handler so that nothing it throws escapes into sip.js's transport and kills the process (lab trap). */
  private guard(work: () => Promise<void> | void): void {
    setImmediate(() => {
      try {
        Promise.resolve(work()).catch((error: unknown) => this.log(`media app: ${(error as Error).stack ?? String(error)}`))
      } catch (error) {
        this.log(`media app: ${(error as Error).stack ?? String(error)}`)
      }
    })
  }

  private send(event: WorkerEvent): void {
    this.client?.write(`${JSON.stringify(event)}\n`)
  }

  /**
   * Requests sip.js must not answer itself: OPTIONS are answered 200 here. In a dialog (Kamailio's dialog keepalive)
   * for any dialog: after a restart sip.js knows none and would answer 481, and Kamailio would then end calls that are
   * still talking through rtpengine. Out of a dialog: the supervisor's probe.
   */
  private intercept(message: string, reply: (text: string) => void): boolean | string {
    // A new call names its destination in the Request-URI's user (`queue.3`); sip.js answers 404 to any user but its
    // own, so the user moves into a header and the Request-URI becomes ours.
    const invite = /^INVITE sip:([^@\s;]+)@(\S+) SIP\/2\.0\r\n/.exec(message)
    if (invite && invite[1] !== CONTACT_USER) {
      const rest = message.slice(invite[0].length)
      return `INVITE sip:${CONTACT_USER}@${invite[2]} SIP/2.0\r\n${TARGET_HEADER}: ${invite[1]}\r\n${rest}`
    }
    if (this.adopted?.intercept(message, reply)) return true
    if (this.adopting && this.unknownDialog(message)) return true
    if (!message.startsWith('OPTIONS ')) return false
    const head = message.slice(0, message.indexOf('\r\n\r\n'))
    const lines = head.split('\r\n')
    const keep = lines.filter((line) => /^(Via|v|From|f|To|t|Call-ID|i|CSeq):/i.test(line))
    reply(['SIP/2.0 200 OK', ...keep, 'Content-Length: 0', '', ''].join('\r\n'))
    return true
  }

  /** An in-dialog request (To tag) of a Call-ID no call of this app has (before adoption: held back, see `adopting`). */
  private unknownDialog(message: string): boolean {
    if (!/^(BYE|INFO|INVITE|UPDATE|REFER|NOTIFY) /.test(message)) return false
    const callId = /^(?:Call-ID|i):\s*(\S+)/im.exec(message)?.[1]
    const to = /^(?:To|t):.*$/im.exec(message)?.[0] ?? ''
    if (!callId || !/;\s*tag=/i.test(to)) return false
    for (const call of this.calls.values()) if (call.leg.callId === callId || call.agentSession?.request.callId === callId) return false
    return true
  }

  private onClient(socket: net.Socket): void {
    this.client?.destroy()
    this.client = socket
    socket.setNoDelay(true)
    socket.on('error', () => {})
    socket.on('close', () => {
      if (this.client === socket) this.client = null
    })
    const lines = readline.createInterface({ input: socket })
    lines.on('error', () => {})
    lines.on('line', (line) => {
      const command = parseLine(WorkerCommandSchema, line)
      if (!command) return this.log(`media app: malformed command ${line.slice(0, 200)}`)
      this.guard(() => this.onCommand(command))
    })
    this.send({ ev: 'hello', calls: [...this.calls.keys()] })
  }

  private async onInvite(invitation: Invitation): Promise<void> {
    const request = invitation.request
    if (!this.client) {
      await invitation.reject({ statusCode: 503, reasonPhrase: 'Media App Unavailable' }).catch(() => {})
      return
    }
    const sink = dgram.createSocket('udp4')
    await new Promise<void>((resolve) => sink.bind(0, this.options.listenHost, () => resolve()))
    const leg: CallerLeg = {
      kind: 'caller',
      callId: request.callId,
      callerTag: request.fromTag,
      localTag: `ma${rnd()}`,
      callerSdp: '',
      callerWebRtc: false,
      sinkPort: sink.address().port,
      agent: null,
    }
    const call: Call = {
      leg,
      invitation,
      sink,
      agentSession: null,
      agentTarget: null,
      bridged: false,
      ended: false,
      playTimer: null,
      playToken: 0,
      recording: null,
      keep: false,
      callerDialog: null,
      agentDialog: null,
    }
    this.legs.set(invitation, leg)
    this.calls.set(leg.callId, call)
    invitation.delegate = {
      onBye: (bye) => {
        // accept() here, or the BYE is retransmitted; the session itself is touched only later (lab trap).
        void bye.accept().catch(() => {})
        this.guard(() => this.end(call, 'caller'))
      },
      onInfo: (info) => {
        void info.accept().catch(() => {})
        const digit = /Signal=\s*([0-9*#A-D])/i.exec(info.request.body ?? '')?.[1]
        if (digit) this.send({ ev: 'dtmf', id: leg.callId, digit: digit.toUpperCase() })
      },
    }
    invitation.stateChange.addListener((state) => {
      if (state === SessionState.Terminated) this.guard(() => this.end(call, 'caller'))
    })
    try {
      await invitation.accept()
    } catch (error) {
      this.log(`media app: answering ${leg.callId} failed: ${(error as Error).message}`)
      await this.end(call, 'app')
      return
    }
    this.send({ ev: 'call', id: leg.callId, user: request.getHeader(TARGET_HEADER) ?? '', from: request.from.uri.user ?? '', domain: request.from.uri.host })
    this.sendState(call)
  }

  /** The call's dialogs and rtpengine tags to the server (kept there for a restarted app's `adopt`). */
  private sendState(call: Call): void {
    if (call.ended) return
    const caller = call.invitation ? dialogOf(call.invitation) : call.callerDialog
    if (!caller) return
    const leg = call.leg
    const agentDialog = call.agentSession ? dialogOf(call.agentSession) : call.agentDialog
    const agent =
      call.bridged && leg.agent && agentDialog
        ? { dialog: agentDialog, target: call.agentTarget ?? '', branch: leg.agent.branch, localTag: leg.agent.localTag, lastAnswer: leg.agent.lastAnswer, keep: call.keep }
        : null
    const state: CallState = { caller, callerTag: leg.callerTag, localTag: leg.localTag, callerSdp: leg.callerSdp, callerWebRtc: leg.callerWebRtc, agent }
    this.send({ ev: 'state', id: leg.callId, state })
  }

  /**
   * Takes over a call a previous app held or bridged (its last `state`): its dialogs are answered by adopted.ts, its
   * media is where rtpengine kept it; a new sink stands in for the old one (a re-park uses it).
   */
  private async adopt(id: string, state: CallState): Promise<void> {
    if (this.calls.has(id) || !this.adopted) return
    const sink = dgram.createSocket('udp4')
    const leg: CallerLeg = {
      kind: 'caller',
      callId: id,
      callerTag: state.callerTag,
      localTag: state.localTag,
      callerSdp: state.callerSdp,
      callerWebRtc: state.callerWebRtc,
      sinkPort: 0,
      agent: state.agent ? { kind: 'agent', caller: null as unknown as CallerLeg, branch: state.agent.branch, localTag: state.agent.localTag, lastAnswer: state.agent.lastAnswer } : null,
    }
    if (leg.agent) leg.agent.caller = leg
    const call: Call = {
      leg,
      invitation: null,
      sink,
      agentSession: null,
      agentTarget: state.agent?.target ?? null,
      bridged: state.agent !== null,
      ended: false,
      playTimer: null,
      playToken: 0,
      recording: null,
      keep: state.agent?.keep ?? false,
      callerDialog: state.caller,
      agentDialog: state.agent?.dialog ?? null,
    }
    // In the map before the first await: the brain's next command (play) may come at once.
    this.calls.set(id, call)
    this.adopted.add(id, 'caller', state.caller)
    if (state.agent) this.adopted.add(id, 'agent', state.agent.dialog)
    await new Promise<void>((resolve) => sink.bind(0, this.options.listenHost, () => resolve()))
    leg.sinkPort = sink.address().port
    this.log(`media app: adopted ${id}${state.agent ? ' (bridged)' : ''}`)
  }

  /** A BYE on an adopted dialog (answered already): the caller's ends the call; the agent's, the bridge. */
  private async adoptedBye(id: string, side: AdoptedSide): Promise<void> {
    const call = this.calls.get(id)
    if (!call || call.ended) return
    if (side === 'caller') {
      call.callerDialog = null
      return this.end(call, 'caller')
    }
    call.agentDialog = null
    if (!call.keep || !call.bridged) return this.end(call, 'agent')
    call.bridged = false
    call.keep = false
    call.agentTarget = null
    call.leg.agent = null
    await this.repark(call)
    this.send({ ev: 'unbridged', id })
    this.sendState(call)
  }

  private onDtmfLog(text: string): void {
    let event: { callid?: string; source_tag?: string; event?: number }
    try {
      event = JSON.parse(text) as typeof event
    } catch {
      return
    }
    const call = event.callid ? this.calls.get(event.callid) : undefined
    if (!call || event.source_tag !== call.leg.callerTag || event.event === undefined) return
    const digit = DIGITS[event.event]
    if (digit) this.send({ ev: 'dtmf', id: call.leg.callId, digit })
  }

  private async onCommand(command: WorkerCommand): Promise<void> {
    if (command.cmd === 'originate') return this.originate(command)
    if (command.cmd === 'spy_start' || command.cmd === 'spy_mode' || command.cmd === 'spy_stop') return this.spy.command(command)
    if (command.cmd === 'adopt') return this.adopt(command.id, command.state)
    if (command.cmd === 'adopted') {
      this.adopting = false
      return
    }
    const call = this.calls.get(command.id)
    if (!call || call.ended) return
    switch (command.cmd) {
      case 'play':
        await this.play(call, command.files, command.loop, command.token)
        return
      case 'stop':
        await this.stopPlaying(call)
        return
      case 'bridge':
        call.keep = command.keep === true
        await this.bridge(call, command.target, command.headers, command.timeout)
        return
      case 'unbridge':
        if (call.agentSession && !call.bridged) await call.agentSession.cancel().catch(() => {})
        return
      case 'hangup':
        await this.end(call, 'app')
        return
      case 'record':
        this.record(call, command.file, command.maxMs)
        return
    }
  }

  /**
   * Calls a customer (the dialer): an INVITE with the dialer's Call-ID through Kamailio (call control routes it to the
   * campaign's trunk), offered from a parking sink so the customer's leg sits in rtpengine like a held caller's.
   * `originated` tells the final answer; an answered customer is then a call like any other (play, bridge, hang up).
   */
  private async originate(command: Extract<WorkerCommand, { cmd: 'originate' }>): Promise<void> {
    const { id, target, from, headers, timeout } = command
    const uri = UserAgent.makeURI(target)
    const fromUri = UserAgent.makeURI(from)
    if (this.calls.has(id) || !uri || !fromUri || !this.ua) {
      this.send({ ev: 'originated', id, code: this.calls.has(id) ? 482 : 400 })
      return
    }
    const sink = dgram.createSocket('udp4')
    await new Promise<void>((resolve) => sink.bind(0, this.options.listenHost, () => resolve()))
    const params = { callId: id, fromUri } as unknown as NonNullable<ConstructorParameters<typeof Inviter>[2]>['params']
    const inviter = new Inviter(this.ua, uri, { extraHeaders: headers, params, sessionDescriptionHandlerOptions: {} })
    const leg: CallerLeg = {
      kind: 'caller',
      callId: id,
      callerTag: '',
      // The sink's side of the rtpengine session is the INVITE's own From-tag.
      localTag: inviter.request.fromTag,
      callerSdp: '',
      callerWebRtc: false,
      sinkPort: sink.address().port,
      agent: null,
    }
    const customer: CustomerLeg = { kind: 'customer', caller: leg }
    this.legs.set(inviter, customer)
    const call: Call = {
      leg,
      invitation: inviter,
      sink,
      agentSession: null,
      agentTarget: null,
      bridged: false,
      ended: false,
      playTimer: null,
      playToken: 0,
      recording: null,
      keep: false,
      callerDialog: null,
      agentDialog: null,
    }
    this.calls.set(id, call)
    let code = 0
    let told = false
    const tell = (final: number) => {
      if (told) return
      told = true
      this.send({ ev: 'originated', id, code: final })
    }
    // Nobody answered within the dial time: cancelled, told as not answered (480).
    const ring = setTimeout(() => {
      if (inviter.state === SessionState.Establishing) {
        code = 480
        void inviter.cancel().catch(() => {})
      }
    }, timeout * 1000)
    inviter.delegate = {
      onBye: (bye) => {
        void bye.accept().catch(() => {})
        this.guard(() => this.end(call, 'caller'))
      },
      onInfo: (info) => {
        void info.accept().catch(() => {})
        const digit = /Signal=\s*([0-9*#A-D])/i.exec(info.request.body ?? '')?.[1]
        if (digit) this.send({ ev: 'dtmf', id, digit: digit.toUpperCase() })
      },
    }
    inviter.stateChange.addListener((state) => {
      if (state === SessionState.Established) {
        clearTimeout(ring)
        // Answered: from now on the customer's re-INVITEs are a caller's (sdh.ts).
        this.legs.set(inviter, leg)
        tell(200)
      }
      if (state === SessionState.Terminated) {
        clearTimeout(ring)
        // sip.js ends the session before it hands the request delegate the final answer: read the code after.
        this.guard(async () => {
          tell(code || 487)
          await this.end(call, 'caller')
        })
      }
    })
    try {
      await inviter.invite({
        requestDelegate: {
          onReject: (response) => {
            // Our own cancel's 487 stays the "not answered" it was.
            if (code !== 480) code = response.message.statusCode ?? 0
          },
        },
      })
    } catch (error) {
      this.log(`media app: calling ${target} failed: ${(error as Error).message}`)
      code = code || 500
      tell(code)
      await this.end(call, 'app')
    }
  }

  private async stopPlaying(call: Call): Promise<void> {
    call.playToken = -1
    if (call.playTimer) clearTimeout(call.playTimer)
    call.playTimer = null
    await this.ng.request({ command: 'stop media', 'call-id': call.leg.callId, 'from-tag': call.leg.callerTag }).catch(() => null)
  }

  /** Plays `files` in turn into the caller's leg (rtpengine's player; the answer says how long each lasts). */
  private async play(call: Call, files: string[], loop: boolean, token: number): Promise<void> {
    if (call.playTimer) clearTimeout(call.playTimer)
    call.playTimer = null
    call.playToken = token
    let index = 0
    const next = async (): Promise<void> => {
      if (call.ended || call.bridged || call.playToken !== token) return
      if (index >= files.length) {
        if (!loop || files.length === 0) {
          this.send({ ev: 'played', id: call.leg.callId, token })
          return
        }
        index = 0
      }
      const file = files[index++]!
      const answer = await this.ng.request({ command: 'play media', 'call-id': call.leg.callId, 'from-tag': call.leg.callerTag, file }).catch(() => null)
      const ms = answer?.result === 'ok' && typeof answer.duration === 'number' ? answer.duration : 0
      if (!answer || answer.result !== 'ok') this.log(`media app: cannot play ${file}: ${answer?.['error-reason'] ?? 'no answer'}`)
      if (call.ended || call.playToken !== token) return
      // A file that cannot play counts as a second of silence, so a broken list never spins.
      call.playTimer = setTimeout(() => this.guard(next), Math.max(ms, 1000) + 20)
    }
    await next()
  }

  private record(call: Call, file: string, maxMs: number): void {
    if (call.recording) return
    const chunks: Int16Array[] = []
    const started = Date.now()
    call.sink.on('message', (packet) => {
      if (!call.recording || packet.length < 12 || (packet[0]! & 0xc0) !== 0x80) return
      const payloadType = packet[1]! & 0x7f
      const csrc = (packet[0]! & 0x0f) * 4
      const extension = packet[0]! & 0x10 ? 4 + packet.readUInt16BE(14 + csrc) * 4 : 0
      const pcm = decodePayload(payloadType, packet.subarray(12 + csrc + extension))
      if (pcm) chunks.push(pcm)
    })
    const timer = setTimeout(() => this.guard(() => this.finishRecording(call)), maxMs)
    call.recording = { file, chunks, timer, started }
  }

  private async finishRecording(call: Call): Promise<void> {
    const recording = call.recording
    if (!recording) return
    call.recording = null
    clearTimeout(recording.timer)
    call.sink.removeAllListeners('message')
    const total = recording.chunks.reduce((n, chunk) => n + chunk.length, 0)
    const pcm = new Int16Array(total)
    let at = 0
    for (const chunk of recording.chunks) {
      pcm.set(chunk, at)
      at += chunk.length
    }
    await writeFile(recording.file, wavFile(pcm))
    this.send({ ev: 'recorded', id: call.leg.callId, file: recording.file, ms: Math.round((total / 8000) * 1000) })
  }

  private async bridge(call: Call, target: string, headers: string[], timeout: number): Promise<void> {
    if (call.agentSession) return
    await this.stopPlaying(call)
    const uri = UserAgent.makeURI(target)
    if (!uri || !this.ua) {
      this.send({ ev: 'bridge_failed', id: call.leg.callId, target, code: 400 })
      return
    }
    // The agent's phone shows who is calling: the caller's From user (not the app's own), on the caller's domain.
    const callerUri = call.invitation instanceof Inviter ? null : call.invitation ? call.invitation.request.from.uri : UserAgent.makeURI(call.callerDialog?.remoteUri ?? '')
    const fromUri = callerUri?.user ? UserAgent.makeURI(`sip:${callerUri.user}@${callerUri.host}`) : undefined
    const params = (fromUri ? { fromUri } : {}) as NonNullable<ConstructorParameters<typeof Inviter>[2]>['params']
    const inviter = new Inviter(this.ua, uri, { extraHeaders: headers, params, sessionDescriptionHandlerOptions: {} })
    const agent: AgentLeg = { kind: 'agent', caller: call.leg, branch: `ag${rnd()}`, localTag: `ag${rnd()}`, lastAnswer: null }
    this.legs.set(inviter, agent)
    call.agentSession = inviter
    call.agentTarget = target
    call.leg.agent = agent
    let code = 0
    const ring = setTimeout(() => {
      if (!call.bridged && inviter.state === SessionState.Establishing) void inviter.cancel().catch(() => {})
    }, timeout * 1000)
    inviter.delegate = {
      onBye: (bye) => {
        void bye.accept().catch(() => {})
        this.guard(() => this.agentGone(call, inviter))
      },
    }
    inviter.stateChange.addListener((state) => {
      if (state === SessionState.Established) {
        clearTimeout(ring)
        call.bridged = true
        this.send({ ev: 'bridged', id: call.leg.callId, target, leg: inviter.request.callId })
        this.sendState(call)
      }
      if (state === SessionState.Terminated) {
        clearTimeout(ring)
        if (call.bridged) this.guard(() => this.agentGone(call, inviter))
        else
          this.guard(async () => {
            // Back to the parking sink: the fork toward the agent goes, the caller's leg is answered to the sink again.
            call.agentSession = null
            call.agentTarget = null
            call.leg.agent = null
            if (call.ended) return
            await this.repark(call)
            this.send({ ev: 'bridge_failed', id: call.leg.callId, target, code: code || 487 })
          })
      }
    })
    try {
      await inviter.invite({
        requestDelegate: {
          onReject: (response) => {
            code = response.message.statusCode ?? 0
          },
        },
      })
    } catch (error) {
      this.log(`media app: bridging ${call.leg.callId} to ${target} failed: ${(error as Error).message}`)
      code = code || 500
    }
  }

  /** The bridged agent hung up: the caller too, unless the bridge said `keep` (parked again, the server told). */
  private async agentGone(call: Call, session: Inviter): Promise<void> {
    if (call.ended || call.agentSession !== session) return
    await this.spy.callEnded(call.leg.callId)
    if (!call.keep || !call.bridged) return this.end(call, 'agent')
    call.bridged = false
    call.keep = false
    call.agentSession = null
    call.agentTarget = null
    call.leg.agent = null
    await this.repark(call)
    this.send({ ev: 'unbridged', id: call.leg.callId })
    this.sendState(call)
  }

  /** After a failed bridge: the caller's leg is joined to its parking sink again, so music plays to it. */
  private async repark(call: Call): Promise<void> {
    const leg = call.leg
    await ngOk(this.ng, {
      command: 'offer',
      'call-id': leg.callId,
      'from-tag': leg.callerTag,
      'via-branch': 'park',
      sdp: leg.callerSdp,
      'transport-protocol': 'RTP/AVP',
      ICE: 'remove',
      flags: ['trust-address'],
      replace: ['origin', 'session-connection'],
    }).catch((e: unknown) => this.log(`media app: repark offer: ${(e as Error).message}`))
    await ngOk(this.ng, {
      command: 'answer',
      'call-id': leg.callId,
      'from-tag': leg.callerTag,
      'to-tag': leg.localTag,
      'via-branch': 'park',
      sdp: sinkSdp(leg.sinkPort, null),
      ...towards(leg.callerWebRtc),
    }).catch((e: unknown) => this.log(`media app: repark answer: ${(e as Error).message}`))
  }

  /** B2BUA teardown: the other leg is hung up, the rtpengine session deleted, the server told. */
  private async end(call: Call, by: 'caller' | 'agent' | 'app'): Promise<void> {
    if (call.ended) return
    call.ended = true
    await this.spy.callEnded(call.leg.callId)
    if (call.playTimer) clearTimeout(call.playTimer)
    if (call.recording) await this.finishRecording(call).catch(() => {})
    // An adopted call's dialogs: our own BYE (adopted.ts); a side that hung up itself was forgotten already.
    if (call.callerDialog) this.adopted?.bye(call.callerDialog.callId)
    if (call.agentDialog && !call.agentSession) this.adopted?.bye(call.agentDialog.callId)
    for (const session of [call.invitation, call.agentSession]) {
      if (!session) continue
      try {
        if (session.state === SessionState.Established) await session.bye()
        else if (session.state === SessionState.Establishing) {
          if (session instanceof Inviter) await session.cancel()
          else await (session as Invitation).reject({ statusCode: 480 })
        }
      } catch {
        // already gone
      }
    }
    await this.ng.request({ command: 'delete', 'call-id': call.leg.callId }).catch(() => null)
    call.sink.close()
    this.calls.delete(call.leg.callId)
    this.send({ ev: 'ended', id: call.leg.callId, by })
  }
}
