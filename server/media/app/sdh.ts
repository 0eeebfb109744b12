import type { Session, SessionDescriptionHandler } from 'sip.js'
import type { NgClient } from '../../telephony/ng.ts'
import type { Bencodable, NgAnswer } from '../../telephony/ng.ts'

// sip.js's session-description handler for the media app: no WebRTC, every SDP is negotiated through rtpengine's ng
// protocol (proven in ../telephony-lab/mediaapp/). The leg model (README.md "Legs"):
// - a caller the app answers: ng call-id = the caller's Call-ID, the caller's from-tag, via-branch `park`; the other
//   side is the "sink" (a local port nothing reads), so rtpengine plays prompts and music into the caller's leg;
// - bridging: an ng `offer` with the caller's ORIGINAL offer on the caller's call-id and tag and a new via-branch (a
//   fork) gives the INVITE body toward the agent; the agent's answer (`answer`, new to-tag) joins the two. The caller
//   is never re-INVITEd. Kamailio anchors the agent leg itself (its own Call-ID, so its own rtpengine session).

export type CallerLeg = {
  kind: 'caller'
  callId: string
  callerTag: string
  localTag: string
  callerSdp: string
  callerWebRtc: boolean
  sinkPort: number
  /** The bridged agent leg, once its offer was made. */
  agent: AgentLeg | null
  /** The caller's re-INVITE direction while bridged (hold), for the answer. */
  reofferDir?: string
}

export type AgentLeg = {
  kind: 'agent'
  caller: CallerLeg
  branch: string
  localTag: string
  /** The agent's last answer (to answer a bridged caller's re-INVITE locally). */
  lastAnswer: string | null
}

/**
 * A customer the app calls (`originate`): the app offers from the parking sink (ng from-tag = the leg's `localTag`,
 * via-branch `park`); the customer's answer joins them. From then on the leg is a `CallerLeg` whose `callerTag` is the
 * customer's To-tag and `callerSdp` their answer, so playing, bridging and re-parking work as for a caller.
 */
export type CustomerLeg = { kind: 'customer'; caller: CallerLeg }

export type Leg = CallerLeg | AgentLeg | CustomerLeg

const PLAIN_RTP: Record<string, Bencodable> = {
  'transport-protocol': 'RTP/AVP',
  ICE: 'remove',
  'rtcp-mux': ['demux'],
  SDES: ['off'],
  flags: ['trust-address'],
  replace: ['origin', 'session-connection'],
}
const WEBRTC: Record<string, Bencodable> = {
  'transport-protocol': 'UDP/TLS/RTP/SAVPF',
  ICE: 'force',
  'rtcp-mux': ['offer', 'require'],
  SDES: ['off'],
  flags: ['trust-address', 'generate-mid'],
  replace: ['origin', 'session-connection'],
}
export const towards = (webrtc: boolean) => (webrtc ? WEBRTC : PLAIN_RTP)
export const isWebRtc = (sdp: string) => /UDP\/TLS\/RTP\/SAVPF/.test(sdp)
const direction = (sdp: string) => /^a=(sendonly|recvonly|inactive|sendrecv)/m.exec(sdp)?.[1] ?? 'sendrecv'
/** Our answer mirrors the offer's direction (hold: sendonly → recvonly), or browsers refuse it. */
export const mirrored = (sdp: string) =>
  ({ sendonly: 'recvonly', recvonly: 'sendonly', inactive: 'inactive', sendrecv: 'sendrecv' })[direction(sdp)] ?? 'sendrecv'

/** The parking sink: plain PCMU + telephone-event at a local port (the event's payload type copied from rtpengine's offer). */
export function sinkSdp(port: number, forSdp: string | null, dir = 'sendrecv'): string {
  const te = (forSdp && /a=rtpmap:(\d+) telephone-event\/8000/.exec(forSdp)?.[1]) || '101'
  return (
    `v=0\r\no=atende-media ${Date.now()} 1 IN IP4 127.0.0.1\r\ns=atende-media\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n` +
    `m=audio ${port} RTP/AVP 0 ${te}\r\na=rtpmap:0 PCMU/8000\r\na=rtpmap:${te} telephone-event/8000\r\na=fmtp:${te} 0-15\r\na=ptime:20\r\na=${dir}\r\n`
  )
}

export class NgError extends Error {}

export async function ngOk(ng: NgClient, message: { command: string } & Record<string, Bencodable | undefined>): Promise<NgAnswer> {
  const answer = await ng.request(message)
  if (answer.result !== 'ok') throw new NgError(`ng ${message.command} failed: ${answer['error-reason'] ?? answer.result}`)
  return answer
}

/** One per sip.js session; the leg it serves is found through `legOf`. */
export class RtpengineSdh implements SessionDescriptionHandler {
  private localOfferPending = false
  private remoteOfferDone = false
  private bridgedReoffer = false
  private readonly session: Session
  private readonly ng: NgClient
  private readonly legOf: (session: Session) => Leg | undefined
  constructor(session: Session, ng: NgClient, legOf: (session: Session) => Leg | undefined) {
    this.session = session
    this.ng = ng
    this.legOf = legOf
  }

  hasDescription(contentType: string): boolean {
    return contentType === 'application/sdp'
  }

  close(): void {
    // The app deletes the rtpengine session when the call ends.
  }

  async rollbackDescription(): Promise<void> {
    this.localOfferPending = false
  }

  sendDtmf(): boolean {
    return false
  }

  async setDescription(sdp: string): Promise<void> {
    const leg = this.legOf(this.session)
    if (!leg) throw new Error('media app: no leg for this session')
    if (!this.localOfferPending) {
      if (leg.kind !== 'caller') throw new Error('media app: an offer on an agent leg is not supported')
      const agent = leg.agent
      if (agent?.lastAnswer) {
        // A re-INVITE from a bridged caller (hold/resume): keep rtpengine's caller↔agent pairing (a naive park offer
        // re-links the caller to the sink and the agent never hears them again).
        leg.reofferDir = direction(sdp)
        await ngOk(this.ng, {
          command: 'offer',
          'call-id': leg.callId,
          'from-tag': leg.callerTag,
          'to-tag': agent.localTag,
          'via-branch': agent.branch,
          sdp,
          ...PLAIN_RTP,
        })
        leg.callerSdp = sdp
        this.bridgedReoffer = true
        this.remoteOfferDone = true
        return
      }
      leg.callerSdp = sdp
      leg.callerWebRtc = isWebRtc(sdp)
      await ngOk(this.ng, { command: 'offer', 'call-id': leg.callId, 'from-tag': leg.callerTag, 'via-branch': 'park', sdp, ...PLAIN_RTP })
      this.remoteOfferDone = true
      return
    }
    // The answer to our offer.
    this.localOfferPending = false
    if (leg.kind === 'customer') {
      const caller = leg.caller
      const tag = (this.session as unknown as { dialog?: { remoteTag?: string } }).dialog?.remoteTag
      if (!tag) throw new Error('media app: the customer answered without a To-tag')
      await ngOk(this.ng, {
        command: 'answer',
        'call-id': caller.callId,
        'from-tag': caller.localTag,
        'to-tag': tag,
        'via-branch': 'park',
        sdp,
        ...PLAIN_RTP,
      })
      caller.callerTag = tag
      caller.callerSdp = sdp
      caller.callerWebRtc = isWebRtc(sdp)
      return
    }
    if (leg.kind !== 'agent') throw new Error('media app: an answer on a caller leg is not supported')
    const caller = leg.caller
    await ngOk(this.ng, {
      command: 'answer',
      'call-id': caller.callId,
      'from-tag': caller.callerTag,
      'to-tag': leg.localTag,
      'via-branch': leg.branch,
      sdp,
      ...towards(caller.callerWebRtc),
      flags: ['trust-address'],
    })
    leg.lastAnswer = sdp
  }

  async getDescription(): Promise<{ body: string; contentType: string }> {
    const leg = this.legOf(this.session)
    if (!leg) throw new Error('media app: no leg for this session')
    if (leg.kind === 'caller' && this.remoteOfferDone && this.bridgedReoffer && leg.agent?.lastAnswer) {
      this.remoteOfferDone = false
      this.bridgedReoffer = false
      const agent = leg.agent
      const agentSdp = agent.lastAnswer!.replace(/^a=(sendonly|recvonly|inactive|sendrecv)(?=\r?$)/m, `a=${mirrored(leg.callerSdp)}`)
      const answer = await ngOk(this.ng, {
        command: 'answer',
        'call-id': leg.callId,
        'from-tag': leg.callerTag,
        'to-tag': agent.localTag,
        'via-branch': agent.branch,
        sdp: agentSdp,
        ...towards(leg.callerWebRtc),
      })
      return { body: String(answer.sdp), contentType: 'application/sdp' }
    }
    if (leg.kind === 'caller' && this.remoteOfferDone) {
      this.remoteOfferDone = false
      const answer = await ngOk(this.ng, {
        command: 'answer',
        'call-id': leg.callId,
        'from-tag': leg.callerTag,
        'to-tag': leg.localTag,
        'via-branch': 'park',
        sdp: sinkSdp(leg.sinkPort, null, mirrored(leg.callerSdp)),
        ...towards(leg.callerWebRtc),
      })
      return { body: String(answer.sdp), contentType: 'application/sdp' }
    }
    if (leg.kind === 'customer') {
      // Calling a customer: the parking sink offers; rtpengine's answer goes to the customer through Kamailio.
      this.localOfferPending = true
      const caller = leg.caller
      const offer = await ngOk(this.ng, {
        command: 'offer',
        'call-id': caller.callId,
        'from-tag': caller.localTag,
        'via-branch': 'park',
        sdp: sinkSdp(caller.sinkPort, null),
        ...PLAIN_RTP,
      })
      return { body: String(offer.sdp), contentType: 'application/sdp' }
    }
    if (leg.kind !== 'agent') throw new Error('media app: no offer to make on a caller leg')
    // Bridge: the caller's original offer, from the caller's tag, on a new via-branch; Kamailio anchors the agent leg.
    this.localOfferPending = true
    const caller = leg.caller
    const offer = await ngOk(this.ng, {
      command: 'offer',
      'call-id': caller.callId,
      'from-tag': caller.callerTag,
      'via-branch': leg.branch,
      sdp: caller.callerSdp,
      ...PLAIN_RTP,
    })
    return { body: String(offer.sdp), contentType: 'application/sdp' }
  }
}
