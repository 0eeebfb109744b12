import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createSipPhone,
  ICE_GATHERING_TIMEOUT_MS,
  KEEPALIVE_MS,
  REGISTER_EXPIRES_S,
  SIP_JS,
  sipSocketUrl,
  sipfragStatus,
  type AudioOut,
  type SipLib,
  type SessionLike,
  type SipPhoneDeps,
} from '../../src/features/webphone/sipPhone.ts'
import type { PhoneConfig, PhoneEvent } from '../../machines/webphoneTypes.ts'
import { clientNameOf } from '../../machines/webphoneTypes.ts'

// The sip.js adapter against a fake sip.js: what it asks of the UserAgent, Registerer, Inviter and sessions, and the
// events it reports to the webphone machine.

const CONFIG: PhoneConfig = {
  websocket: 'wss://pbx.test/ws/sip',
  endpoint: '1001',
  realm: 'pbx.test',
  password: 's3cret',
  audio: { input: 'mic-2', output: 'spk-3' },
}

type Listener = (value: string) => void
class FakeEmitter {
  listeners: Listener[] = []
  addListener(listener: Listener) {
    this.listeners.push(listener)
  }
  emit(value: string) {
    for (const listener of this.listeners) listener(value)
  }
}
type Delegate = { onAccept?(r: unknown): void; onProgress?(r: unknown): void; onReject?(r: unknown): void }
const response = (statusCode: number, reasonPhrase = '', headers: Record<string, string> = {}) => ({
  message: { statusCode, reasonPhrase, callId: 'sip-call-id', getHeader: (name: string) => headers[name] },
})

function fakeTrack(kind = 'audio') {
  return { kind, enabled: true, stop: vi.fn() } as unknown as MediaStreamTrack
}
function fakeSender() {
  const sender = { track: fakeTrack(), replaceTrack: vi.fn(async (track: MediaStreamTrack) => void (sender.track = track)) }
  return sender
}

class FakeSession {
  state = 'Initial'
  stateChange = new FakeEmitter()
  sender = fakeSender()
  sessionDescriptionHandler = {
    sendDtmf: vi.fn(() => true),
    peerConnection: { getSenders: () => [this.sender] } as unknown as RTCPeerConnection,
    remoteMediaStream: { id: 'remote' } as unknown as MediaStream,
  }
  bye = vi.fn(async () => this.set('Terminated'))
  delegate?: SessionLike['delegate']
  invite = vi.fn(async (_options?: unknown) => undefined as unknown)
  referDelegate: Delegate | undefined
  referNotify: ((notification: { request: { body?: string }; accept(): unknown }) => void) | undefined
  refer = vi.fn(async (_target: unknown, options?: { requestDelegate?: Delegate; onNotify?: FakeSession['referNotify'] }) => {
    this.referDelegate = options?.requestDelegate
    this.referNotify = options?.onNotify
  })
  notify(body: string) {
    const notification = { request: { body }, accept: vi.fn() }
    this.referNotify?.(notification)
    return notification
  }
  set(state: string) {
    this.state = state
    this.stateChange.emit(state)
  }
}

function fakeSip() {
  const made = {
    userAgents: [] as FakeUserAgent[],
    registerers: [] as FakeRegisterer[],
    inviters: [] as FakeInviter[],
  }
  class FakeUserAgent {
    options: any
    connected = true
    requests: { message: any; delegate: Delegate }[] = []
    start = vi.fn(async () => void this.options.delegate.onConnect())
    stop = vi.fn(async () => {})
    reconnect = vi.fn(async () => {})
    isConnected = () => this.connected
    userAgentCore = {
      makeOutgoingRequestMessage: (method: string, uri: unknown) => ({ method, uri }),
      request: (message: unknown, delegate: Delegate) => void this.requests.push({ message, delegate }),
    }
    constructor(options: unknown) {
      this.options = options
      made.userAgents.push(this)
    }
    static makeURI(uri: string) {
      return { uri }
    }
  }
  class FakeRegisterer {
    stateChange = new FakeEmitter()
    register = vi.fn(async () => this.stateChange.emit('Registered'))
    unregister = vi.fn(async () => this.stateChange.emit('Unregistered'))
    userAgent: unknown
    options: unknown
    constructor(userAgent: unknown, options: unknown) {
      this.userAgent = userAgent
      this.options = options
      made.registerers.push(this)
    }
  }
  class FakeInviter extends FakeSession {
    request = { callId: 'out-sip-id' }
    inviteDelegate: Delegate | undefined
    cancel = vi.fn(async () => this.set('Terminated'))
    userAgent: unknown
    target: unknown
    options: any
    constructor(userAgent: unknown, target: unknown, options: any) {
      super()
      this.userAgent = userAgent
      this.target = target
      this.options = options
      made.inviters.push(this)
      this.invite = vi.fn(async (options?: unknown) => void (this.inviteDelegate = (options as { requestDelegate?: Delegate } | undefined)?.requestDelegate))
    }
  }
  const holdModifier = async (description: RTCSessionDescriptionInit) => description
  const sip = { UserAgent: FakeUserAgent, Registerer: FakeRegisterer, Inviter: FakeInviter, holdModifier } as unknown as SipLib
  return { sip, made, holdModifier }
}

class FakeInvitation extends FakeSession {
  request = { callId: 'in-sip-id', getHeader: (name: string) => ({ 'X-Atende-Uid': 'uid-77', 'X-Atende-Call-Type': '20', 'X-Atende-Queue': 'vendas' })[name] }
  remoteIdentity = { uri: { user: '5511999990000' }, displayName: 'Ana' }
  accept = vi.fn(async (_options?: unknown) => this.set('Established'))
  reject = vi.fn(async (_options?: unknown) => this.set('Terminated'))
}

function setup(options: { mediaError?: Error } = {}) {
  const { sip, made, holdModifier } = fakeSip()
  const events: PhoneEvent[] = []
  const listeners = new Map<string, () => void>()
  const intervals: (() => void)[] = []
  const audios: (AudioOut & { sinkId?: string })[] = []
  const connections: [string, string][] = []
  const micTrack = fakeTrack()
  const deps: SipPhoneDeps = {
    sip,
    getUserMedia: vi.fn(async () => {
      if (options.mediaError) throw options.mediaError
      return { getTracks: () => [micTrack], getAudioTracks: () => [micTrack] } as unknown as MediaStream
    }),
    createAudio: () => {
      const audio: AudioOut & { sinkId?: string } = {
        srcObject: null,
        play: vi.fn(async () => {}),
        pause: vi.fn(),
        setSinkId: vi.fn(async (id: string) => void (audio.sinkId = id)),
      }
      audios.push(audio)
      return audio
    },
    createAudioContext: () => {
      let n = 0
      return {
        createMediaStreamSource: (stream: MediaStream) => ({
          connect: (out: { name: string }) => connections.push([(stream as unknown as { id: string }).id, out.name]),
        }),
        createMediaStreamDestination: () => {
          n += 1
          const track = fakeTrack()
          return { name: `mix-${n}`, stream: { getAudioTracks: () => [track] } }
        },
        close: vi.fn(async () => {}),
      } as unknown as AudioContext
    },
    target: {
      addEventListener: (type: string, listener: EventListenerOrEventListenerObject) => void listeners.set(type, listener as () => void),
      removeEventListener: (type: string) => void listeners.delete(type),
    },
    setInterval: (handler) => {
      intervals.push(handler)
      return intervals.length
    },
    clearInterval: (handle) => void (intervals[(handle as number) - 1] = () => {}),
    iceServers: [],
  }
  vi.stubGlobal(
    'MediaStream',
    class {
      id: string
      constructor(tracks: MediaStreamTrack[]) {
        this.id = `mic(${tracks.length})`
      }
    },
  )
  const phone = createSipPhone(CONFIG, (event) => events.push(event), deps)
  return { phone, events, made, listeners, intervals, audios, connections, deps, holdModifier, micTrack }
}

async function started(options: { mediaError?: Error } = {}) {
  const s = setup(options)
  await s.phone.start()
  return s
}

describe('sipPhone adapter', () => {
  afterEach(() => void vi.unstubAllGlobals())

  it('is built on the real sip.js exports', () => {
    expect(typeof SIP_JS.UserAgent).toBe('function')
    expect(typeof SIP_JS.Registerer).toBe('function')
    expect(typeof SIP_JS.Inviter).toBe('function')
    expect(typeof SIP_JS.holdModifier).toBe('function')
  })

  it('registers over the voip websocket with the endpoint as digest user, 300 s expiry and 500 ms ICE gathering', async () => {
    const { made, events } = await started()
    const [ua] = made.userAgents
    expect(ua.options).toMatchObject({
      uri: { uri: 'sip:1001@pbx.test' },
      transportOptions: { server: 'wss://pbx.test/ws/sip' },
      authorizationUsername: '1001',
      authorizationPassword: 's3cret',
      sessionDescriptionHandlerFactoryOptions: { iceGatheringTimeout: ICE_GATHERING_TIMEOUT_MS, peerConnectionConfiguration: { iceServers: [] } },
    })
    expect(made.registerers[0].options).toEqual({ expires: REGISTER_EXPIRES_S })
    expect(events).toEqual([{ type: 'PHONE_STARTED' }, { type: 'PHONE_TRANSPORT', connected: true }, { type: 'PHONE_REGISTRATION', state: 'registered' }])
  })

  it('reports a refused microphone as a media failure and never connects', async () => {
    const { made, events } = await started({ mediaError: Object.assign(new Error('denied'), { name: 'NotAllowedError' }) })
    expect(events).toEqual([{ type: 'PHONE_FAILED', code: 'media', message: 'NotAllowedError: denied' }])
    expect(made.userAgents[0].start).not.toHaveBeenCalled()
  })

  it('sends an OPTIONS every 5 s and reports the transport down when one fails, up when one is answered', async () => {
    const { made, events, intervals } = await started()
    const ua = made.userAgents[0]
    expect(intervals).toHaveLength(1)
    expect(KEEPALIVE_MS).toBe(5000)
    events.length = 0
    intervals[0]()
    expect(ua.requests.map((r) => r.message)).toEqual([{ method: 'OPTIONS', uri: { uri: 'sip:pbx.test' } }])
    ua.requests[0].delegate.onReject?.(response(408, 'Request Timeout'))
    expect(events).toEqual([{ type: 'PHONE_TRANSPORT', connected: false }])
    intervals[0]()
    ua.requests[1].delegate.onReject?.(response(405, 'Method Not Allowed')) // an answer from the far side: alive
    expect(events.at(-1)).toEqual({ type: 'PHONE_TRANSPORT', connected: true })
    // No answer before the next tick counts as a failure; a closed socket reconnects.
    intervals[0]()
    intervals[0]()
    expect(events.at(-1)).toEqual({ type: 'PHONE_TRANSPORT', connected: false })
    ua.connected = false
    intervals[0]()
    expect(ua.reconnect).toHaveBeenCalledTimes(1)
  })

  it('places an outgoing call with our headers, audio only, and follows it to its end', async () => {
    const { phone, made, events, audios } = await started()
    events.length = 0
    await phone.call('call-1', '1140001000', { 'X-Atende-Route': '4', 'X-Atende-Phone': '1140001000' })
    const inviter = made.inviters[0]
    expect(inviter.target).toEqual({ uri: 'sip:1140001000@pbx.test' })
    expect(inviter.options).toEqual({
      extraHeaders: ['X-Atende-Route: 4', 'X-Atende-Phone: 1140001000'],
      sessionDescriptionHandlerOptions: { constraints: { audio: { deviceId: { exact: 'mic-2' } }, video: false } },
    })
    inviter.inviteDelegate?.onProgress?.(response(183, 'Session Progress', { 'X-Atende-Uid': 'uid-9' }))
    inviter.inviteDelegate?.onProgress?.(response(180, 'Ringing'))
    inviter.set('Established')
    expect(audios[0].srcObject).toEqual({ id: 'remote' })
    expect(audios[0].sinkId).toBe('spk-3')
    await phone.hangup('call-1')
    expect(inviter.bye).toHaveBeenCalled()
    expect(events).toEqual([
      { type: 'PHONE_PROGRESS', callId: 'call-1', code: 183, uid: 'uid-9' },
      { type: 'PHONE_PROGRESS', callId: 'call-1', code: 180 },
      { type: 'PHONE_ACCEPTED', callId: 'call-1' },
      { type: 'PHONE_ENDED', callId: 'call-1', code: null, reason: 'BYE' },
    ])
  })

  it('cancels an outgoing call not yet answered, and reports a refusal with its code', async () => {
    const { phone, made, events } = await started()
    await phone.call('call-1', '2001', {})
    await phone.hangup('call-1')
    expect(made.inviters[0].cancel).toHaveBeenCalled()
    await phone.call('call-2', '2002', {})
    made.inviters[1].inviteDelegate?.onReject?.(response(486, 'Busy Here'))
    made.inviters[1].set('Terminated')
    expect(events.slice(-2)).toEqual([
      { type: 'PHONE_ENDED', callId: 'call-1', code: null, reason: 'CANCEL' },
      { type: 'PHONE_ENDED', callId: 'call-2', code: 486, reason: 'Busy Here' },
    ])
  })

  it('reports an incoming call with its X-Atende headers, answers it and rejects another with 486', async () => {
    const { phone, made, events } = await started()
    events.length = 0
    const first = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(first)
    expect(events).toEqual([
      {
        type: 'PHONE_INCOMING',
        callId: 'in-1',
        uid: 'uid-77',
        phone: '5511999990000',
        name: 'Ana',
        headers: { 'X-Atende-Uid': 'uid-77', 'X-Atende-Call-Type': '20', 'X-Atende-Queue': 'vendas' },
      },
    ])
    await phone.answer('in-1')
    expect(first.accept).toHaveBeenCalledWith({ sessionDescriptionHandlerOptions: { constraints: { audio: { deviceId: { exact: 'mic-2' } }, video: false } } })
    const second = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(second)
    await phone.hangup('in-2', 486, 'busyLimit')
    expect(second.reject).toHaveBeenCalledWith({ statusCode: 486, reasonPhrase: 'busyLimit' })
    expect(events.at(-1)).toEqual({ type: 'PHONE_ENDED', callId: 'in-2', code: 486, reason: 'busyLimit' })
    await expect(phone.answer('nope')).rejects.toThrow('session_not_found')
  })

  it("a call the media app bridges (From atende-media) shows call control's X-Atende-Phone and the dialer's decoded client name", async () => {
    const { made, events } = await started()
    events.length = 0
    const invitation = new FakeInvitation()
    const headers: Record<string, string> = { 'X-Atende-Phone': '+551133660101', 'X-Atende-Client-Name': 'Jo%C3%A3o%20Lead', 'X-Atende-Call-Type': '12' }
    invitation.request = { callId: 'in-sip-id', getHeader: (name: string) => headers[name] }
    invitation.remoteIdentity = { uri: { user: 'atende-media' }, displayName: '' }
    made.userAgents[0].options.delegate.onInvite(invitation)
    expect(events[0]).toMatchObject({ type: 'PHONE_INCOMING', phone: '+551133660101' })
    // The webphone machine decodes the dialer's percent-encoded name (SIP header values are ASCII).
    expect(clientNameOf(headers)).toBe('João Lead')
    expect(clientNameOf({ 'X-Atende-Client-Name': '100% Silva' })).toBe('100% Silva')
  })

  it("the supervisor's monitoring call (From atende-media with X-Atende-Monitor-Agent) rings as the agent listened to", async () => {
    const { made, events } = await started()
    events.length = 0
    const invitation = new FakeInvitation()
    const headers: Record<string, string> = { 'X-Atende-Monitor': 'listen', 'X-Atende-Monitor-Agent': 'Ana' }
    invitation.request = { callId: 'spy-sip-id', getHeader: (name: string) => headers[name] }
    invitation.remoteIdentity = { uri: { user: 'atende-media' }, displayName: '' }
    made.userAgents[0].options.delegate.onInvite(invitation)
    // An ordinary ringing call (the supervisor answers it), named after the agent.
    expect(events[0]).toMatchObject({ type: 'PHONE_INCOMING', phone: 'Ana', name: '' })
    // The header from anybody else names nothing (Kamailio strips X-Atende-* from all but the media app anyway).
    const other = new FakeInvitation()
    other.request = { callId: 'other-sip-id', getHeader: (name: string) => headers[name] }
    other.remoteIdentity = { uri: { user: '10002' }, displayName: '' }
    made.userAgents[0].options.delegate.onInvite(other)
    expect(events[1]).toMatchObject({ type: 'PHONE_INCOMING', phone: '10002' })
  })

  it('holds with a re-INVITE and the hold modifier, mutes the microphone track, sends RFC 4733 DTMF', async () => {
    const { phone, made, holdModifier } = await started()
    const invitation = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(invitation)
    await phone.answer('in-1')
    await phone.hold('in-1', true)
    expect(invitation.invite).toHaveBeenLastCalledWith({
      sessionDescriptionHandlerOptions: { hold: true, constraints: { audio: { deviceId: { exact: 'mic-2' } }, video: false } },
      sessionDescriptionHandlerModifiers: [holdModifier],
    })
    await phone.hold('in-1', false)
    expect(invitation.invite).toHaveBeenLastCalledWith(expect.objectContaining({ sessionDescriptionHandlerModifiers: [] }))
    phone.mute('in-1', true)
    expect(invitation.sender.track?.enabled).toBe(false)
    phone.mute('in-1', false)
    expect(invitation.sender.track?.enabled).toBe(true)
    phone.dtmf('in-1', '5', 120, 500)
    expect(invitation.sessionDescriptionHandler.sendDtmf).toHaveBeenCalledWith('5', { duration: 120, interToneGap: 500 })
    invitation.sessionDescriptionHandler.sendDtmf.mockReturnValueOnce(false)
    expect(() => phone.dtmf('in-1', '#', 80, 100)).toThrow('dtmf refused')
  })

  it('transfers blind with a REFER to the number and attended with a REFER carrying the other session when its dialog is unknown', async () => {
    const { phone, made, events } = await started()
    const origin = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(origin)
    await phone.answer('in-1')
    await phone.transferBlind('in-1', '*82001')
    expect(origin.refer.mock.calls[0][0]).toEqual({ uri: 'sip:*82001@pbx.test' })
    origin.referDelegate?.onAccept?.(response(202, 'Accepted'))
    // The 202 and a progress NOTIFY say nothing yet; the final NOTIFY (sipfrag) does.
    expect(origin.notify('SIP/2.0 100 Trying\r\n').accept).toHaveBeenCalled()
    expect(events.filter((event) => event.type === 'PHONE_TRANSFERRED')).toEqual([])
    origin.notify('SIP/2.0 200 OK\r\n')
    // Done: the transferor leaves the call.
    expect(origin.bye).toHaveBeenCalledTimes(1)
    const second = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(second)
    await phone.answer('in-2')
    await phone.call('call-1', '2001', {})
    await phone.transferAttended('in-2', 'call-1')
    expect(second.refer.mock.calls[0][0]).toBe(made.inviters[0])
    second.referDelegate?.onReject?.(response(403, 'Forbidden'))
    expect(events.filter((event) => event.type === 'PHONE_TRANSFERRED')).toEqual([
      { type: 'PHONE_TRANSFERRED', callId: 'in-1', ok: true },
      { type: 'PHONE_TRANSFERRED', callId: 'in-2', ok: false, reason: 'Forbidden' },
    ])
    expect(second.bye).not.toHaveBeenCalled()
  })

  it("sends an attended transfer's transferee to the consultation's join address (*9<call-id>.<their tag>.<our tag>)", async () => {
    const { phone, made } = await started()
    const customer = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(customer)
    await phone.answer('in-1')
    await phone.call('call-1', '10002', {})
    Object.assign(made.inviters[0], { dialog: { callId: 'k3j2h1g0f9e8d7c', localTag: 'ourtag0001', remoteTag: 'theirtag02' } })
    await phone.transferAttended('in-1', 'call-1')
    expect(customer.refer.mock.calls[0][0]).toEqual({ uri: 'sip:*9k3j2h1g0f9e8d7c.theirtag02.ourtag0001@pbx.test' })
    // A dialog a user part cannot carry (another phone's Call-ID with '@') goes the standard way: Replaces.
    const other = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(other)
    await phone.answer('in-2')
    await phone.call('call-2', '10002', {})
    Object.assign(made.inviters[1], { dialog: { callId: 'abc@host', localTag: 'a', remoteTag: 'b' } })
    await phone.transferAttended('in-2', 'call-2')
    expect(other.refer.mock.calls[0][0]).toBe(made.inviters[1])
  })

  it('follows a REFER received to a number of our exchange, and refuses one that points elsewhere', async () => {
    const { phone, made, events } = await started()
    const origin = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(origin)
    await phone.answer('in-1')
    const referral = (user: string, host: string) => ({
      referTo: { uri: { user, host } },
      accept: vi.fn(async () => undefined),
      reject: vi.fn(async () => undefined),
    })
    const ours = referral('*801187654321', 'pbx.test')
    origin.delegate?.onRefer?.(ours)
    expect(ours.accept).toHaveBeenCalledTimes(1)
    expect(events.filter((event) => event.type === 'PHONE_REFERRED')).toEqual([{ type: 'PHONE_REFERRED', callId: 'in-1', target: '*801187654321' }])
    for (const elsewhere of [referral('*801187654321', 'evil.example'), referral('a b', 'pbx.test')]) {
      origin.delegate?.onRefer?.(elsewhere)
      expect(elsewhere.reject).toHaveBeenCalledTimes(1)
      expect(elsewhere.accept).not.toHaveBeenCalled()
    }
    expect(events.filter((event) => event.type === 'PHONE_REFERRED')).toHaveLength(1)
  })

  it('a REFER the far end accepted but could not carry out (NOTIFY with a failure) is a failed transfer', async () => {
    const { phone, made, events } = await started()
    const origin = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(origin)
    await phone.answer('in-1')
    await phone.transferBlind('in-1', '*82001')
    origin.referDelegate?.onAccept?.(response(202, 'Accepted'))
    // baresip after 'connect error: Protocol not supported' (a WebSocket contact in Refer-To).
    origin.notify('SIP/2.0 500 Call Failed\r\n')
    origin.notify('SIP/2.0 200 OK\r\n')
    expect(events.filter((event) => event.type === 'PHONE_TRANSFERRED')).toEqual([
      { type: 'PHONE_TRANSFERRED', callId: 'in-1', ok: false, reason: 'Call Failed' },
    ])
    // The call stays with the agent.
    expect(origin.bye).not.toHaveBeenCalled()
  })

  it('a transferee that accepted the REFER and left the call without a final NOTIFY has been transferred', async () => {
    const { phone, made, events } = await started()
    const origin = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(origin)
    await phone.answer('in-1')
    await phone.transferBlind('in-1', '*82001')
    origin.referDelegate?.onAccept?.(response(202, 'Accepted'))
    origin.set('Terminated')
    expect(events.filter((event) => event.type === 'PHONE_TRANSFERRED')).toEqual([{ type: 'PHONE_TRANSFERRED', callId: 'in-1', ok: true }])
  })

  it('an INVITE replacing one of our calls (attended transfer followed by the far end) takes its place, answered at once', async () => {
    const { phone, made, events } = await started()
    expect(made.userAgents[0].options.sipExtensionReplaces).toBeUndefined()
    const consult = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(consult)
    await phone.answer('in-1')
    const before = events.length
    const customer = Object.assign(new FakeInvitation(), {
      replacee: consult,
      remoteIdentity: { uri: { user: '01130000001' }, displayName: '' },
    })
    made.userAgents[0].options.delegate.onInvite(customer)
    await Promise.resolve()
    expect(customer.accept).toHaveBeenCalledTimes(1)
    // The call is the customer's now: their step uid, number and headers; no new call is announced.
    const replaced = {
      type: 'PHONE_REPLACED',
      callId: 'in-1',
      uid: 'uid-77',
      phone: '01130000001',
      name: '',
      headers: { 'X-Atende-Uid': 'uid-77', 'X-Atende-Call-Type': '20', 'X-Atende-Queue': 'vendas' },
    }
    expect(events.slice(before)).toEqual([replaced])
    // sip.js hangs the replaced session up: the call goes on.
    consult.set('Terminated')
    expect(events.slice(before)).toEqual([replaced])
    // It is the same call to the machine: hang-up reaches the new session, whose end ends the call.
    await phone.hangup('in-1')
    expect(customer.bye).toHaveBeenCalledTimes(1)
    expect(events.slice(before)).toEqual([replaced, { type: 'PHONE_ENDED', callId: 'in-1', code: null, reason: 'BYE' }])
  })

  it('asks the real sip.js to accept INVITEs with Replaces', () => {
    const { sip, made } = fakeSip()
    createSipPhone(CONFIG, () => {}, {
      sip: { ...sip, extensionSupported: 'Supported' },
      getUserMedia: vi.fn(),
      createAudio: vi.fn(),
      createAudioContext: vi.fn(),
      target: { addEventListener: vi.fn(), removeEventListener: vi.fn() },
      setInterval: vi.fn(),
      clearInterval: vi.fn(),
    } as unknown as SipPhoneDeps)
    expect(made.userAgents[0].options.sipExtensionReplaces).toBe('Supported')
    expect(SIP_JS.extensionSupported).toBe('Supported')
  })

  it('reads the status line of a sipfrag', () => {
    expect(sipfragStatus('SIP/2.0 180 Ringing\r\n')).toEqual({ code: 180, reason: 'Ringing' })
    expect(sipfragStatus('SIP/2.0 486 Busy Here')).toEqual({ code: 486, reason: 'Busy Here' })
    expect(sipfragStatus('')).toBeNull()
    expect(sipfragStatus(undefined)).toBeNull()
  })

  it('mixes a conference: each call is sent the microphone and the other calls; ending gives the microphone back', async () => {
    const { phone, made, connections } = await started()
    const a = new FakeInvitation()
    const b = new FakeInvitation()
    a.sessionDescriptionHandler.remoteMediaStream = { id: 'remote-a' } as unknown as MediaStream
    b.sessionDescriptionHandler.remoteMediaStream = { id: 'remote-b' } as unknown as MediaStream
    made.userAgents[0].options.delegate.onInvite(a)
    made.userAgents[0].options.delegate.onInvite(b)
    const micA = a.sender.track
    phone.conference(['in-1', 'in-2'])
    expect(connections).toEqual([
      ['mic(1)', 'mix-1'],
      ['remote-b', 'mix-1'],
      ['mic(1)', 'mix-2'],
      ['remote-a', 'mix-2'],
    ])
    expect(a.sender.replaceTrack).toHaveBeenCalledTimes(1)
    expect(b.sender.replaceTrack).toHaveBeenCalledTimes(1)
    expect(a.sender.track).not.toBe(micA)
    phone.conference([])
    expect(a.sender.track).toBe(micA)
    expect(b.sender.track).toBe(micA)
  })

  describe("a supervisor's coaching leg (whisper and barge on a direct call)", () => {
    const SESSION = '0123456789abcdef'
    function coachLeg(mode: string, overrides: { from?: string; session?: string } = {}) {
      const leg = new FakeInvitation()
      const headers: Record<string, string> = {
        'X-Atende-Monitor': mode,
        'X-Atende-Monitor-Session': overrides.session ?? SESSION,
        'X-Atende-Monitor-Supervisor': 'Sofia',
      }
      leg.request = { callId: 'coach-sip-id', getHeader: (name: string) => headers[name] }
      leg.remoteIdentity = { uri: { user: overrides.from ?? 'atende-media' }, displayName: '' }
      leg.sessionDescriptionHandler.remoteMediaStream = { id: 'supervisor' } as unknown as MediaStream
      return leg
    }
    async function onCall() {
      const s = await started()
      const customer = new FakeInvitation()
      customer.sessionDescriptionHandler.remoteMediaStream = { id: 'customer' } as unknown as MediaStream
      s.made.userAgents[0].options.delegate.onInvite(customer)
      await s.phone.answer('in-1')
      s.events.length = 0
      s.audios.length = 0
      return { ...s, customer }
    }

    it('whisper: answered at once and silently, never a call; the supervisor is played; the customer track stays the microphone', async () => {
      const { made, events, audios, customer } = await onCall()
      const mic = customer.sender.track
      const leg = coachLeg('whisper')
      made.userAgents[0].options.delegate.onInvite(leg)
      expect(leg.accept).toHaveBeenCalledWith({ sessionDescriptionHandlerOptions: { constraints: { audio: { deviceId: { exact: 'mic-2' } }, video: false } } })
      expect(events).toEqual([{ type: 'PHONE_COACHING', coaching: { mode: 'whisper', supervisor: 'Sofia' } }])
      expect(audios).toHaveLength(1)
      expect(audios[0]!.srcObject).toEqual({ id: 'supervisor' })
      expect(audios[0]!.sinkId).toBe('spk-3')
      expect(customer.sender.replaceTrack).not.toHaveBeenCalled()
      expect(customer.sender.track).toBe(mic)
      // Its end: nothing but the notice goes.
      leg.set('Terminated')
      expect(events.at(-1)).toEqual({ type: 'PHONE_COACHING', coaching: null })
      expect(events.some((event) => event.type === 'PHONE_ENDED' || event.type === 'PHONE_INCOMING')).toBe(false)
      expect(audios[0]!.srcObject).toBeNull()
    })

    it('barge: the customer is sent the microphone plus the supervisor; back to whisper (INFO) and the end give the microphone back', async () => {
      const { phone, made, events, connections, customer } = await onCall()
      const mic = customer.sender.track
      const leg = coachLeg('barge')
      made.userAgents[0].options.delegate.onInvite(leg)
      expect(events).toEqual([{ type: 'PHONE_COACHING', coaching: { mode: 'barge', supervisor: 'Sofia' } }])
      expect(connections).toEqual([
        ['mic(1)', 'mix-1'],
        ['supervisor', 'mix-1'],
      ])
      expect(customer.sender.track).not.toBe(mic)
      // Mute silences the microphone in the mix, not the supervisor.
      phone.mute('in-1', true)
      expect(mic.enabled).toBe(false)
      phone.mute('in-1', false)
      // An INFO switches to whisper: the plain microphone again.
      const info = (mode: string) => ({
        request: { getHeader: (name: string) => (name === 'X-Atende-Monitor' ? mode : undefined) },
        accept: vi.fn(async () => {}),
      })
      const toWhisper = info('whisper')
      leg.delegate?.onInfo?.(toWhisper)
      expect(toWhisper.accept).toHaveBeenCalled()
      expect(customer.sender.track).toBe(mic)
      expect(events.at(-1)).toEqual({ type: 'PHONE_COACHING', coaching: { mode: 'whisper', supervisor: 'Sofia' } })
      // And back to barge: mixed again; the leg ends: the microphone again.
      leg.delegate?.onInfo?.(info('barge'))
      expect(customer.sender.track).not.toBe(mic)
      leg.set('Terminated')
      expect(customer.sender.track).toBe(mic)
      expect(events.at(-1)).toEqual({ type: 'PHONE_COACHING', coaching: null })
    })

    it('is an ordinary incoming call unless it comes from the media app with a session id and a whisper or barge mode', async () => {
      for (const leg of [coachLeg('whisper', { from: '5511999990000' }), coachLeg('whisper', { session: 'forged' }), coachLeg('listen')]) {
        const { made, events } = await started()
        events.length = 0
        made.userAgents[0].options.delegate.onInvite(leg)
        expect(leg.accept).not.toHaveBeenCalled()
        expect(events.map((event) => event.type)).toEqual(['PHONE_INCOMING'])
      }
    })

    it('a second leg while one lasts is refused; stop hangs the leg up', async () => {
      const { phone, made, events } = await onCall()
      const leg = coachLeg('whisper')
      made.userAgents[0].options.delegate.onInvite(leg)
      const other = coachLeg('barge')
      made.userAgents[0].options.delegate.onInvite(other)
      expect(other.reject).toHaveBeenCalledWith({ statusCode: 486, reasonPhrase: 'Busy Here' })
      await phone.stop()
      expect(leg.bye).toHaveBeenCalled()
      expect(events.filter((event) => event.type === 'PHONE_COACHING').at(-1)).toEqual({ type: 'PHONE_COACHING', coaching: null })
    })
  })

  it('unregisters on pagehide, and stop hangs up, unregisters and disconnects', async () => {
    const { phone, made, listeners } = await started()
    listeners.get('pagehide')?.()
    expect(made.registerers[0].unregister).toHaveBeenCalledTimes(1)
    await phone.call('call-1', '2001', {})
    await phone.stop()
    expect(made.inviters[0].cancel).toHaveBeenCalled()
    expect(made.registerers[0].unregister).toHaveBeenCalledTimes(2)
    expect(made.userAgents[0].stop).toHaveBeenCalled()
    expect(listeners.has('pagehide')).toBe(false)
  })

  it('switches the output device of playing calls and the microphone of their senders', async () => {
    const { phone, made, audios, micTrack } = await started()
    const invitation = new FakeInvitation()
    made.userAgents[0].options.delegate.onInvite(invitation)
    await phone.answer('in-1')
    await phone.setAudioDevices({ input: 'mic-9', output: 'spk-9' })
    expect(audios[0].sinkId).toBe('spk-9')
    expect(invitation.sender.track).toBe(micTrack)
    await phone.call('call-1', '2001', {})
    expect(made.inviters[0].options.sessionDescriptionHandlerOptions.constraints).toEqual({ audio: { deviceId: { exact: 'mic-9' } }, video: false })
  })
})

describe('sipSocketUrl', () => {
  it("opens our /ws/sip proxy on the page's own origin, whatever host the profile names", () => {
    // The demo writes ws://localhost:PORT: a browser on 127.0.0.1 would send no session cookie there.
    expect(sipSocketUrl('ws://localhost:8295/ws/sip', { protocol: 'http:', host: '127.0.0.1:8295' })).toBe('ws://127.0.0.1:8295/ws/sip')
    expect(sipSocketUrl('ws://localhost:8080/ws/sip/', { protocol: 'https:', host: 'atende.example.com' })).toBe('wss://atende.example.com/ws/sip')
    expect(sipSocketUrl('/ws/sip', { protocol: 'https:', host: 'atende.example.com' })).toBe('wss://atende.example.com/ws/sip')
  })

  it('leaves any other WebSocket (an outside SIP server) and a missing page alone', () => {
    expect(sipSocketUrl('wss://pbx.example.net:7443/ws', { protocol: 'https:', host: 'atende.example.com' })).toBe('wss://pbx.example.net:7443/ws')
    expect(sipSocketUrl('ws://localhost:8080/ws/sip')).toBe('ws://localhost:8080/ws/sip')
  })

  it('the user agent connects to the resolved URL', () => {
    const { sip, made } = fakeSip()
    createSipPhone({ ...CONFIG, websocket: 'ws://localhost:8080/ws/sip' }, () => {}, {
      sip,
      getUserMedia: vi.fn(),
      createAudio: vi.fn(),
      createAudioContext: vi.fn(),
      target: { addEventListener: vi.fn(), removeEventListener: vi.fn() },
      setInterval: vi.fn(),
      clearInterval: vi.fn(),
      pageOrigin: { protocol: 'https:', host: 'atende.example.com' },
    } as unknown as SipPhoneDeps)
    expect(made.userAgents[0].options.transportOptions.server).toBe('wss://atende.example.com/ws/sip')
  })
})
