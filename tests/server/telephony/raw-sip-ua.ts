import { createHash, randomBytes } from 'node:crypto'
import type { RawSip } from './stack.ts'

// A minimal SIP user agent over a raw UDP socket (stack.ts rawSip) for the edge's tests: INVITEs with digest
// authentication and any SDP (broken ones included), the ACK of the answer, and a caller that vanishes without its BYE.

const md5 = (text: string) => createHash('md5').update(text).digest('hex')
const tag = () => randomBytes(4).toString('hex')
const branch = () => `z9hG4bK${randomBytes(6).toString('hex')}`

export const statusOf = (message: string | null) => (message ? Number(/^SIP\/2\.0 (\d{3})/.exec(message)?.[1]) : null)
const header = (message: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(message)?.[1]?.trim() ?? null

/** A plain audio offer from `ip:port` (PCMU, telephone-event). */
export function audioSdp(ip: string, port: number, extraMedia = 0): string {
  const lines = [
    'v=0',
    `o=- 1 1 IN IP4 ${ip}`,
    's=-',
    `c=IN IP4 ${ip}`,
    't=0 0',
    `m=audio ${port} RTP/AVP 0 101`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:101 telephone-event/8000',
    'a=sendrecv',
  ]
  for (let i = 1; i <= extraMedia; i++) lines.push(`m=audio ${port + i * 2} RTP/AVP 0`, 'a=rtpmap:0 PCMU/8000')
  return `${lines.join('\r\n')}\r\n`
}

export type InviteResult = {
  callId: string
  /** The final status (null: no final answer in time). */
  status: number | null
  final: string | null
  /** Every message received for this call. */
  received: string[]
}

export class RawUa {
  private readonly sip: RawSip
  private readonly target: number
  private readonly user: string
  private readonly password: string
  private readonly domain: string

  constructor(sip: RawSip, target: number, user: string, password: string, domain = 'localhost') {
    this.sip = sip
    this.target = target
    this.user = user
    this.password = password
    this.domain = domain
  }

  private request(
    method: string,
    uri: string,
    call: { callId: string; fromTag: string; cseq: number; toTag?: string; branch?: string },
    extra: string[],
    body = '',
  ): string {
    return [
      `${method} ${uri} SIP/2.0`,
      `Via: SIP/2.0/UDP ${this.sip.ip}:${this.sip.port};branch=${call.branch ?? branch()};rport`,
      'Max-Forwards: 70',
      `From: <sip:${this.user}@${this.domain}>;tag=${call.fromTag}`,
      `To: <${uri}>${call.toTag ? `;tag=${call.toTag}` : ''}`,
      `Call-ID: ${call.callId}`,
      `CSeq: ${call.cseq} ${method}`,
      `Contact: <sip:${this.user}@${this.sip.ip}:${this.sip.port}>`,
      'User-Agent: Atende edge test',
      ...extra,
      ...(body ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n')
  }

  /** The next message of `callId` (others are skipped), or null after `timeoutMs`. */
  private async nextOf(callId: string, timeoutMs: number): Promise<string | null> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const left = deadline - Date.now()
      if (left <= 0) return null
      const message = await this.sip.next(left)
      if (message === null) return null
      if (header(message, 'Call-ID') === callId) return message
    }
  }

  /**
   * INVITE `to` (an extension) with `sdp`, answering the 407 challenge; waits for the final answer and ACKs it. With
   * `ack: false` a 200 is left unacknowledged.
   */
  async invite(to: string, sdp: string, options: { timeoutMs?: number; ack?: boolean } = {}): Promise<InviteResult> {
    const uri = `sip:${to}@${this.domain}`
    const call = { callId: randomBytes(8).toString('hex'), fromTag: tag(), cseq: 1 }
    const received: string[] = []
    const firstBranch = branch()
    this.sip.send(this.request('INVITE', uri, { ...call, branch: firstBranch }, [], sdp))
    let challenge: string | null = null
    for (;;) {
      challenge = await this.nextOf(call.callId, 3000)
      if (challenge === null || (statusOf(challenge) ?? 0) >= 200) break
    }
    if (statusOf(challenge) !== 407) return { callId: call.callId, status: statusOf(challenge), final: challenge, received }
    this.sip.send(this.request('ACK', uri, { ...call, branch: firstBranch, toTag: /;tag=([^;\s]+)/.exec(header(challenge!, 'To') ?? '')?.[1] }, []))
    const nonce = /nonce="([^"]+)"/.exec(challenge!)![1]!
    const realm = /realm="([^"]+)"/.exec(challenge!)![1]!
    const ha1 = md5(`${this.user}:${realm}:${this.password}`)
    const response = md5(`${ha1}:${nonce}:${md5(`INVITE:${uri}`)}`)
    const auth = `Proxy-Authorization: Digest username="${this.user}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=MD5`
    const inviteBranch = branch()
    call.cseq = 2
    this.sip.send(this.request('INVITE', uri, { ...call, branch: inviteBranch }, [auth], sdp))
    let final: string | null = null
    const deadline = Date.now() + (options.timeoutMs ?? 10_000)
    while (Date.now() < deadline) {
      const message = await this.nextOf(call.callId, deadline - Date.now())
      if (message === null) break
      received.push(message)
      if ((statusOf(message) ?? 0) >= 200) {
        final = message
        break
      }
    }
    const status = statusOf(final)
    if (final && status !== null && status >= 300) {
      // A failure's ACK belongs to the INVITE's transaction (same branch).
      const toTag = /;tag=([^;\s]+)/.exec(header(final, 'To') ?? '')?.[1]
      this.sip.send(this.request('ACK', uri, { ...call, branch: inviteBranch, toTag }, []))
    }
    if (final && status === 200 && options.ack !== false) this.ack(final, call)
    return { callId: call.callId, status, final, received }
  }

  /** The ACK of a 200: to the callee's Contact, through the recorded route (reversed for the caller). */
  private ack(ok: string, call: { callId: string; fromTag: string; cseq: number }): void {
    const contact = /<([^>]+)>/.exec(header(ok, 'Contact') ?? '')?.[1] ?? ''
    const routes = ok
      .split('\r\n')
      .filter((line) => /^Record-Route:/i.test(line))
      .flatMap((line) => line.replace(/^Record-Route:\s*/i, '').split(/,(?=\s*<)/))
      .map((route) => route.trim())
      .reverse()
    const toTag = /;tag=([^;\s]+)/.exec(header(ok, 'To') ?? '')?.[1]
    const ack = this.request(
      'ACK',
      contact,
      { ...call, toTag },
      routes.map((route) => `Route: ${route}`),
    )
    // The To of an in-dialog request names the callee as the INVITE did, not its contact.
    this.sip.send(ack.replace(/^To: .*$/m, `To: ${header(ok, 'To')}`))
  }
}

/** REGISTER `user` over `sip`, answering the 401 with `password`: the final status, or null when nothing answers. */
export async function registerWithDigest(sip: RawSip, user: string, password: string, domain = 'localhost'): Promise<number | null> {
  const callId = randomBytes(8).toString('hex')
  const uri = `sip:${domain}`
  const message = (cseq: number, auth?: string) =>
    [
      `REGISTER ${uri} SIP/2.0`,
      `Via: SIP/2.0/UDP ${sip.ip}:${sip.port};branch=${branch()};rport`,
      'Max-Forwards: 70',
      `From: <sip:${user}@${domain}>;tag=${tag()}`,
      `To: <sip:${user}@${domain}>`,
      `Call-ID: ${callId}`,
      `CSeq: ${cseq} REGISTER`,
      `Contact: <sip:${user}@${sip.ip}:${sip.port}>;expires=60`,
      'User-Agent: Atende edge test',
      ...(auth ? [auth] : []),
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n')
  sip.send(message(1))
  const challenge = await sip.next(1500)
  if (statusOf(challenge) !== 401) return statusOf(challenge)
  const nonce = /nonce="([^"]+)"/.exec(challenge!)![1]!
  const ha1 = md5(`${user}:${domain}:${password}`)
  const response = md5(`${ha1}:${nonce}:${md5(`REGISTER:${uri}`)}`)
  sip.send(message(2, `Authorization: Digest username="${user}", realm="${domain}", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=MD5`))
  return statusOf(await sip.next(1500))
}
