import { randomBytes } from 'node:crypto'
import type { Session } from 'sip.js'
import type { NgClient } from '../../telephony/ng.ts'
import type { DialogInfo } from './protocol.ts'
import { mirrored, ngOk, sinkSdp, towards } from './sdh.ts'
import type { CallerLeg } from './sdh.ts'

// Dialogs the media app answers without sip.js: the calls a restarted app re-adopts (README.md "Surviving a restart").
// The server's brain keeps each held or bridged call's dialogs (the `state` event) and hands them back to a new app
// (`adopt`); sip.js cannot take a dialog it did not build, so their in-dialog requests are answered here, on the raw
// datagrams, before sip.js sees them: BYE (200, then the other leg is ended), INFO (DTMF), re-INVITE (hold/resume,
// answered through rtpengine by the worker), ACK; and the app's own BYEs are sent here and retransmitted (RFC 3261
// timer E) until answered.

const rnd = () => randomBytes(6).toString('hex')
const COMPACT: Record<string, string> = { i: 'call-id', f: 'from', t: 'to', v: 'via', l: 'content-length', c: 'content-type', m: 'contact' }

/** The sip.js dialog of an established session, as the brain keeps it. */
export function dialogOf(session: Session): DialogInfo | null {
  const dialog = session.dialog as unknown as
    | { callId: string; localTag: string; remoteTag: string; localURI: object; remoteURI: object; remoteTarget: object; routeSet: string[]; localSequenceNumber?: number }
    | undefined
  if (!dialog) return null
  return {
    callId: dialog.callId,
    localTag: dialog.localTag,
    remoteTag: dialog.remoteTag,
    localUri: dialog.localURI.toString(),
    remoteUri: dialog.remoteURI.toString(),
    remoteTarget: dialog.remoteTarget.toString(),
    routeSet: [...dialog.routeSet],
    cseq: dialog.localSequenceNumber ?? 0,
  }
}

export type SipMessage = {
  /** The request's method, or null for a response. */
  method: string | null
  status: number
  headers: Map<string, string[]>
  /** The head's lines as received (Via lines are copied into answers). */
  lines: string[]
  body: string
}

export function parseSip(text: string): SipMessage | null {
  const split = text.indexOf('\r\n\r\n')
  if (split < 0) return null
  const lines = text.slice(0, split).split('\r\n')
  const first = lines[0] ?? ''
  const response = /^SIP\/2\.0 (\d{3})/.exec(first)
  const request = /^([A-Z]+) \S+ SIP\/2\.0$/.exec(first)
  if (!response && !request) return null
  const headers = new Map<string, string[]>()
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    if (colon < 0) continue
    const raw = line.slice(0, colon).trim().toLowerCase()
    const name = COMPACT[raw] ?? raw
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()])
  }
  return { method: request ? request[1]! : null, status: response ? Number(response[1]) : 0, headers, lines, body: text.slice(split + 4) }
}

const header = (message: SipMessage, name: string) => message.headers.get(name)?.[0] ?? ''
const tagOf = (value: string) => /;\s*tag=([^;>\s]+)/i.exec(value)?.[1] ?? ''

export type AdoptedSide = 'caller' | 'agent'

type Entry = { dialog: DialogInfo; side: AdoptedSide; call: string; gone: boolean }

export type AdoptedHandlers = {
  /** A BYE ended that side (already answered 200). */
  onBye: (call: string, side: AdoptedSide) => void
  onDtmf: (call: string, digit: string) => void
  /** A re-INVITE: the answer's SDP (null: 488). */
  onReinvite: (call: string, side: AdoptedSide, sdp: string) => Promise<string | null>
}

export class AdoptedDialogs {
  private readonly byCallId = new Map<string, Entry>()
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; tries: number }>()
  private readonly send: (text: string) => void
  private readonly via: string
  private readonly contact: string
  private readonly handlers: AdoptedHandlers

  constructor(options: { send: (text: string) => void; host: string; port: number; contactUser: string; handlers: AdoptedHandlers }) {
    this.send = options.send
    this.via = `${options.host}:${options.port}`
    this.contact = `<sip:${options.contactUser}@${options.host}:${options.port};transport=udp>`
    this.handlers = options.handlers
  }

  add(call: string, side: AdoptedSide, dialog: DialogInfo): void {
    this.byCallId.set(dialog.callId, { dialog: { ...dialog, routeSet: [...dialog.routeSet] }, side, call, gone: false })
  }

  has(callId: string): boolean {
    return this.byCallId.get(callId)?.gone === false
  }

  /** Ends the dialog from our side: a BYE, retransmitted until answered (at most 7 times, 32 s). */
  bye(callId: string): void {
    const entry = this.byCallId.get(callId)
    if (!entry || entry.gone) return
    this.retire(entry)
    const d = entry.dialog
    d.cseq += 1
    const branch = `z9hG4bK${rnd()}`
    const text = [
      `BYE ${d.remoteTarget} SIP/2.0`,
      `Via: SIP/2.0/UDP ${this.via};rport;branch=${branch}`,
      ...(d.routeSet.length ? [`Route: ${d.routeSet.join(', ')}`] : []),
      'Max-Forwards: 70',
      `From: <${d.localUri}>;tag=${d.localTag}`,
      `To: <${d.remoteUri}>;tag=${d.remoteTag}`,
      `Call-ID: ${d.callId}`,
      `CSeq: ${d.cseq} BYE`,
      'User-Agent: Atende media app',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n')
    const key = `${d.callId} ${d.cseq}`
    const again = (tries: number, wait: number) => {
      this.send(text)
      if (tries >= 7) return void this.pending.delete(key)
      const timer = setTimeout(() => again(tries + 1, Math.min(wait * 2, 4000)), wait)
      timer.unref()
      this.pending.set(key, { timer, tries })
    }
    again(1, 500)
  }

  /** Forgets a side the app no longer answers for, but answers its retransmitted BYE for 32 s. */
  private retire(entry: Entry): void {
    entry.gone = true
    setTimeout(() => {
      if (this.byCallId.get(entry.dialog.callId) === entry) this.byCallId.delete(entry.dialog.callId)
    }, 32_000).unref()
  }

  /** True when the datagram belongs to an adopted dialog and was handled here. */
  intercept(text: string, reply: (text: string) => void): boolean {
    if (this.byCallId.size === 0) return false
    const message = parseSip(text)
    if (!message) return false
    const callId = header(message, 'call-id')
    const entry = this.byCallId.get(callId)
    if (!entry) return false
    if (message.method === null) {
      // An answer to one of our BYEs.
      const cseq = /^(\d+)\s+BYE/i.exec(header(message, 'cseq'))
      if (!cseq) return true
      const key = `${callId} ${cseq[1]}`
      const pending = this.pending.get(key)
      if (pending && message.status >= 200) {
        clearTimeout(pending.timer)
        this.pending.delete(key)
      }
      return true
    }
    // A request of that dialog (our tag in To).
    if (tagOf(header(message, 'to')) !== entry.dialog.localTag) return false
    switch (message.method) {
      case 'ACK':
        return true
      case 'BYE':
        reply(this.answer(message, 200, 'OK'))
        if (!entry.gone) {
          this.retire(entry)
          this.handlers.onBye(entry.call, entry.side)
        }
        return true
      case 'INFO': {
        reply(this.answer(message, 200, 'OK'))
        const digit = /Signal=\s*([0-9*#A-D])/i.exec(message.body)?.[1]
        if (digit && !entry.gone && entry.side === 'caller') this.handlers.onDtmf(entry.call, digit.toUpperCase())
        return true
      }
      case 'INVITE': {
        if (entry.gone) {
          reply(this.answer(message, 481, 'Call/Transaction Does Not Exist'))
          return true
        }
        reply(this.answer(message, 100, 'Trying'))
        void this.handlers
          .onReinvite(entry.call, entry.side, message.body)
          .catch(() => null)
          .then((sdp) => reply(sdp ? this.answer(message, 200, 'OK', sdp) : this.answer(message, 488, 'Not Acceptable Here')))
        return true
      }
      default:
        reply(this.answer(message, 200, 'OK'))
        return true
    }
  }

  private answer(request: SipMessage, status: number, reason: string, sdp?: string): string {
    const copied = request.lines.filter((line) => /^(Via|v|From|f|Call-ID|i|CSeq|Record-Route):/i.test(line))
    const to = request.lines.find((line) => /^(To|t):/i.test(line)) ?? ''
    return [
      `SIP/2.0 ${status} ${reason}`,
      ...copied,
      to,
      ...(status === 200 && sdp !== undefined ? [`Contact: ${this.contact}`, 'Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(sdp ?? '')}`,
      '',
      sdp ?? '',
    ].join('\r\n')
  }
}

/**
 * An adopted caller's re-INVITE (hold, resume) answered through rtpengine as sdh.ts answers a sip.js one: bridged, the
 * caller↔agent pairing is kept and the agent's last answer (its direction mirrored) is the answer; parked, the sink's.
 */
export async function reanswer(ng: NgClient, leg: CallerLeg, sdp: string): Promise<string> {
  const agent = leg.agent
  const base = { 'call-id': leg.callId, 'from-tag': leg.callerTag }
  if (agent?.lastAnswer) {
    await ngOk(ng, { command: 'offer', ...base, 'to-tag': agent.localTag, 'via-branch': agent.branch, sdp, ...towards(false) })
    leg.callerSdp = sdp
    const agentSdp = agent.lastAnswer.replace(/^a=(sendonly|recvonly|inactive|sendrecv)(?=\r?$)/m, `a=${mirrored(sdp)}`)
    const answer = await ngOk(ng, { command: 'answer', ...base, 'to-tag': agent.localTag, 'via-branch': agent.branch, sdp: agentSdp, ...towards(leg.callerWebRtc) })
    return String(answer.sdp)
  }
  await ngOk(ng, { command: 'offer', ...base, 'via-branch': 'park', sdp, ...towards(false) })
  leg.callerSdp = sdp
  const answer = await ngOk(ng, {
    command: 'answer',
    ...base,
    'to-tag': leg.localTag,
    'via-branch': 'park',
    sdp: sinkSdp(leg.sinkPort, null, mirrored(sdp)),
    ...towards(leg.callerWebRtc),
  })
  return String(answer.sdp)
}
