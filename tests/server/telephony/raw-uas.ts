import { randomBytes } from 'node:crypto'
import type { RawSip } from './stack.ts'

// The answering side of a raw SIP test peer (raw-sip-ua.ts is the calling side): waits for requests on its socket and
// answers them with whatever SDP a test needs, broken ones included, which no real phone would send.

const header = (message: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(message)?.[1]?.trim() ?? null

export const methodOf = (message: string) => /^([A-Z]+) \S+ SIP\/2\.0/.exec(message)?.[1] ?? null
export const callIdOf = (message: string) => header(message, 'Call-ID')
/** The body of a SIP message ('' when it has none). */
export const bodyOf = (message: string) => message.slice(message.indexOf('\r\n\r\n') + 4)

/** A reply to `request`: its Via, Record-Route, From, To (with `toTag` when it has none), Call-ID and CSeq. */
export function replyTo(request: string, status: number, reason: string, options: { toTag?: string; contact?: string; body?: string } = {}): string {
  const head = request.slice(0, request.indexOf('\r\n\r\n')).split('\r\n')
  const copied = head.filter((line) => /^(Via|v|Record-Route|From|f|Call-ID|i|CSeq):/i.test(line))
  const to = head.find((line) => /^(To|t):/i.test(line)) ?? ''
  const body = options.body ?? ''
  return [
    `SIP/2.0 ${status} ${reason}`,
    ...copied,
    options.toTag && !/;tag=/.test(to) ? `${to};tag=${options.toTag}` : to,
    ...(options.contact ? [`Contact: <${options.contact}>`] : []),
    ...(body ? ['Content-Type: application/sdp'] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n')
}

export class RawUas {
  readonly sip: RawSip
  readonly contact: string
  readonly toTag = randomBytes(4).toString('hex')
  /** Requests read while waiting for another one. */
  private readonly held: string[] = []

  constructor(sip: RawSip, user: string) {
    this.sip = sip
    this.contact = `sip:${user}@${sip.ip}:${sip.port}`
  }

  /** The next request of `method` (of `callId` when given), or null after `timeoutMs`; others are kept for later. */
  async next(method: string, timeoutMs: number, callId?: string): Promise<string | null> {
    const matches = (message: string) => methodOf(message) === method && (callId === undefined || callIdOf(message) === callId)
    const index = this.held.findIndex(matches)
    if (index >= 0) return this.held.splice(index, 1)[0]!
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const left = deadline - Date.now()
      if (left <= 0) return null
      const message = await this.sip.next(left)
      if (message === null) return null
      if (matches(message)) return message
      // Replies (to nothing this peer sent) are dropped; other requests wait for their turn.
      if (methodOf(message)) this.held.push(message)
    }
  }

  /** The next final reply of `callId` (requests read meanwhile are kept), or null after `timeoutMs`. */
  async finalReply(callId: string, timeoutMs: number): Promise<string | null> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const left = deadline - Date.now()
      if (left <= 0) return null
      const message = await this.sip.next(left)
      if (message === null) return null
      if (methodOf(message)) this.held.push(message)
      else if (callIdOf(message) === callId && Number(/^SIP\/2\.0 (\d{3})/.exec(message)?.[1]) >= 200) return message
    }
  }

  /**
   * A request from this peer in the dialog `invite` (which it answered) set up: to the caller's Contact through the
   * recorded route, with From and To swapped.
   */
  inDialog(invite: string, method: string, cseq: number, body = ''): string {
    const target = /<([^>]+)>/.exec(header(invite, 'Contact') ?? '')?.[1] ?? ''
    const routes = invite
      .split('\r\n')
      .filter((line) => /^Record-Route:/i.test(line))
      .map((line) => line.replace(/^Record-Route:/i, 'Route:'))
    return [
      `${method} ${target} SIP/2.0`,
      `Via: SIP/2.0/UDP ${this.sip.ip}:${this.sip.port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
      'Max-Forwards: 70',
      ...routes,
      `From: ${header(invite, 'To')};tag=${this.toTag}`,
      `To: ${header(invite, 'From')}`,
      `Call-ID: ${callIdOf(invite)}`,
      `CSeq: ${cseq} ${method}`,
      `Contact: <${this.contact}>`,
      ...(body ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n')
  }

  /** Answers `request` (its dialog's To tag and this peer's Contact added). */
  reply(request: string, status: number, reason: string, body?: string): void {
    this.sip.send(replyTo(request, status, reason, { toTag: this.toTag, contact: this.contact, body }))
  }
}
