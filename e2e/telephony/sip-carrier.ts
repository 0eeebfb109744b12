import { randomBytes } from 'node:crypto'
import dgram from 'node:dgram'

// A small SIP carrier for the dialer's browser test (and bench/dialer.ts): a UDP user agent server that answers each
// INVITE by the number dialled — `answer` (180, then 200 with an SDP and a 440 Hz PCMU tone sent to the offer's
// address), `ringout` (180, then nothing until the caller's CANCEL: 487), or `busy` (486). An answered call lasts
// until the caller's BYE, or `talkMs` when given (the carrier hangs up). It remembers what it did per call so a test
// can compare the database with it.

export type CarrierOutcome = 'answer' | 'ringout' | 'busy'
export type CarrierCall = {
  callId: string
  number: string
  outcome: CarrierOutcome
  invitedAt: number
  answeredAt: number | null
  endedAt: number | null
  /** Who ended it: the caller (BYE, CANCEL) or the carrier (talk time over, a busy answer). */
  endedBy: 'caller' | 'carrier' | null
}

export type CarrierOptions = {
  port: number
  host?: string
  /** What the carrier does with a call to `number` (the Request-URI's user). */
  plan: (number: string) => CarrierOutcome
  /** ms between 180 and 200 of an answered call. */
  answerAfterMs?: number | ((number: string) => number)
  /** An answered call is hung up by the carrier after this long (ms); by default only the caller ends it. */
  talkMs?: (number: string) => number | null
  /**
   * What the answered party says: [ms, voiced] segments from the answer (a person's short "alô" then silence, a
   * machine's long greeting), silence after them; by default a tone all along.
   */
  speech?: (number: string) => [number, boolean][] | null
  /** The frequency of what the answered party sends (Hz; 440 by default): 1100 with `speech` 0.5 s on / 3 s off is a fax's CNG. */
  toneHz?: (number: string) => number
  /** RTP port range for the answered calls' media (one socket per call). */
  rtpPorts?: [number, number]
}

export type SipCarrier = {
  calls: CarrierCall[]
  /** Calls not over. */
  active(): number
  stop(): Promise<void>
}

type Dialog = {
  call: CarrierCall
  invite: string
  toTag: string
  lastResponse: string | null
  rtp: dgram.Socket | null
  rtpTimer: NodeJS.Timeout | null
  timers: NodeJS.Timeout[]
  acked: boolean
  /** Where the caller sends requests in the dialog (its Contact), through its Record-Route. */
  remote: { host: string; port: number }
}

const header = (message: string, name: string, short?: string) =>
  new RegExp(`^(?:${name}${short ? `|${short}` : ''})\\s*:\\s*(.*)$`, 'im').exec(message)?.[1]?.trim() ?? null
const methodOf = (message: string) => /^([A-Z]+) \S+ SIP\/2\.0/.exec(message)?.[1] ?? null
const bodyOf = (message: string) => message.slice(message.indexOf('\r\n\r\n') + 4)
const cseqOf = (message: string) => header(message, 'CSeq') ?? ''

/** PCMU (µ-law) of a 16-bit sample. */
function ulaw(sample: number): number {
  const BIAS = 0x84
  let sign = 0
  let s = sample
  if (s < 0) {
    sign = 0x80
    s = -s
  }
  s = Math.min(s, 32635) + BIAS
  let exponent = 7
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--
  const mantissa = (s >> (exponent + 3)) & 0x0f
  return ~(sign | (exponent << 4) | mantissa) & 0xff
}

export async function startSipCarrier(options: CarrierOptions): Promise<SipCarrier> {
  const host = options.host ?? '127.0.0.1'
  const socket = dgram.createSocket('udp4')
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(options.port, host, () => resolve())
  })
  const dialogs = new Map<string, Dialog>()
  const calls: CarrierCall[] = []
  let nextRtp = options.rtpPorts?.[0] ?? 0
  const contact = `sip:carrier@${host}:${options.port}`

  const send = (message: string, to: { host: string; port: number }) => socket.send(Buffer.from(message), to.port, to.host)

  function reply(dialog: Dialog | null, request: string, to: { host: string; port: number }, status: number, reason: string, body = ''): string {
    const head = request.slice(0, request.indexOf('\r\n\r\n')).split('\r\n')
    const copied = head.filter((line) => /^(Via|v|Record-Route|From|f|Call-ID|i|CSeq):/i.test(line))
    const toLine = head.find((line) => /^(To|t):/i.test(line)) ?? ''
    const tag = dialog && status > 100 && !/;tag=/i.test(toLine) ? `;tag=${dialog.toTag}` : ''
    const message = [
      `SIP/2.0 ${status} ${reason}`,
      ...copied,
      `${toLine}${tag}`,
      `Contact: <${contact}>`,
      ...(body ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n')
    send(message, to)
    return message
  }

  function sdp(port: number): string {
    const id = Date.now()
    return [
      'v=0',
      `o=carrier ${id} ${id} IN IP4 ${host}`,
      's=carrier',
      `c=IN IP4 ${host}`,
      't=0 0',
      `m=audio ${port} RTP/AVP 0 101`,
      'a=rtpmap:0 PCMU/8000',
      'a=rtpmap:101 telephone-event/8000',
      'a=sendrecv',
      '',
    ].join('\r\n')
  }

  async function openRtp(dialog: Dialog): Promise<number> {
    const rtp = dgram.createSocket('udp4')
    for (let tries = 0; ; tries++) {
      const port = options.rtpPorts ? nextRtp : 0
      if (options.rtpPorts) nextRtp = nextRtp + 2 > options.rtpPorts[1] ? options.rtpPorts[0] : nextRtp + 2
      try {
        await new Promise<void>((resolve, reject) => {
          rtp.once('error', reject)
          rtp.bind(port, host, () => resolve())
        })
        break
      } catch (err) {
        if (tries > 50) throw err
      }
    }
    rtp.on('error', () => {})
    dialog.rtp = rtp
    // The tone goes to the offer's address (rtpengine): a caller that checks the media hears the customer.
    const offer = bodyOf(dialog.invite)
    const to = { host: /^c=IN IP4 (\S+)/m.exec(offer)?.[1] ?? host, port: Number(/^m=audio (\d+)/m.exec(offer)?.[1] ?? 0) }
    if (to.port > 0) {
      let seq = 0
      let ts = 0
      const ssrc = randomBytes(4).readUInt32BE(0)
      let phase = 0
      const speech = options.speech?.(dialog.call.number) ?? null
      const hz = options.toneHz?.(dialog.call.number) ?? 440
      /** Whether the party speaks `ms` after the answer. */
      const voiced = (ms: number) => {
        if (!speech) return true
        for (const [length, on] of speech) {
          if (ms < length) return on
          ms -= length
        }
        return false
      }
      dialog.rtpTimer = setInterval(() => {
        const on = voiced(phase / 8)
        const packet = Buffer.alloc(12 + 160)
        packet[0] = 0x80
        packet[1] = 0
        packet.writeUInt16BE(seq++ & 0xffff, 2)
        packet.writeUInt32BE(ts >>> 0, 4)
        packet.writeUInt32BE(ssrc, 8)
        for (let i = 0; i < 160; i++) {
          packet[12 + i] = ulaw(on ? Math.round(Math.sin((2 * Math.PI * hz * phase) / 8000) * 8000) : 0)
          phase++
        }
        ts += 160
        rtp.send(packet, to.port, to.host)
      }, 20)
      dialog.rtpTimer.unref()
    }
    return rtp.address().port
  }

  function close(dialog: Dialog, by: 'caller' | 'carrier') {
    if (dialog.call.endedAt === null) {
      dialog.call.endedAt = Date.now()
      dialog.call.endedBy = by
    }
    for (const timer of dialog.timers) clearTimeout(timer)
    if (dialog.rtpTimer) clearInterval(dialog.rtpTimer)
    dialog.rtpTimer = null
    dialog.rtp?.close()
    dialog.rtp = null
  }

  /** The carrier hangs up an answered call: a BYE to the caller's Contact through its Record-Route. */
  function hangUp(dialog: Dialog) {
    if (dialog.call.endedAt !== null) return
    const invite = dialog.invite
    const target = /<([^>]+)>/.exec(header(invite, 'Contact', 'm') ?? '')?.[1] ?? ''
    const routes = invite
      .split('\r\n')
      .filter((line) => /^Record-Route:/i.test(line))
      .map((line) => line.replace(/^Record-Route:/i, 'Route:'))
    // Kamailio is our only neighbour: the first route (its address) or the Contact itself.
    const next = /sip:([^;>:]+):?(\d+)?/.exec(/<([^>]+)>/.exec(routes[0] ?? '')?.[1] ?? target)
    const bye = [
      `BYE ${target} SIP/2.0`,
      `Via: SIP/2.0/UDP ${host}:${options.port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
      'Max-Forwards: 70',
      ...routes,
      `From: ${header(invite, 'To', 't')};tag=${dialog.toTag}`,
      `To: ${header(invite, 'From', 'f')}`,
      `Call-ID: ${dialog.call.callId}`,
      'CSeq: 1 BYE',
      `Contact: <${contact}>`,
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n')
    send(bye, next ? { host: next[1]!, port: Number(next[2] ?? 5060) } : dialog.remote)
    close(dialog, 'carrier')
  }

  async function onInvite(message: string, from: { host: string; port: number }) {
    const callId = header(message, 'Call-ID', 'i') ?? ''
    const existing = dialogs.get(callId)
    if (existing) {
      // A retransmission gets the last answer again; a re-INVITE in the dialog, our SDP again.
      if (cseqOf(message) === cseqOf(existing.invite)) {
        if (existing.lastResponse) send(existing.lastResponse, from)
      } else if (existing.rtp) {
        reply(existing, message, from, 200, 'OK', sdp(existing.rtp.address().port))
      }
      return
    }
    const number = /^INVITE sip:([^@;>]+)@/.exec(message)?.[1] ?? ''
    const call: CarrierCall = { callId, number, outcome: options.plan(number), invitedAt: Date.now(), answeredAt: null, endedAt: null, endedBy: null }
    calls.push(call)
    const dialog: Dialog = {
      call,
      invite: message,
      toTag: randomBytes(4).toString('hex'),
      lastResponse: null,
      rtp: null,
      rtpTimer: null,
      timers: [],
      acked: false,
      remote: from,
    }
    dialogs.set(callId, dialog)
    reply(dialog, message, from, 100, 'Trying')
    if (call.outcome === 'busy') {
      dialog.lastResponse = reply(dialog, message, from, 486, 'Busy Here')
      close(dialog, 'carrier')
      return
    }
    dialog.lastResponse = reply(dialog, message, from, 180, 'Ringing')
    if (call.outcome === 'ringout') return
    const after = typeof options.answerAfterMs === 'function' ? options.answerAfterMs(number) : (options.answerAfterMs ?? 300)
    dialog.timers.push(
      setTimeout(() => {
        if (call.endedAt !== null) return
        void openRtp(dialog).then((port) => {
          if (call.endedAt !== null) return
          call.answeredAt = Date.now()
          dialog.lastResponse = reply(dialog, message, from, 200, 'OK', sdp(port))
          // The 200 is repeated until the ACK (RFC 3261 13.3.1.4).
          let interval = 500
          const resend = () => {
            if (dialog.acked || call.endedAt !== null) return
            send(dialog.lastResponse!, from)
            interval = Math.min(interval * 2, 4000)
            dialog.timers.push(setTimeout(resend, interval))
          }
          dialog.timers.push(setTimeout(resend, interval))
          const talk = options.talkMs?.(number) ?? null
          if (talk !== null) dialog.timers.push(setTimeout(() => hangUp(dialog), talk))
        })
      }, after),
    )
  }

  socket.on('message', (buffer, rinfo) => {
    const message = buffer.toString()
    const from = { host: rinfo.address, port: rinfo.port }
    const method = methodOf(message)
    if (!method) return // replies (to our BYE) need nothing
    const callId = header(message, 'Call-ID', 'i') ?? ''
    const dialog = dialogs.get(callId) ?? null
    switch (method) {
      case 'INVITE':
        void onInvite(message, from)
        return
      case 'ACK':
        if (dialog) dialog.acked = true
        return
      case 'CANCEL':
        reply(dialog, message, from, 200, 'OK')
        if (dialog && dialog.call.answeredAt === null && dialog.call.endedAt === null) {
          dialog.lastResponse = reply(dialog, dialog.invite, from, 487, 'Request Terminated')
          close(dialog, 'caller')
        }
        return
      case 'BYE':
        reply(dialog, message, from, 200, 'OK')
        if (dialog) close(dialog, 'caller')
        return
      case 'OPTIONS':
        reply(null, message, from, 200, 'OK')
        return
      default:
        reply(dialog, message, from, 200, 'OK')
    }
  })

  return {
    calls,
    active: () => calls.filter((call) => call.endedAt === null).length,
    async stop() {
      for (const dialog of dialogs.values()) close(dialog, 'carrier')
      await new Promise<void>((resolve) => socket.close(() => resolve()))
    },
  }
}
