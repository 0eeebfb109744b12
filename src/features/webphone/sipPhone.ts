import * as SIP from 'sip.js'
import {
  CALL_HEADERS,
  type AudioDevices,
  type CallHeaders,
  type Coaching,
  type CreateSipPhone,
  type PhoneConfig,
  type PhoneEvent,
  type SipPhone,
} from '../../../machines/webphoneTypes.ts'
import { joinAddress } from '../../../contract/codes/transfer.ts'

// The browser's phone: sip.js 0.21 behind the small `SipPhone` interface the webphone machine drives
// (machines/webphoneTypes.ts). One UserAgent over the voip websocket (wss://host/ws/sip, digest user = endpoint), one
// Registerer (expires 300 s), one Inviter or Invitation per call, audio only. sip.js has no keepalive of its own: an
// OPTIONS goes out of dialog every 5 s and a failed one reports the transport down (and reconnects). Hold is a
// re-INVITE with the hold modifier, mute disables the microphone track, DTMF is RFC 4733 through the session
// description handler, a blind transfer a REFER, an attended one a REFER to the consultation's join address
// (contract/codes/transfer.ts; with Replaces only when the dialog cannot be written as one). A local conference mixes the
// chosen calls with Web Audio: each call is sent the microphone plus the other calls, the agent hears them all.
// A supervisor's coaching leg (the media app's INVITE with X-Atende-Monitor: whisper|barge and the session id, From
// `atende-media`; Kamailio removes X-Atende-* from everyone else's requests) is answered at once and silently, never
// reported as a call: whisper plays the supervisor, barge also mixes the supervisor into what every other established
// call is sent (mic + supervisor → MediaStreamAudioDestinationNode → replaceTrack); an INFO with X-Atende-Monitor
// switches the mode, and the leg's end gives the calls their microphone back. It sends the raw microphone (the
// supervisor hears the agent from it).
// Everything from sip.js and the browser comes in through `SipPhoneDeps`, so tests run it with fakes.

/** The media app's From user (server/media/app/worker.ts). */
export const MEDIA_APP_USER = 'atende-media'
export const MONITOR_HEADER = 'X-Atende-Monitor'
export const MONITOR_SESSION_HEADER = 'X-Atende-Monitor-Session'
export const MONITOR_SUPERVISOR_HEADER = 'X-Atende-Monitor-Supervisor'
/** On the supervisor's own monitoring leg: the agent listened to. */
export const MONITOR_AGENT_HEADER = 'X-Atende-Monitor-Agent'

/** The coaching an INVITE asks for, or null: only the media app's, with a session id and mode whisper or barge. */
export function coachingOf(invitation: {
  request: { getHeader(name: string): string | undefined }
  remoteIdentity: { uri: { user?: string } }
}): Coaching | null {
  const mode = invitation.request.getHeader(MONITOR_HEADER)?.trim()
  const session = invitation.request.getHeader(MONITOR_SESSION_HEADER)?.trim() ?? ''
  if (invitation.remoteIdentity.uri.user !== MEDIA_APP_USER || !/^[0-9a-f]{16}$/.test(session)) return null
  if (mode !== 'whisper' && mode !== 'barge') return null
  return { mode, supervisor: (invitation.request.getHeader(MONITOR_SUPERVISOR_HEADER) ?? '').trim().slice(0, 80) }
}

export const REGISTER_EXPIRES_S = 300
export const KEEPALIVE_MS = 5000
/** Spec 000 §9: ICE gathering ends 500 ms after the last candidate. */
export const ICE_GATHERING_TIMEOUT_MS = 500

// ---- the parts of sip.js the adapter uses (the real module satisfies them) -------------------------------------

type Emitter<T> = { addListener(listener: (value: T) => void): void }
type ResponseLike = { message: { statusCode?: number; reasonPhrase?: string; callId: string; getHeader(name: string): string | undefined } }
type RequestDelegate = { onAccept?(response: ResponseLike): void; onProgress?(response: ResponseLike): void; onReject?(response: ResponseLike): void }
/** A NOTIFY of a REFER's progress (RFC 3515): its body is a message/sipfrag status line. */
export type ReferNotificationLike = { request: { body?: string }; accept(): unknown }

type SdhLike = {
  sendDtmf(tones: string, options?: { duration: number; interToneGap: number }): boolean
  peerConnection?: RTCPeerConnection
  remoteMediaStream?: MediaStream
}

/** An INFO received (sip.js Info). */
export type InfoLike = { request: { getHeader(name: string): string | undefined }; accept(): Promise<unknown> }

/** A REFER received (sip.js Referral): where the far end sends us, and its answer. */
export type ReferralLike = { referTo: { uri: { user?: string; host?: string } }; accept(): Promise<unknown>; reject(): Promise<unknown> }

export type SessionLike = {
  state: string
  stateChange: Emitter<string>
  sessionDescriptionHandler?: SdhLike
  /** The confirmed dialog (sip.js SessionDialog): what an attended transfer's join address names. */
  dialog?: { callId: string; localTag: string; remoteTag: string }
  /** sip.js hands a REFER received in the call's dialog to `onRefer` (the far end transfers us), an INFO to `onInfo`. */
  delegate?: { onRefer?(referral: ReferralLike): void; onInfo?(info: InfoLike): void }
  bye(): Promise<unknown>
  invite(options?: object): Promise<unknown>
  refer(target: unknown, options?: { requestDelegate?: RequestDelegate; onNotify?(notification: ReferNotificationLike): void }): Promise<unknown>
}
export type InviterLike = SessionLike & {
  request: { callId: string }
  invite(options?: { requestDelegate?: RequestDelegate }): Promise<unknown>
  cancel(): Promise<void>
}
export type InvitationLike = SessionLike & {
  request: { callId: string; getHeader(name: string): string | undefined }
  remoteIdentity: { uri: { user?: string }; displayName?: string }
  /** The session an INVITE with Replaces takes the place of (sip.js matched the dialog). */
  replacee?: SessionLike

  accept(options?: object): Promise<void>
  reject(options?: { statusCode?: number; reasonPhrase?: string }): Promise<void>
}
export type UserAgentLike = {
  start(): Promise<void>
  stop(): Promise<void>
  reconnect(): Promise<void>
  isConnected(): boolean
  userAgentCore: {
    makeOutgoingRequestMessage(method: string, requestURI: unknown, fromURI: unknown, toURI: unknown, options: object): unknown
    request(message: unknown, delegate?: RequestDelegate): unknown
  }
}
type UserAgentOptionsLike = {
  uri: unknown
  transportOptions: { server: string }
  authorizationUsername: string
  authorizationPassword: string
  sessionDescriptionHandlerFactoryOptions: { iceGatheringTimeout: number; peerConnectionConfiguration: { iceServers: RTCIceServer[] } }
  delegate: { onConnect(): void; onDisconnect(error?: Error): void; onInvite(invitation: InvitationLike): void }
  /** Accept INVITEs with Replaces (the far end of an attended transfer): sip.js answers 481 otherwise. */
  sipExtensionReplaces?: unknown
  logLevel?: string
}
export type RegistererLike = {
  stateChange: Emitter<string>
  register(options?: { requestDelegate?: RequestDelegate }): Promise<unknown>
  unregister(): Promise<unknown>
}

export type SipLib = {
  UserAgent: { new (options: UserAgentOptionsLike): UserAgentLike; makeURI(uri: string): unknown }
  Registerer: new (userAgent: UserAgentLike, options: { expires: number }) => RegistererLike
  Inviter: new (userAgent: UserAgentLike, target: unknown, options: object) => InviterLike
  holdModifier: (description: RTCSessionDescriptionInit) => Promise<RTCSessionDescriptionInit>
  /** sip.js's `SIPExtension.Supported`. */
  extensionSupported?: unknown
}

/** The real sip.js, in the shape above. */
export const SIP_JS: SipLib = {
  UserAgent: SIP.UserAgent as unknown as SipLib['UserAgent'],
  Registerer: SIP.Registerer as unknown as SipLib['Registerer'],
  Inviter: SIP.Inviter as unknown as SipLib['Inviter'],
  holdModifier: SIP.Web.holdModifier,
  extensionSupported: SIP.SIPExtension.Supported,
}

// ---- the browser parts -------------------------------------------------------------------------------------------

/** An <audio> element (setSinkId where the browser has it). */
export type AudioOut = { srcObject: MediaProvider | null; play(): Promise<void>; pause(): void; setSinkId?(id: string): Promise<void> }

export type SipPhoneDeps = {
  sip: SipLib
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>
  createAudio(): AudioOut
  createAudioContext(): AudioContext
  /** Where `pagehide` is listened for. */
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
  setInterval(handler: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
  /** STUN/TURN servers; none on loopback. */
  iceServers?: RTCIceServer[]
  /** The page's origin: our own /ws/sip proxy is reached on it (see `sipSocketUrl`). */
  pageOrigin?: { protocol: string; host: string }
}

/** The server's SIP WebSocket proxy (server/telephony/sip-proxy.ts). */
export const SIP_SOCKET_PATH = '/ws/sip'

/**
 * The WebSocket sip.js opens. Our /ws/sip proxy only lets a signed-in session through (the cookie of the page's host),
 * so a profile URL naming that path is opened on the page's own origin whatever host it was written with (the demo
 * writes `ws://localhost:PORT`, useless to a browser on 127.0.0.1 or a LAN name); any other URL is used as it is.
 */
export function sipSocketUrl(configured: string, page?: { protocol: string; host: string }): string {
  if (!page) return configured
  let url: URL
  try {
    url = new URL(configured, `${page.protocol}//${page.host}`)
  } catch {
    return configured
  }
  if (url.pathname.replace(/\/+$/, '') !== SIP_SOCKET_PATH) return configured
  return `${page.protocol === 'https:' ? 'wss' : 'ws'}://${page.host}${SIP_SOCKET_PATH}${url.search}`
}

export function browserSipDeps(iceServers: RTCIceServer[] = []): SipPhoneDeps {
  return {
    sip: SIP_JS,
    getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
    createAudio: () => {
      const audio = new Audio()
      audio.autoplay = true
      return audio as AudioOut
    },
    createAudioContext: () => new AudioContext(),
    target: window,
    setInterval: (handler, ms) => window.setInterval(handler, ms),
    clearInterval: (handle) => window.clearInterval(handle as number),
    iceServers,
    pageOrigin: { protocol: window.location.protocol, host: window.location.host },
  }
}

type Call = {
  id: string
  session: SessionLike
  kind: 'inviter' | 'invitation'
  audio: AudioOut | null
  endCode: number | null
  endReason: string | null
  /** A REFER the far end accepted (202) whose outcome no NOTIFY has told yet. */
  referPending: boolean
}

/** The status of a REFER NOTIFY's sipfrag ('SIP/2.0 200 OK'): code and phrase, or null when the body has none. */
export function sipfragStatus(body: string | undefined): { code: number; reason: string } | null {
  const match = /^SIP\/2\.0\s+(\d{3})\s*([^\r\n]*)/.exec((body ?? '').trim())
  return match ? { code: Number(match[1]), reason: match[2]!.trim() } : null
}

function audioConstraints(devices: AudioDevices): MediaStreamConstraints {
  return { audio: devices.input ? { deviceId: { exact: devices.input } } : true, video: false }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** Whether an OPTIONS answer shows the path alive: any answer from the far side, not a locally made timeout/failure. */
function keepaliveAnswered(response: ResponseLike): boolean {
  const code = response.message.statusCode ?? 0
  return code > 0 && code !== 408 && code !== 503
}

export function sipPhoneFactory(deps: SipPhoneDeps): CreateSipPhone {
  return (config, emit) => createSipPhone(config, emit, deps)
}

export function createSipPhone(config: PhoneConfig, emit: (event: PhoneEvent) => void, deps: SipPhoneDeps): SipPhone {
  const { sip } = deps
  const calls = new Map<string, Call>()
  let devices: AudioDevices = { ...config.audio }
  let incomingCount = 0
  let keepalive: unknown = null
  let transportUp = false
  let stopped = false
  let conference: { context: AudioContext; callIds: string[]; micTrack: MediaStreamTrack | null } | null = null
  /** The supervisor's leg, and in barge the mixing of the supervisor into the other calls (their own tracks kept). */
  let coach: {
    session: InvitationLike
    coaching: Coaching
    audio: AudioOut | null
    barge: { context: AudioContext; restore: [RTCRtpSender, MediaStreamTrack | null][] } | null
  } | null = null

  const uriOf = (user: string) => sip.UserAgent.makeURI(`sip:${user}@${config.realm}`)
  const reportTransport = (up: boolean) => {
    if (up === transportUp) return
    transportUp = up
    emit({ type: 'PHONE_TRANSPORT', connected: up })
  }

  const ua = new sip.UserAgent({
    uri: uriOf(config.endpoint),
    transportOptions: { server: sipSocketUrl(config.websocket, deps.pageOrigin) },
    authorizationUsername: config.endpoint,
    authorizationPassword: config.password,
    sessionDescriptionHandlerFactoryOptions: {
      iceGatheringTimeout: ICE_GATHERING_TIMEOUT_MS,
      peerConnectionConfiguration: { iceServers: deps.iceServers ?? [] },
    },
    logLevel: 'error',
    ...(sip.extensionSupported === undefined ? {} : { sipExtensionReplaces: sip.extensionSupported }),
    delegate: {
      onConnect: () => {
        reportTransport(true)
        register()
      },
      onDisconnect: () => reportTransport(false),
      onInvite: (invitation) => receive(invitation),
    },
  })
  const registerer = new sip.Registerer(ua, { expires: REGISTER_EXPIRES_S })
  registerer.stateChange.addListener((state) => {
    if (state === 'Registered') emit({ type: 'PHONE_REGISTRATION', state: 'registered' })
    else if (state === 'Unregistered') emit({ type: 'PHONE_REGISTRATION', state: 'unregistered' })
  })

  function register() {
    registerer
      .register({ requestDelegate: { onReject: () => emit({ type: 'PHONE_REGISTRATION', state: 'registrationFailed' }) } })
      .catch(() => emit({ type: 'PHONE_REGISTRATION', state: 'registrationFailed' }))
  }

  const unregisterOnLeave = () => void registerer.unregister().catch(() => {})

  /** One OPTIONS out of dialog; no answer before the next one counts as a failure. */
  let awaiting = false
  function ping() {
    if (stopped) return
    if (!ua.isConnected()) {
      reportTransport(false)
      ua.reconnect().catch(() => {})
      return
    }
    if (awaiting) reportTransport(false)
    awaiting = true
    const target = sip.UserAgent.makeURI(`sip:${config.realm}`)
    const self = uriOf(config.endpoint)
    const message = ua.userAgentCore.makeOutgoingRequestMessage('OPTIONS', target, self, target, {})
    ua.userAgentCore.request(message, {
      onAccept: () => {
        awaiting = false
        reportTransport(true)
      },
      onReject: (response) => {
        awaiting = false
        reportTransport(keepaliveAnswered(response))
      },
    })
  }

  function track(id: string, session: SessionLike, kind: Call['kind']): Call {
    const call: Call = { id, session, kind, audio: null, endCode: null, endReason: null, referPending: false }
    calls.set(id, call)
    watch(call, session, false)
    session.delegate = { ...session.delegate, onRefer: (referral) => referred(call, referral) }
    return call
  }

  /**
   * The far end transfers us (a colleague's blind or attended transfer, spec 000 §4): a REFER to a number of our own
   * exchange (`*8…`, `*9…`, an extension, `queue.3`) is accepted and the webphone calls it; the call it came in stays
   * until the new one is answered (the machine then hangs it up). Anything else (another domain, a full URI with
   * headers) is refused: the webphone only dials through its own exchange.
   */
  function referred(call: Call, referral: ReferralLike) {
    const { user, host } = referral.referTo.uri
    if (!user || !/^[\w*#+.~!'-]{1,80}$/.test(user) || host !== config.realm) {
      referral.reject().catch(() => {})
      return
    }
    referral.accept().catch(() => {})
    emit({ type: 'PHONE_REFERRED', callId: call.id, target: user })
  }

  /** The call follows its session; a session replaced by another (RFC 3891) no longer speaks for it. */
  function watch(call: Call, session: SessionLike, replacing: boolean) {
    const id = call.id
    session.stateChange.addListener((state) => {
      if (call.session !== session) return
      if (state === 'Established') {
        playRemote(call)
        if (!replacing) emit({ type: 'PHONE_ACCEPTED', callId: id })
      } else if (state === 'Terminated') {
        // The transferee accepted the REFER and then left this call without a final NOTIFY: it went to the target.
        if (call.referPending) {
          call.referPending = false
          emit({ type: 'PHONE_TRANSFERRED', callId: id, ok: true })
        }
        if (call.audio) {
          call.audio.pause()
          call.audio.srcObject = null
        }
        calls.delete(id)
        if (conference?.callIds.includes(id)) mix(conference.callIds.filter((other) => other !== id))
        if (coach?.barge) bargeMix()
        emit({ type: 'PHONE_ENDED', callId: id, code: call.endCode, reason: call.endReason ?? (call.endCode ? String(call.endCode) : 'BYE') })
      }
    })
  }

  /**
   * An INVITE with Replaces for one of our calls: the other side of an attended transfer (the customer the
   * colleague transferred) takes the place of the colleague on that call. It is answered at once and the call goes
   * on with its id; sip.js hangs the replaced session up, which no longer ends the call.
   */
  function adopt(call: Call, invitation: InvitationLike) {
    if (call.audio) {
      call.audio.pause()
      call.audio.srcObject = null
      call.audio = null
    }
    call.session = invitation
    call.kind = 'invitation'
    watch(call, invitation, true)
    invitation.accept({ sessionDescriptionHandlerOptions: { constraints: audioConstraints(devices) } }).catch(() => {})
    const headers = headersOf(invitation)
    emit({ type: 'PHONE_REPLACED', callId: call.id, ...identityOf(invitation, headers), headers })
  }

  /** The calling headers (spec 000 §7) an INVITE brought. */
  function headersOf(invitation: InvitationLike): CallHeaders {
    const headers: CallHeaders = {}
    for (const name of Object.values(CALL_HEADERS)) {
      const value = invitation.request.getHeader(name)
      if (value != null) headers[name] = value
    }
    return headers
  }

  /** Who an INVITE is: the step's uid (the SIP Call-ID when there is none), number (call control's X-Atende-Phone first) and name. */
  function identityOf(invitation: InvitationLike, headers: CallHeaders) {
    return {
      uid: headers[CALL_HEADERS.uid] ?? invitation.request.callId,
      // Call control names the customer (X-Atende-Phone) when the INVITE comes from elsewhere: the media app's bridge
      // of a queue caller or a dialer's lead is From `atende-media`.
      phone: headers[CALL_HEADERS.phone] || monitoredAgent(invitation) || (invitation.remoteIdentity.uri.user ?? ''),
      name: invitation.remoteIdentity.displayName ?? '',
    }
  }

  /**
   * A supervisor's monitoring call (the media app's `spy.` leg, From `atende-media` with X-Atende-Monitor-Agent): shown
   * as the agent listened to, not as 'atende-media' (the ringing dialog, the call list, the top bar).
   */
  function monitoredAgent(invitation: InvitationLike): string {
    if (invitation.remoteIdentity.uri.user !== MEDIA_APP_USER) return ''
    return (invitation.request.getHeader(MONITOR_AGENT_HEADER) ?? '').trim().slice(0, 80)
  }

  function playRemote(call: Call) {
    const stream = call.session.sessionDescriptionHandler?.remoteMediaStream
    if (!stream) return
    const audio = deps.createAudio()
    audio.srcObject = stream
    if (devices.output && audio.setSinkId) audio.setSinkId(devices.output).catch(() => {})
    audio.play().catch(() => {})
    call.audio = audio
  }

  /** The supervisor's leg: answered at once with the microphone, played, never a call (no PHONE_INCOMING). */
  function coached(invitation: InvitationLike, coaching: Coaching) {
    if (coach) {
      // One supervisor at a time: a second leg is refused.
      invitation.reject({ statusCode: 486, reasonPhrase: 'Busy Here' }).catch(() => {})
      return
    }
    const current = { session: invitation, coaching, audio: null as AudioOut | null, barge: null }
    coach = current
    invitation.delegate = {
      ...invitation.delegate,
      onInfo: (info) => {
        void info.accept().catch(() => {})
        const mode = info.request.getHeader(MONITOR_HEADER)?.trim()
        if (coach !== current || (mode !== 'whisper' && mode !== 'barge') || mode === current.coaching.mode) return
        current.coaching = { ...current.coaching, mode }
        bargeMix()
        emit({ type: 'PHONE_COACHING', coaching: current.coaching })
      },
    }
    invitation.stateChange.addListener((state) => {
      if (coach !== current) return
      if (state === 'Established') {
        const stream = invitation.sessionDescriptionHandler?.remoteMediaStream
        if (stream) {
          const audio = deps.createAudio()
          audio.srcObject = stream
          if (devices.output && audio.setSinkId) audio.setSinkId(devices.output).catch(() => {})
          audio.play().catch(() => {})
          current.audio = audio
        }
        bargeMix()
        emit({ type: 'PHONE_COACHING', coaching: current.coaching })
      } else if (state === 'Terminated') {
        endCoaching()
      }
    })
    invitation.accept({ sessionDescriptionHandlerOptions: { constraints: audioConstraints(devices) } }).catch(() => endCoaching())
  }

  function endCoaching() {
    const current = coach
    if (!current) return
    unbarge()
    if (current.audio) {
      current.audio.pause()
      current.audio.srcObject = null
    }
    coach = null
    emit({ type: 'PHONE_COACHING', coaching: null })
  }

  /** Gives every call back the track it had before the barge. */
  function unbarge() {
    const barge = coach?.barge
    if (!barge) return
    coach!.barge = null
    for (const [sender, track] of barge.restore) void sender.replaceTrack(track)
    void barge.context.close().catch(() => {})
  }

  /**
   * Barge: every established call (the customer's) is sent the microphone plus the supervisor; whisper: their own
   * tracks again. Calls in a local conference keep the conference's mix (the supervisor is not added to it).
   */
  function bargeMix() {
    // A sender's own track is the one kept from the barge before (its `track` changes only once replaceTrack settles).
    const own = new Map(coach?.barge?.restore ?? [])
    unbarge()
    const current = coach
    if (!current || current.coaching.mode !== 'barge' || current.session.state !== 'Established') return
    const supervisor = current.session.sessionDescriptionHandler?.remoteMediaStream
    const targets = [...calls.values()].filter((call) => call.session.state === 'Established' && !conference?.callIds.includes(call.id))
    const restore: [RTCRtpSender, MediaStreamTrack | null][] = targets.flatMap((call) =>
      senders(call).map((sender) => [sender, own.has(sender) ? own.get(sender)! : sender.track] as [RTCRtpSender, MediaStreamTrack | null]),
    )
    if (!supervisor || restore.length === 0) return
    const context = deps.createAudioContext()
    const supervisorSource = context.createMediaStreamSource(supervisor)
    for (const [sender, track] of restore) {
      const out = context.createMediaStreamDestination()
      if (track) context.createMediaStreamSource(new MediaStream([track])).connect(out)
      supervisorSource.connect(out)
      const [mixed] = out.stream.getAudioTracks()
      if (mixed) void sender.replaceTrack(mixed)
    }
    current.barge = { context, restore }
  }

  function receive(invitation: InvitationLike) {
    const coaching = coachingOf(invitation)
    if (coaching) {
      coached(invitation, coaching)
      return
    }
    const replaced = invitation.replacee ? [...calls.values()].find((call) => call.session === invitation.replacee) : undefined
    if (replaced) {
      adopt(replaced, invitation)
      return
    }
    incomingCount += 1
    const id = `in-${incomingCount}`
    track(id, invitation, 'invitation')
    const headers = headersOf(invitation)
    emit({ type: 'PHONE_INCOMING', callId: id, ...identityOf(invitation, headers), headers })
  }

  function callOf(callId: string): Call {
    const call = calls.get(callId)
    if (!call) throw new Error(`session_not_found: ${callId}`)
    return call
  }

  function senders(call: Call): RTCRtpSender[] {
    return call.session.sessionDescriptionHandler?.peerConnection?.getSenders().filter((sender) => sender.track?.kind !== 'video') ?? []
  }

  /** Each chosen call is sent the microphone plus the others; an empty list gives every call its microphone back. */
  function mix(callIds: string[]) {
    const chosen = callIds.map((id) => calls.get(id)).filter((call): call is Call => !!call)
    if (conference) {
      const { context, micTrack } = conference
      for (const call of calls.values()) for (const sender of senders(call)) if (micTrack) void sender.replaceTrack(micTrack)
      void context.close().catch(() => {})
      conference = null
    }
    if (chosen.length < 2) return
    const context = deps.createAudioContext()
    const micTrack = senders(chosen[0])[0]?.track ?? null
    const mic = micTrack ? context.createMediaStreamSource(new MediaStream([micTrack])) : null
    const remotes = chosen.map((call) => {
      const stream = call.session.sessionDescriptionHandler?.remoteMediaStream
      return stream ? context.createMediaStreamSource(stream) : null
    })
    chosen.forEach((call, index) => {
      const out = context.createMediaStreamDestination()
      mic?.connect(out)
      remotes.forEach((remote, other) => {
        if (other !== index) remote?.connect(out)
      })
      const [mixed] = out.stream.getAudioTracks()
      for (const sender of senders(call)) void sender.replaceTrack(mixed)
    })
    conference = { context, callIds: chosen.map((call) => call.id), micTrack }
  }

  /**
   * A REFER's 202 only says the far end will try: the transfer is done when its NOTIFY reports the new call answered
   * (sipfrag 2xx), and then this side hangs the transferred call up; it failed on a final failure there (a trunk that
   * cannot reach the target) or a refused REFER, and the call stays.
   */
  function refer(call: Call, target: unknown): Promise<void> {
    let settled = false
    const settle = (ok: boolean, reason?: string) => {
      if (settled) return
      settled = true
      call.referPending = false
      emit(ok ? { type: 'PHONE_TRANSFERRED', callId: call.id, ok } : { type: 'PHONE_TRANSFERRED', callId: call.id, ok, ...(reason ? { reason } : {}) })
      // Done: the transferor leaves the call (RFC 5589); the transferee keeps talking to the target.
      if (ok && call.session.state === 'Established') call.session.bye().catch(() => {})
    }
    // A NOTIFY may come before the 202 is seen: the REFER was accepted if the far end reports on it.
    const accepted = () => void (call.referPending = !settled)
    return call.session
      .refer(target, {
        requestDelegate: {
          onAccept: accepted,
          onReject: (response) => settle(false, response.message.reasonPhrase),
        },
        onNotify: (notification) => {
          notification.accept()
          accepted()
          const status = sipfragStatus(notification.request.body)
          if (!status || status.code < 200) return
          settle(status.code < 300, status.code < 300 ? undefined : status.reason || String(status.code))
        },
      })
      .then(() => undefined)
  }

  return {
    async start() {
      // The microphone first: a refusal is the missing-permissions placeholder, not a broken phone.
      try {
        const probe = await deps.getUserMedia(audioConstraints(devices))
        for (const mediaTrack of probe.getTracks()) mediaTrack.stop()
      } catch (error) {
        emit({ type: 'PHONE_FAILED', code: 'media', message: errorText(error) })
        return
      }
      emit({ type: 'PHONE_STARTED' })
      deps.target.addEventListener('pagehide', unregisterOnLeave)
      keepalive = deps.setInterval(ping, KEEPALIVE_MS)
      await ua.start().catch(() => reportTransport(false))
    },

    async stop() {
      stopped = true
      if (keepalive !== null) deps.clearInterval(keepalive)
      deps.target.removeEventListener('pagehide', unregisterOnLeave)
      mix([])
      if (coach) {
        const leg = coach.session
        endCoaching()
        if (leg.state === 'Established') await leg.bye().catch(() => {})
      }
      for (const call of [...calls.values()]) await this.hangup(call.id).catch(() => {})
      await registerer.unregister().catch(() => {})
      await ua.stop().catch(() => {})
    },

    async call(callId, target, headers) {
      const inviter = new sip.Inviter(ua, uriOf(target), {
        extraHeaders: Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        sessionDescriptionHandlerOptions: { constraints: audioConstraints(devices) },
      })
      const call = track(callId, inviter, 'inviter')
      let progressed = false
      await inviter.invite({
        requestDelegate: {
          onProgress: (response: ResponseLike) => {
            const code = response.message.statusCode ?? 100
            const uid = progressed ? undefined : (response.message.getHeader(CALL_HEADERS.uid) ?? inviter.request.callId)
            progressed = true
            emit({ type: 'PHONE_PROGRESS', callId, code, ...(uid ? { uid } : {}) })
          },
          onReject: (response: ResponseLike) => {
            call.endCode = response.message.statusCode ?? null
            call.endReason = response.message.reasonPhrase ?? null
          },
        },
      })
    },

    async answer(callId) {
      const call = callOf(callId)
      if (call.kind !== 'invitation') return
      await (call.session as InvitationLike).accept({ sessionDescriptionHandlerOptions: { constraints: audioConstraints(devices) } })
    },

    async hangup(callId, code, reason) {
      const call = callOf(callId)
      const { session } = call
      if (session.state === 'Established') {
        await session.bye()
      } else if (session.state === 'Initial' || session.state === 'Establishing') {
        if (call.kind === 'inviter') {
          call.endReason = 'CANCEL'
          await (session as InviterLike).cancel()
        } else {
          call.endCode = code ?? 486
          call.endReason = reason ?? 'Busy Here'
          await (session as InvitationLike).reject({ statusCode: call.endCode, reasonPhrase: call.endReason })
        }
      }
    },

    async hold(callId, on) {
      const call = callOf(callId)
      await call.session.invite({
        sessionDescriptionHandlerOptions: { hold: on, constraints: audioConstraints(devices) },
        sessionDescriptionHandlerModifiers: on ? [sip.holdModifier] : [],
      })
    },

    mute(callId, on) {
      const call = callOf(callId)
      // In a conference the call is sent a mix: only the microphone in it goes silent.
      if (conference?.callIds.includes(callId) && conference.micTrack) conference.micTrack.enabled = !on
      else {
        // In a barge the call is sent a mix too: its own track (the microphone in the mix) is the one muted.
        const own = new Map(coach?.barge?.restore ?? [])
        for (const sender of senders(call)) {
          const track = own.has(sender) ? own.get(sender) : sender.track
          if (track) track.enabled = !on
        }
      }
    },

    dtmf(callId, tone, duration, gap) {
      const handler = callOf(callId).session.sessionDescriptionHandler
      if (!handler?.sendDtmf(tone, { duration, interToneGap: gap })) throw new Error(`dtmf refused: ${tone}`)
    },

    transferBlind(callId, target) {
      return refer(callOf(callId), uriOf(target))
    },

    transferAttended(callId, targetCallId) {
      const target = callOf(targetCallId).session
      // The transferee calls `*9…` back through Kamailio, which relays it to the consulted phone with Replaces: a trunk
      // or a browser cannot reach that phone's own contact (contract/codes/transfer.ts).
      const join = target.dialog ? joinAddress(target.dialog) : null
      return refer(callOf(callId), join ? uriOf(join) : target)
    },

    conference(callIds) {
      mix(callIds)
    },

    async setAudioDevices(next) {
      devices = { ...next }
      for (const call of calls.values()) if (call.audio?.setSinkId && next.output) await call.audio.setSinkId(next.output)
      if (calls.size === 0) return
      const stream = await deps.getUserMedia(audioConstraints(devices))
      const [micTrack] = stream.getAudioTracks()
      if (!micTrack) return
      const mixed = conference?.callIds ?? []
      mix([])
      unbarge()
      if (coach?.audio?.setSinkId && next.output) await coach.audio.setSinkId(next.output)
      for (const sender of coach?.session.sessionDescriptionHandler?.peerConnection?.getSenders() ?? []) await sender.replaceTrack(micTrack)
      for (const call of calls.values()) for (const sender of senders(call)) await sender.replaceTrack(micTrack)
      mix(mixed)
      bargeMix()
    },
  }
}
