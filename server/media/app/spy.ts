import dgram from 'node:dgram'
import { randomBytes } from 'node:crypto'
import { Inviter, SessionState, UserAgent } from 'sip.js'
import type { Session, SessionDescriptionHandler } from 'sip.js'
import type { NgClient } from '../../telephony/ng.ts'
import { decodePayload, encodeMuLaw } from '../../telephony/control/recordings/g711.ts'
import { ngOk, sinkSdp, towards } from './sdh.ts'
import type { CallerLeg } from './sdh.ts'
import { LISTEN_ONLY } from './protocol.ts'
import type { WorkerCommand, WorkerEvent } from './protocol.ts'

// Monitoring a bridged call (issue 19 item 1: listen, whisper, barge; README.md "Monitoring"). rtpengine 10.5 cannot
// mix two live streams into one leg (its mixing player came later), so the media app mixes: it re-pairs both
// monologues of the call's rtpengine session — the caller's and the agent leg's — with two local UDP ports of its
// own (the same offer/answer on an existing tag with a new via-branch the bridge uses), and from then on forwards
// every 20 ms, per mode:
//   caller hears  agent            (+ supervisor in barge)
//   agent hears   caller           (+ supervisor in whisper and barge)
//   supervisor    caller + agent
// The supervisor is a third leg: an INVITE through Kamailio to `spy.<user id>` (call control relays it to the
// supervisor's device; Kamailio anchors it like any leg, so a browser gets DTLS-SRTP). When the supervisor hangs up the
// caller and the agent are paired again directly, as before. G.711 µ-law toward the app's ports; RFC 4733 events are
// not forwarded while a session lasts (keys pressed then are lost).
// A call the app did not bridge (the agent took it directly) is forked instead (a copy of each side, listen only)
// unless the agent's phone is the browser webphone: then whisper and barge place a second leg to the AGENT
// (`whisper.<user id>`, header X-Atende-Monitor: whisper|barge and the session id), which the app sends the supervisor
// to; the browser plays it (whisper) and mixes it into what it sends the customer (barge). While that leg lasts the
// supervisor hears the customer's copy plus the agent's raw microphone from that leg, never the agent side's copy
// (which carries the supervisor in barge: an echo). A mode change goes on the leg as an INFO with X-Atende-Monitor;
// back to listen ends the leg.

export type SpyMode = 'listen' | 'whisper' | 'barge'

/** What the worker lends a monitoring session. */
export type SpyHost = {
  ua: () => UserAgent | null
  ng: NgClient
  listenHost: string
  send: (event: WorkerEvent) => void
  log: (line: string) => void
  guard: (work: () => Promise<void> | void) => void
  /** The bridged call `id` names (the caller's Call-ID or the agent leg's), with the caller's leg. */
  bridgedCall: (id: string) => { leg: CallerLeg; callId: string } | null
}

const FRAME = 160
const FRAME_MS = 20
/** At most this much audio waits per source (jitter); more is dropped from the front. */
const MAX_BUFFER = FRAME * 8
const rnd = () => randomBytes(5).toString('hex')
/** A fork whose two streams both fell silent this long is over (the call ended; G.711 never pauses on its own). */
const FORK_SILENCE_MS = 3000

/**
 * From an ng `query`'s `tags`: the newest two monologues paired with each other by offer/answer that have media (a
 * direct call's caller and callee; branches that never answered have no partner). rtpengine 10.5 lists a monologue's
 * partner under `subscriptions` (type offer/answer); older releases said `in dialogue with`.
 */
const hasMedia = (x: { medias?: unknown }) => Array.isArray(x.medias) && x.medias.length > 0

export function talkingPair(tags: unknown): [string, string] | null {
  if (!tags || typeof tags !== 'object') return null
  type Monologue = { created?: unknown; 'in dialogue with'?: unknown; subscriptions?: unknown; medias?: unknown }
  const all = tags as Record<string, Monologue>
  const partners = (info: Monologue): string[] => {
    const listed = Array.isArray(info.subscriptions)
      ? (info.subscriptions as { tag?: unknown; type?: unknown }[])
          .filter((s) => s?.type === 'offer/answer' && typeof s.tag === 'string')
          .map((s) => s.tag as string)
      : []
    return typeof info['in dialogue with'] === 'string' ? [...listed, info['in dialogue with']] : listed
  }
  let best: { pair: [string, string]; created: number } | null = null
  for (const [tag, info] of Object.entries(all)) {
    for (const other of partners(info ?? {})) {
      const partner = all[other]
      if (!partner || tag > other || !partners(partner).includes(tag)) continue
      if (!hasMedia(info) || !hasMedia(partner)) continue
      const created = Math.min(Number(info.created ?? 0), Number(partner.created ?? 0))
      if (!best || created >= best.created) best = { pair: [tag, other], created }
    }
  }
  return best?.pair ?? null
}

/**
 * Our answer to a subscription's offer: one receive-only m= line per offered one, on `ports` in order, accepting every
 * offered format (rtpengine 10.5 refuses a subscription answer that drops one, unless it may transcode); the mixer
 * decodes PCMU and PCMA, what every leg of the exchange speaks, and ignores the rest (telephone-event).
 */
export function forkAnswerSdp(offer: string, ports: number[]): string {
  const sections = offer.split(/\r?\n(?=m=)/).slice(1)
  let body = `v=0\r\no=atende-media ${Date.now()} 1 IN IP4 127.0.0.1\r\ns=atende-monitor\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n`
  sections.forEach((section, i) => {
    const m = /^m=(\S+) \d+ (\S+) ([^\r\n]+)/.exec(section)
    const kept = section.split(/\r?\n/).filter((line) => /^a=(rtpmap|fmtp|mid|ptime):/.test(line))
    // No port left (more m= lines than ours): that stream is refused with port 0.
    body += `m=${m?.[1] ?? 'audio'} ${ports[i] ?? 0} ${m?.[2] ?? 'RTP/AVP'} ${m?.[3] ?? '0'}\r\n${kept.map((line) => `${line}\r\n`).join('')}a=recvonly\r\n`
  })
  return body
}

/** One UDP port of the app in the media path: what arrives (decoded, buffered) and where it sends (RTP µ-law). */
class Port {
  readonly socket: dgram.Socket
  remote: { address: string; port: number } | null = null
  private buffer = new Int16Array(0)
  private primed = false
  private seq = Math.floor(Math.random() * 65535)
  private ts = Math.floor(Math.random() * 2 ** 31)
  private readonly ssrc = randomBytes(4).readUInt32BE(0)
  /** Packets received (tests, logs). */
  received = 0

  constructor(socket: dgram.Socket) {
    this.socket = socket
    socket.on('error', () => {})
    socket.on('message', (packet) => {
      if (packet.length < 12 || (packet[0]! & 0xc0) !== 0x80) return
      const payloadType = packet[1]! & 0x7f
      if (payloadType >= 72 && payloadType <= 76) return // RTCP on the RTP port
      const csrc = (packet[0]! & 0x0f) * 4
      const extension = packet[0]! & 0x10 ? 4 + packet.readUInt16BE(14 + csrc) * 4 : 0
      const pcm = decodePayload(payloadType, packet.subarray(12 + csrc + extension))
      if (!pcm) return
      this.received++
      const joined = new Int16Array(this.buffer.length + pcm.length)
      joined.set(this.buffer)
      joined.set(pcm, this.buffer.length)
      this.buffer = joined.length > MAX_BUFFER ? joined.slice(joined.length - MAX_BUFFER) : joined
    })
  }

  static async open(host: string): Promise<Port> {
    const socket = dgram.createSocket('udp4')
    await new Promise<void>((resolve) => socket.bind(0, host, () => resolve()))
    return new Port(socket)
  }

  get port(): number {
    return this.socket.address().port
  }

  /** The next 20 ms of what this side said, or null (nothing yet: two frames are kept as a jitter cushion first). */
  take(): Int16Array | null {
    if (!this.primed) {
      if (this.buffer.length < FRAME * 2) return null
      this.primed = true
    }
    if (this.buffer.length < FRAME) {
      this.primed = false
      return null
    }
    const frame = this.buffer.slice(0, FRAME)
    this.buffer = this.buffer.slice(FRAME)
    return frame
  }

  /** Sends the sum of `frames` (missing ones are silence), clipped, as one PCMU packet. */
  sendMix(frames: (Int16Array | null)[]): void {
    if (!this.remote) return
    const payload = Buffer.alloc(FRAME)
    for (let i = 0; i < FRAME; i++) {
      let sum = 0
      for (const frame of frames) if (frame) sum += frame[i]!
      payload[i] = encodeMuLaw(Math.max(-32768, Math.min(32767, sum)))
    }
    const header = Buffer.alloc(12)
    header[0] = 0x80
    header[1] = 0 // PCMU
    header.writeUInt16BE(this.seq, 2)
    header.writeUInt32BE(this.ts >>> 0, 4)
    header.writeUInt32BE(this.ssrc, 8)
    this.seq = (this.seq + 1) & 0xffff
    this.ts = (this.ts + FRAME) % 2 ** 32
    this.socket.send(Buffer.concat([header, payload]), this.remote.port, this.remote.address)
  }

  close(): void {
    try {
      this.socket.close()
    } catch {
      // closed
    }
  }
}

/** Where an SDP says to send audio (`c=` and the first `m=audio`). */
export function remoteOf(sdp: string): { address: string; port: number } | null {
  const address = /^c=IN IP4 (\S+)/m.exec(sdp)?.[1]
  const port = Number(/^m=audio (\d+)/m.exec(sdp)?.[1] ?? 0)
  return address && port > 0 ? { address, port } : null
}

/** The supervisor leg's description handler: our plain-RTP port offered, the answer read for where to send. */
class SpySdh implements SessionDescriptionHandler {
  private readonly port: Port
  private readonly onAnswer: () => void
  constructor(port: Port, onAnswer: () => void) {
    this.port = port
    this.onAnswer = onAnswer
  }
  hasDescription(contentType: string): boolean {
    return contentType === 'application/sdp'
  }
  close(): void {}
  async rollbackDescription(): Promise<void> {}
  sendDtmf(): boolean {
    return false
  }
  async setDescription(sdp: string): Promise<void> {
    this.port.remote = remoteOf(sdp)
    this.onAnswer()
  }
  async getDescription(): Promise<{ body: string; contentType: string }> {
    return { body: sinkSdp(this.port.port, null), contentType: 'application/sdp' }
  }
}

/** The second leg to the agent's browser (whisper and barge on a direct call). */
type Coach = {
  config: { target: string; headers: string[]; side: 'caller' | 'callee' }
  leg: { inviter: Inviter; port: Port; up: boolean } | null
  /** The fork port carrying the agent's side (identified by rtpengine's label), or null when unknown. */
  agentFork: 'caller' | 'agent' | null
}

type Session_ = {
  id: string
  callId: string
  /** The bridged call's caller leg; null for a fork (a call the app did not bridge: listen only). */
  leg: CallerLeg | null
  /** A fork: rtpengine's subscription (its to-tag, once subscribed) copying both monologues to our ports. */
  fork: { toTags: string[] } | null
  mode: SpyMode
  supervisor: Inviter
  caller: Port
  agent: Port
  sup: Port
  /** Both monologues re-paired with the app's ports (restored when the session ends). */
  inPath: boolean
  /** A fork whose agent takes whisper legs (browser webphone); null: listen only. */
  coach: Coach | null
  timer: NodeJS.Timeout | null
  ended: boolean
}

export class SpyDesk {
  private readonly sessions = new Map<string, Session_>()
  private readonly sdhs = new WeakMap<Session, SpySdh>()
  private readonly host: SpyHost

  constructor(host: SpyHost) {
    this.host = host
  }

  /** The description handler of a supervisor leg this desk placed (the worker's factory asks first). */
  sdhFor(session: Session): SessionDescriptionHandler | undefined {
    return this.sdhs.get(session)
  }

  /** Sessions of a call (tests, logs). */
  count(): number {
    return this.sessions.size
  }

  async command(command: Extract<WorkerCommand, { cmd: 'spy_start' | 'spy_mode' | 'spy_stop' }>): Promise<void> {
    if (command.cmd === 'spy_start') return this.start(command)
    const session = this.sessions.get(command.id)
    if (!session) return
    if (command.cmd === 'spy_stop') return this.finish(session, 'supervisor')
    if (session.fork && !session.coach) return
    session.mode = command.mode
    if (session.coach) await this.coachMode(session)
  }

  /** The monitored call is over (either party hung up, or the agent left): its sessions end, nothing is restored. */
  async callEnded(callId: string): Promise<void> {
    for (const session of [...this.sessions.values()]) {
      if (session.callId !== callId) continue
      session.inPath = false
      await this.finish(session, 'call')
    }
  }

  async stopAll(): Promise<void> {
    for (const session of [...this.sessions.values()]) await this.finish(session, 'app')
  }

  private async start(command: Extract<WorkerCommand, { cmd: 'spy_start' }>): Promise<void> {
    try {
      await this.place(command)
    } catch (error) {
      // Anything unforeseen still answers the server (which would otherwise wait for the supervisor's answer).
      this.host.log(`media app: monitoring ${command.call}: ${(error as Error).stack ?? String(error)}`)
      const session = this.sessions.get(command.id)
      if (session) await this.finish(session, 'app', false)
      this.host.send({ ev: 'spy_failed', id: command.id, code: 500, reason: 'Monitoring Failed' })
    }
  }

  private async place(command: Extract<WorkerCommand, { cmd: 'spy_start' }>): Promise<void> {
    const { id } = command
    const fail = (code: number, reason: string) => this.host.send({ ev: 'spy_failed', id, code, reason })
    const found = this.host.bridgedCall(command.call)
    const ua = this.host.ua()
    const uri = UserAgent.makeURI(command.target)
    if (this.sessions.has(id)) return fail(482, 'Already Monitoring')
    if (found && !found.leg.agent?.lastAnswer) return fail(409, 'Call Not Bridged Here')
    if (!ua || !uri) return fail(400, 'Bad Target')
    // A call the app did not bridge (the agent took it straight from Kamailio): rtpengine can copy its media to us
    // (a subscription) but not take ours into it, so only listening is possible.
    if (!found) {
      if (command.mode !== 'listen' && !command.coach) return fail(409, LISTEN_ONLY)
      if (!(await this.forkable(command.call))) return fail(409, 'Call Not Found')
    }
    const [caller, agent, sup] = await Promise.all([Port.open(this.host.listenHost), Port.open(this.host.listenHost), Port.open(this.host.listenHost)])
    const supervisor = new Inviter(ua, uri, { extraHeaders: command.headers, sessionDescriptionHandlerOptions: {} })
    const session: Session_ = {
      id,
      callId: found?.callId ?? command.call,
      leg: found?.leg ?? null,
      fork: found ? null : { toTags: [] },
      mode: command.mode,
      supervisor,
      caller,
      agent,
      sup,
      inPath: false,
      coach: !found && command.coach ? { config: command.coach, leg: null, agentFork: null } : null,
      timer: null,
      ended: false,
    }
    this.sessions.set(id, session)
    this.sdhs.set(supervisor, new SpySdh(sup, () => {}))
    let told = false
    supervisor.delegate = {
      onBye: (bye) => {
        void bye.accept().catch(() => {})
        this.host.guard(() => this.finish(session, 'supervisor'))
      },
    }
    supervisor.stateChange.addListener((state) => {
      if (state === SessionState.Established) {
        this.host.guard(async () => {
          try {
            if (session.fork) await this.enterFork(session)
            else await this.enterPath(session)
          } catch (error) {
            this.host.log(`media app: monitoring ${session.callId}: ${(error as Error).message}`)
            told = true
            fail(500, 'Media Path Failed')
            await this.finish(session, 'app', false)
            return
          }
          told = true
          this.host.send({ ev: 'spy_started', id, listenOnly: session.fork !== null && session.coach === null })
          if (session.coach && session.mode !== 'listen') await this.openCoach(session)
        })
      }
      if (state === SessionState.Terminated) {
        this.host.guard(async () => {
          if (!told) {
            told = true
            fail(480, 'Supervisor Did Not Answer')
          }
          await this.finish(session, 'supervisor', told)
        })
      }
    })
    try {
      await supervisor.invite()
    } catch (error) {
      this.host.log(`media app: calling the supervisor ${command.target} failed: ${(error as Error).message}`)
      if (!told) fail(500, 'Supervisor Call Failed')
      told = true
      await this.finish(session, 'app', false)
    }
  }

  /**
   * Re-pairs the caller's monologue with our `caller` port and the agent leg's with our `agent` port (an offer on each
   * tag with its last SDP and a new via-branch, answered by our port: the bridge's own move), then starts the mixer.
   */
  private async enterPath(session: Session_): Promise<void> {
    const leg = session.leg!
    const agentLeg = leg.agent!
    const ng = this.host.ng
    const callerBranch = `spc${rnd()}`
    const callerOffer = await ngOk(ng, {
      command: 'offer',
      'call-id': leg.callId,
      'from-tag': leg.callerTag,
      'via-branch': callerBranch,
      sdp: leg.callerSdp,
      ...towards(false),
    })
    await ngOk(ng, {
      command: 'answer',
      'call-id': leg.callId,
      'from-tag': leg.callerTag,
      'to-tag': `spc${rnd()}`,
      'via-branch': callerBranch,
      sdp: sinkSdp(session.caller.port, String(callerOffer.sdp)),
      ...towards(leg.callerWebRtc),
    })
    session.caller.remote = remoteOf(String(callerOffer.sdp))
    session.inPath = true
    // The agent leg answered our bridge offer, so its monologue only answers: a new monologue of ours offers to it
    // (an offer from the agent's own tag on a new via-branch crashes rtpengine 10.5), answered with its stored SDP.
    const ourTag = `spa${rnd()}`
    await ngOk(ng, {
      command: 'offer',
      'call-id': leg.callId,
      'from-tag': ourTag,
      'to-tag': agentLeg.localTag,
      'via-branch': ourTag,
      sdp: sinkSdp(session.agent.port, agentLeg.lastAnswer),
      ...towards(false),
    })
    const agentAnswer = await ngOk(ng, {
      command: 'answer',
      'call-id': leg.callId,
      'from-tag': ourTag,
      'to-tag': agentLeg.localTag,
      'via-branch': ourTag,
      sdp: agentLeg.lastAnswer!,
      ...towards(false),
    })
    session.agent.remote = remoteOf(String(agentAnswer.sdp))
    this.mix(session)
  }

  /** The two monologues talking to each other in rtpengine's session `callId` (newest pair) with their labels, or null. */
  private async talkingTags(callId: string): Promise<{ tags: [string, string]; labels: string[] } | null> {
    const answer = await this.host.ng.request({ command: 'query', 'call-id': callId }).catch(() => null)
    if (!answer || answer.result !== 'ok') return null
    const tags = talkingPair(answer.tags)
    if (!tags) return null
    const all = (answer.tags ?? {}) as Record<string, { label?: unknown }>
    return { tags, labels: tags.map((tag) => String(all[tag]?.label ?? '')) }
  }

  private async forkable(callId: string): Promise<boolean> {
    return (await this.talkingTags(callId)) !== null
  }

  /**
   * Listen-only: a subscription to both monologues (rtpengine offers one m= line per monologue, sending only), answered
   * with our `caller` and `agent` ports; the mixer then sends their sum to the supervisor and nothing into the call.
   */
  private async enterFork(session: Session_): Promise<void> {
    const talking = await this.talkingTags(session.callId)
    if (!talking) throw new Error('the call is gone')
    const fork = session.fork!
    // The agent's side (Kamailio labels the sides `caller` and `callee`) goes to the `agent` port.
    const agentAt = session.coach ? talking.labels.indexOf(session.coach.config.side) : -1
    const tags: string[] = agentAt === 0 ? [talking.tags[1], talking.tags[0]] : talking.tags
    if (session.coach) {
      session.coach.agentFork = agentAt === -1 ? null : 'agent'
      if (agentAt === -1) this.host.log(`media app: monitoring ${session.callId}: the agent's side is not labelled (${talking.labels.join(', ')})`)
    }
    // One subscription per monologue (rtpengine 10.5 refuses the answer to a two-monologue subscription), each answered
    // by one of our ports: the caller's copy to `caller`, the agent's to `agent`.
    for (const [i, tag] of tags.entries()) {
      const offer = await ngOk(this.host.ng, { command: 'subscribe request', 'call-id': session.callId, 'from-tag': tag, ...towards(false) })
      const toTag = String(offer['to-tag'] ?? '')
      if (!toTag) throw new Error('subscribe request gave no to-tag')
      fork.toTags.push(toTag)
      const port = i === 0 ? session.caller.port : session.agent.port
      await ngOk(this.host.ng, { command: 'subscribe answer', 'call-id': session.callId, 'to-tag': toTag, sdp: forkAnswerSdp(String(offer.sdp), [port]) })
    }
    this.mix(session)
  }

  /** The mode changed on a fork with a coachable agent: back to listen ends the leg, else it is placed or told. */
  private async coachMode(session: Session_): Promise<void> {
    const coach = session.coach!
    if (session.mode === 'listen') return this.closeCoach(session)
    if (!coach.leg) return this.openCoach(session)
    if (coach.leg.inviter.state !== SessionState.Established) return
    await coach.leg.inviter.info({ requestOptions: { extraHeaders: [`X-Atende-Monitor: ${session.mode}`] } }).catch((error: unknown) => {
      this.host.log(`media app: monitoring ${session.callId}: INFO to the agent failed: ${(error as Error).message}`)
    })
  }

  /** Calls the agent's browser (`whisper.<user id>` through Kamailio) for the supervisor's voice. */
  private async openCoach(session: Session_): Promise<void> {
    const coach = session.coach!
    const ua = this.host.ua()
    const uri = UserAgent.makeURI(coach.config.target)
    if (!ua || !uri || coach.leg || session.ended) return
    const port = await Port.open(this.host.listenHost)
    // Another mode change may have placed one meanwhile, or the session ended.
    if (coach.leg || session.ended || session.mode === 'listen') return port.close()
    const placedMode = session.mode
    const inviter = new Inviter(ua, uri, {
      extraHeaders: [...coach.config.headers, `X-Atende-Monitor: ${session.mode}`, `X-Atende-Monitor-Session: ${session.id}`],
      sessionDescriptionHandlerOptions: {},
    })
    const leg = { inviter, port, up: false }
    coach.leg = leg
    this.sdhs.set(inviter, new SpySdh(port, () => {}))
    inviter.delegate = {
      onBye: (bye) => {
        void bye.accept().catch(() => {})
      },
    }
    inviter.stateChange.addListener((state) => {
      if (state === SessionState.Established) {
        leg.up = true
        this.host.log(`media app: monitoring ${session.callId}: the agent's leg is up`)
        // The mode may have changed while it rang: back to listen ends it, the other mode is told.
        if (session.mode === 'listen' || session.ended) this.host.guard(() => this.closeCoach(session))
        else if (session.mode !== placedMode) this.host.guard(() => this.coachMode(session))
      }
      if (state === SessionState.Terminated) {
        leg.up = false
        port.close()
        if (coach.leg === leg) coach.leg = null
      }
    })
    try {
      await inviter.invite()
    } catch (error) {
      this.host.log(`media app: calling the agent ${coach.config.target} failed: ${(error as Error).message}`)
      if (coach.leg === leg) coach.leg = null
      port.close()
    }
  }

  private async closeCoach(session: Session_): Promise<void> {
    const leg = session.coach?.leg
    if (!leg) return
    session.coach!.leg = null
    leg.up = false
    try {
      if (leg.inviter.state === SessionState.Established) await leg.inviter.bye()
      else if (leg.inviter.state === SessionState.Establishing) await leg.inviter.cancel()
    } catch {
      // already gone
    }
    leg.port.close()
  }

  /** Every 20 ms (by the clock, so a late timer catches up): one frame from each side, one to each listener. */
  private mix(session: Session_): void {
    let next = Date.now()
    // A fork learns that the call ended from its media: rtpengine stops copying when Kamailio deletes the call.
    let heardAt = next
    let heard = 0
    const tick = () => {
      if (session.ended) return
      const now = Date.now()
      if (session.fork) {
        const received = session.caller.received + session.agent.received
        if (received !== heard) {
          heard = received
          heardAt = now
        } else if (now - heardAt > FORK_SILENCE_MS) {
          this.host.guard(() => this.finish(session, 'call'))
          return
        }
      }
      let frames = 0
      while (next <= now && frames < 10) {
        const fromCaller = session.caller.take()
        const fromAgent = session.agent.take()
        const fromSup = session.sup.take()
        const mode = session.mode
        const coach = session.coach
        if (coach) {
          // A fork with a leg to the agent: the supervisor goes to that leg; the supervisor hears the customer's copy and
          // the agent's own microphone from the leg instead of the agent side's copy (the browser mixes the supervisor
          // into that in barge).
          const leg = coach.leg?.up ? coach.leg : null
          const fromLeg = leg ? leg.port.take() : null
          if (leg) leg.port.sendMix([mode === 'listen' ? null : fromSup])
          const agentHeard = leg && coach.agentFork === 'agent' ? fromLeg : fromAgent
          session.sup.sendMix([fromCaller, agentHeard])
        } else {
          session.caller.sendMix([fromAgent, mode === 'barge' ? fromSup : null])
          session.agent.sendMix([fromCaller, mode === 'listen' ? null : fromSup])
          session.sup.sendMix([fromCaller, fromAgent])
        }
        next += FRAME_MS
        frames++
      }
      if (next <= now) next = now + FRAME_MS
      session.timer = setTimeout(tick, Math.max(1, next - Date.now()))
    }
    tick()
  }

  /** Ends a session: the mixer stops, the caller and the agent are paired directly again, the supervisor hung up. */
  private async finish(session: Session_, by: 'supervisor' | 'call' | 'app', tell = true): Promise<void> {
    if (session.ended) return
    session.ended = true
    if (session.timer) clearTimeout(session.timer)
    this.sessions.delete(session.id)
    for (const toTag of session.fork?.toTags ?? []) {
      await ngOk(this.host.ng, { command: 'unsubscribe', 'call-id': session.callId, 'to-tag': toTag }).catch(() => {})
    }
    const leg = session.leg
    if (session.inPath && leg?.agent?.lastAnswer) {
      // The hold path's pairing (sdh.ts): the caller's tag with the agent's, the stored SDPs on both sides.
      const agentLeg = leg.agent
      await ngOk(this.host.ng, {
        command: 'offer',
        'call-id': leg.callId,
        'from-tag': leg.callerTag,
        'to-tag': agentLeg.localTag,
        'via-branch': agentLeg.branch,
        sdp: leg.callerSdp,
        ...towards(false),
      }).catch((e: unknown) => this.host.log(`media app: monitoring restore offer: ${(e as Error).message}`))
      await ngOk(this.host.ng, {
        command: 'answer',
        'call-id': leg.callId,
        'from-tag': leg.callerTag,
        'to-tag': agentLeg.localTag,
        'via-branch': agentLeg.branch,
        sdp: agentLeg.lastAnswer!,
        ...towards(leg.callerWebRtc),
      }).catch((e: unknown) => this.host.log(`media app: monitoring restore answer: ${(e as Error).message}`))
    }
    await this.closeCoach(session)
    const supervisor = session.supervisor
    try {
      if (supervisor.state === SessionState.Established) await supervisor.bye()
      else if (supervisor.state === SessionState.Establishing) await supervisor.cancel()
    } catch {
      // already gone
    }
    for (const port of [session.caller, session.agent, session.sup]) port.close()
    if (tell) this.host.send({ ev: 'spy_ended', id: session.id, by })
  }
}
