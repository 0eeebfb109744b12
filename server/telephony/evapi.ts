import net from 'node:net'
import type { CallControl, DialogsEvent, FailureRequest, KamailioCommand, RouteDecision, RouteRequest, StatsEvent } from './types.ts'

// Node's side of Kamailio's evapi: one TCP connection to 127.0.0.1:EVAPI_PORT carrying JSON in netstrings
// (`<length>:<json>,`). Node is the client and reconnects for ever with back-off. Kamailio says `hello` when the
// connection opens; Node then pushes the credential and trunk tables (`onHello`). Every `route`/`failure` gets exactly
// one answer: the CallControl's decision, or a reject when it throws or is too slow, so no INVITE stays suspended.

export type EvapiLogger = {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  debug(obj: object, msg?: string): void
}

export type EvapiOptions = {
  host?: string
  port: number
  control: CallControl
  /** Pushes the full tables; called on every `hello` (each new connection). */
  onHello(): Promise<void>
  log: EvapiLogger
  /** A decision slower than this is answered 503 (Kamailio's transaction must not wait for ever). */
  decisionTimeoutMs?: number
  /** Kamailio's answers to `dialogs` (the Call-IDs without a dialog) and `stats`. */
  onDialogs?(event: DialogsEvent): void
  onStats?(event: StatsEvent): void
  /** Reconnect delays grow from min to max. */
  reconnectMinMs?: number
  reconnectMaxMs?: number
}

const MAX_FRAME_BYTES = 1024 * 1024
/** Node → Kamailio: "heard you" for events that get no answer (see onData); Kamailio ignores it. */
export const ACK_FRAME = netstringOf('{"cmd":"ack"}')

function netstringOf(text: string): Buffer {
  const body = Buffer.from(text)
  return Buffer.concat([Buffer.from(`${body.length}:`), body, Buffer.from(',')])
}

/** Encodes one message as a netstring. */
export function netstring(text: string): Buffer {
  return netstringOf(text)
}

/** Splits complete netstrings off the front of `buffer`; returns them and what is left. Throws on a malformed frame. */
export function takeNetstrings(buffer: Buffer): { frames: string[]; rest: Buffer } {
  const frames: string[] = []
  let at = 0
  for (;;) {
    const colon = buffer.indexOf(0x3a, at)
    if (colon < 0) {
      if (buffer.length - at > 10) throw new Error('evapi: netstring length too long')
      break
    }
    const lengthText = buffer.subarray(at, colon).toString()
    if (!/^\d{1,9}$/.test(lengthText)) throw new Error(`evapi: bad netstring length "${lengthText.slice(0, 20)}"`)
    const length = Number(lengthText)
    if (length > MAX_FRAME_BYTES) throw new Error('evapi: frame too large')
    const end = colon + 1 + length
    if (buffer.length < end + 1) break
    if (buffer[end] !== 0x2c) throw new Error('evapi: netstring without its comma')
    frames.push(buffer.subarray(colon + 1, end).toString())
    at = end + 1
  }
  return { frames, rest: buffer.subarray(at) }
}

export class EvapiClient {
  private readonly options: Required<Omit<EvapiOptions, 'host'>> & { host: string }
  private socket: net.Socket | null = null
  private buffer: Buffer = Buffer.alloc(0)
  private stopped = false
  private retryMs: number
  private retryTimer: NodeJS.Timeout | null = null
  private helloTimer: NodeJS.Timeout | null = null
  private connectedFlag = false
  /** Connections made so far (tests and the status read it). */
  connections = 0

  constructor(options: EvapiOptions) {
    this.options = {
      onDialogs: () => {},
      onStats: () => {},
      decisionTimeoutMs: 5000,
      reconnectMinMs: 200,
      reconnectMaxMs: 5000,
      host: '127.0.0.1',
      ...options,
    } as EvapiClient['options']
    this.retryMs = this.options.reconnectMinMs
  }

  get connected(): boolean {
    return this.connectedFlag
  }

  start(): void {
    this.stopped = false
    this.connect()
  }

  stop(): void {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    if (this.helloTimer) clearTimeout(this.helloTimer)
    this.retryTimer = null
    this.socket?.destroy()
    this.socket = null
    this.connectedFlag = false
  }

  /** Writes one command; false when no connection is open (the next `hello` pushes the tables again). */
  send(command: KamailioCommand): boolean {
    if (!this.socket || !this.connectedFlag) return false
    this.socket.write(netstring(JSON.stringify(command)))
    return true
  }

  private connect(): void {
    if (this.stopped) return
    const socket = net.connect({ host: this.options.host, port: this.options.port })
    this.socket = socket
    this.buffer = Buffer.alloc(0)
    socket.setNoDelay(true)
    socket.on('connect', () => {
      this.connectedFlag = true
      this.connections++
      this.retryMs = this.options.reconnectMinMs
      this.options.log.info({ port: this.options.port }, 'evapi: connected to Kamailio')
      // Kamailio greets with `hello`; should that frame be lost, push the tables anyway.
      this.helloTimer = setTimeout(() => this.hello(), 1500)
    })
    socket.on('data', (chunk) => this.onData(socket, chunk))
    socket.on('error', (error) => this.options.log.debug({ err: error.message }, 'evapi: socket error'))
    socket.on('close', () => {
      if (this.socket === socket) {
        this.socket = null
        if (this.connectedFlag) this.options.log.warn({ port: this.options.port }, 'evapi: connection to Kamailio closed')
        this.connectedFlag = false
      }
      if (this.helloTimer) clearTimeout(this.helloTimer)
      if (this.stopped) return
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs)
      this.retryMs = Math.min(this.retryMs * 2, this.options.reconnectMaxMs)
    })
  }

  private hello(): void {
    if (this.helloTimer) clearTimeout(this.helloTimer)
    this.helloTimer = null
    this.options.onHello().catch((err: unknown) => this.options.log.warn({ err }, 'evapi: pushing the tables failed'))
  }

  private onData(socket: net.Socket, chunk: Buffer): void {
    let frames: string[]
    try {
      const taken = takeNetstrings(Buffer.concat([this.buffer, chunk]))
      frames = taken.frames
      this.buffer = taken.rest
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'evapi: malformed frame; reconnecting')
      socket.destroy()
      return
    }
    // Kamailio writes to this socket with Nagle on: a message of its own waits until the previous one is
    // acknowledged, and the kernel delays an ACK that carries no data by up to 40 ms. A route question sent right
    // after an event we never answer (call progress, a registration) was held that long (bench/telephony.ts: INVITE
    // → agent p50 59 ms, of which 42 ms before Node heard of the call). Answering every chunk that brought only
    // such events with a tiny `ack` command lets the ACK ride on data at once.
    let unanswered = false
    for (const frame of frames) if (!this.onFrame(frame)) unanswered = true
    if (unanswered && this.connectedFlag) socket.write(ACK_FRAME)
  }

  /** Handles one frame; true when an answer to Kamailio will follow (a decision), false for what is never answered. */
  private onFrame(frame: string): boolean {
    let message: { event?: string } & Record<string, unknown>
    try {
      message = JSON.parse(frame)
    } catch {
      this.options.log.warn({ frame: frame.slice(0, 200) }, 'evapi: frame is not JSON')
      return false
    }
    switch (message.event) {
      case 'hello':
        this.hello()
        return false
      case 'route':
        void this.decide(message as unknown as RouteRequest, (control, request) => control.route(request as RouteRequest))
        return true
      case 'failure':
        void this.decide(message as unknown as FailureRequest, (control, request) => control.failure(request as FailureRequest))
        return true
      case 'dialogs':
      case 'stats':
        try {
          if (message.event === 'dialogs') this.options.onDialogs(message as unknown as DialogsEvent)
          else this.options.onStats(message as unknown as StatsEvent)
        } catch (err) {
          this.options.log.warn({ err }, `evapi: handling ${message.event} failed`)
        }
        return false
      case 'call':
      case 'registration':
        try {
          this.options.control.event(message as never)
        } catch (err) {
          this.options.log.warn({ err }, 'evapi: call control failed on an event')
        }
        return false
      default:
        this.options.log.debug({ frame: frame.slice(0, 200) }, 'evapi: unknown event')
        return false
    }
  }

  private async decide(
    request: RouteRequest | FailureRequest,
    ask: (control: CallControl, request: RouteRequest | FailureRequest) => Promise<RouteDecision>,
  ): Promise<void> {
    const { tindex, tlabel } = request
    if (!Number.isInteger(tindex) || !Number.isInteger(tlabel)) return
    let decision: RouteDecision
    let timer: NodeJS.Timeout | undefined
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('call control timed out')), this.options.decisionTimeoutMs)
      })
      decision = await Promise.race([ask(this.options.control, request), late])
    } catch (err) {
      this.options.log.warn({ err, call_id: request.call_id }, 'evapi: no routing decision; rejecting the call')
      decision = { action: 'reject', code: 503, reason: 'Service Unavailable' }
    } finally {
      clearTimeout(timer)
    }
    if (!this.send({ cmd: 'route', tindex, tlabel, ...decision })) {
      this.options.log.warn({ call_id: request.call_id }, 'evapi: decision made but Kamailio is gone')
    }
  }
}
