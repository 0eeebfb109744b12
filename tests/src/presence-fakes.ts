import { afterEach, beforeEach, vi } from 'vitest'
import type { Pause, PauseResponse } from '../../contract/api/agent.ts'
import type { AgentSystemEffects, ChannelLike, SocketLike, WebphoneEffects } from '../../src/app/agentSystem.ts'
import type { PhoneConfig, PhoneEvent, SipPhone, VoipProfile, WebphoneTeam } from '../../machines/webphoneTypes.ts'

// Fakes of the browser for the agent system: a WebSocket the test opens and feeds, BroadcastChannels that deliver to
// the other tabs of one fake browser, and recording effects.

export class FakeSocket implements SocketLike {
  static all: FakeSocket[] = []
  readyState = 0
  readonly url: string
  readonly sent: Record<string, unknown>[] = []
  onopen: SocketLike['onopen'] = null
  onmessage: SocketLike['onmessage'] = null
  onclose: SocketLike['onclose'] = null
  onerror: SocketLike['onerror'] = null

  constructor(url: string) {
    this.url = url
    FakeSocket.all.push(this)
  }

  send(data: string) {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open')
    this.sent.push(JSON.parse(data))
  }

  close() {
    if (this.readyState === 3) return
    this.readyState = 3
    this.onclose?.({} as CloseEvent)
  }

  /** The server accepts the upgrade. */
  open() {
    this.readyState = 1
    this.onopen?.({} as Event)
  }

  /** A frame from the server. */
  receive(message: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent)
  }

  actions() {
    return this.sent.map((m) => m.action)
  }

  static last(): FakeSocket {
    const socket = FakeSocket.all[FakeSocket.all.length - 1]
    if (!socket) throw new Error('no socket opened')
    return socket
  }
}

/** The BroadcastChannels of one browser: a message reaches every other open channel of the same name. */
export function fakeBrowserChannels() {
  const open = new Set<FakeChannel>()
  class FakeChannel implements ChannelLike {
    readonly name: string
    onmessage: ChannelLike['onmessage'] = null
    constructor(name: string) {
      this.name = name
      open.add(this)
    }
    postMessage(message: unknown) {
      const copy = structuredClone(message)
      for (const other of open) if (other !== this && other.name === this.name) queueMicrotask(() => other.onmessage?.({ data: copy } as MessageEvent))
    }
    close() {
      open.delete(this)
    }
  }
  return { FakeChannel, open }
}

export function pauseRecord(overrides: Partial<Pause> = {}): Pause {
  return {
    id: 41,
    pause_id: 3,
    description: 'Café',
    started_time: new Date().toISOString(),
    started_timestamp: Math.floor(Date.now() / 1000),
    maximum_duration: 0,
    seconds: 0,
    exceeded: false,
    user: 7,
    started_by: 7,
    pending: false,
    enable_webphone: true,
    enable_webchat: true,
    allow_incoming_call: false,
    allow_outgoing_call: false,
    allow_incoming_chat: false,
    allow_outgoing_chat: false,
    lock_screen: false,
    ...overrides,
  }
}

export function answer(success: boolean, pause: Pause | null, code: PauseResponse['code'] = 0, detail = ''): PauseResponse {
  return { success, pause, code, detail }
}

/** Recording effects; every call is also in `log`. */
export function fakeEffects(openChannel: (name: string) => ChannelLike | null = () => null) {
  const log: string[] = []
  const effects = {
    openSocket: (url: string) => new FakeSocket(url),
    openChannel,
    startPause: vi.fn(async (_request: unknown): Promise<PauseResponse> => answer(true, pauseRecord())),
    stopPause: vi.fn(async (_request: unknown): Promise<PauseResponse> => answer(true, null)),
    checkPause: vi.fn(async (): Promise<Pause | null> => null),
    rememberPause: vi.fn(),
    rememberActivities: vi.fn(),
    validatePassword: vi.fn(async (password: string) => ({ success: password === 'certa' })),
    reload: vi.fn(() => log.push('reload')),
    openUrl: vi.fn(),
    notify: vi.fn(),
    logout: vi.fn(() => log.push('logout')),
    refetchProfile: vi.fn(),
    postToParent: vi.fn(),
    logFailure: vi.fn(),
    stopPhone: vi.fn(() => log.push('stopPhone')),
  } satisfies AgentSystemEffects
  return { effects, log }
}

/**
 * The agent systems a test file starts: each test runs on fake timers with no socket left from the last one, and the
 * systems it started are stopped after it. Returns the list to push them on.
 */
export function agentSystemsPerTest(): { stop(): void }[] {
  const running: { stop(): void }[] = []
  beforeEach(() => {
    vi.useFakeTimers()
    FakeSocket.all = []
  })
  afterEach(() => {
    for (const system of running.splice(0)) system.stop()
    vi.useRealTimers()
  })
  return running
}

/** A phone profile and team for the agent-system webphone tests. */
export const FAKE_VOIP: VoipProfile = { websocket: 'wss://atende.test/ws/sip', endpoint: '1001', realm: 'atende.test', password: 'pw', device_state_busy_at: 1 }
export const FAKE_TEAM: WebphoneTeam = { outbound_routes: [], enable_auto_login_webphone: true, enable_webphone_auto_answer: false }

/**
 * The webphone's browser side for the agent system: every sip.js phone it makes records the commands it gets, and the
 * test emits the phone's events; call metadata answers `metadata`.
 */
export function fakeWebphone(metadata: Record<string, unknown> | null = null) {
  const phones: { config: PhoneConfig; emit: (event: PhoneEvent) => void; calls: unknown[][]; stopped: boolean }[] = []
  const webphone: WebphoneEffects = {
    createSipPhone: (config, emit) => {
      const entry = { config, emit, calls: [] as unknown[][], stopped: false }
      phones.push(entry)
      const record =
        (name: string) =>
        async (...args: unknown[]) =>
          void entry.calls.push([name, ...args])
      const phone: SipPhone = {
        start: async () => emit({ type: 'PHONE_STARTED' }),
        stop: async () => void (entry.stopped = true),
        call: record('call'),
        answer: record('answer'),
        hangup: record('hangup'),
        hold: record('hold'),
        mute: (...args) => void entry.calls.push(['mute', ...args]),
        dtmf: (...args) => void entry.calls.push(['dtmf', ...args]),
        transferBlind: record('transferBlind'),
        transferAttended: record('transferAttended'),
        conference: (...args) => void entry.calls.push(['conference', ...args]),
        setAudioDevices: record('setAudioDevices'),
      }
      return phone
    },
    fetchCallMetadata: vi.fn(async () => metadata),
    cancelTransfer: vi.fn(async () => ({})),
    startAfterService: vi.fn(async () => ({ id: 77, ignore_after_service_dial_status: false })),
    endAfterService: vi.fn(async () => {}),
    saveForm: vi.fn(async () => {}),
    telephonyChannel: vi.fn(async () => ({})),
    notifyIncomingCall: vi.fn(),
    permissions: () => ({ audio: true, notifications: true }),
  }
  return { webphone, phones }
}
