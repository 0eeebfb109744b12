import { createActor, enqueueActions, fromCallback, fromPromise, sendTo, setup } from 'xstate'
import type { ActorRefFrom, AnyActorRef, AnyEventObject, InspectionEvent, SnapshotFrom } from 'xstate'
import * as v from 'valibot'
import type { Pause } from '../../contract/api/agent.ts'
import { ACTIVITY_CALL_HEADER } from '../../contract/api/activities.ts'
import type { Activity } from '../../contract/api/activities.ts'
import { SERVER_MESSAGES } from '../../contract/realtime/service-socket.ts'
import type { ValidatePasswordResponse } from '../../contract/api/profile.ts'
import type { Locale } from '../../contract/locales.ts'
import { has, PERMISSIONS } from '../../contract/permissions.ts'
import { activityDialerMachine } from '../../machines/activityDialer.machine.ts'
import type { DialRequest, DialResult } from '../../machines/activityDialer.machine.ts'
import { agentStatusMachine } from '../../machines/agentStatus.machine.ts'
import type { ParentStatusMessage } from '../../machines/agentStatus.machine.ts'
import { audioPermissionMachine } from '../../machines/audioPermission.machine.ts'
import type { PlaybackReport } from '../../machines/audioPermission.machine.ts'
import { PAUSED_BY_SUPERVISOR_NOTICE, pauseFlags, pauseMachine } from '../../machines/pause.machine.ts'
import type { PauseResponse, StartPauseRequest, StopPauseRequest } from '../../machines/pause.machine.ts'
import { screenLockMachine } from '../../machines/screenLock.machine.ts'
import { serviceSocketMachine } from '../../machines/serviceSocket.machine.ts'
import type { TransportCommand } from '../../machines/serviceSocket.machine.ts'
import { tabMessageToEvent, tabOwnershipMachine } from '../../machines/tabOwnership.machine.ts'
import type { TabMessage } from '../../machines/tabOwnership.machine.ts'
import { webchatStatusMachine } from '../../machines/webchatStatus.machine.ts'
import type { CallMetadata } from '../../machines/call.machine.ts'
import type { CancelTransferRequest } from '../../machines/transfer.machine.ts'
import { webphoneCallMachine, webphoneMachine, webphoneStatusInputs, webphoneTransferMachine } from '../../machines/webphone.machine.ts'
import type { DialOrigin } from '../../machines/webphone.machine.ts'
import { phoneActor } from '../../machines/webphoneTypes.ts'
import type { CreateSipPhone, VoipProfile, WebphoneTeam } from '../../machines/webphoneTypes.ts'
import type { AgentStatus, Notice, SocketMessage } from '../../machines/types.ts'
import { createStore } from './store.ts'
import type { Store } from './store.ts'

// The root actor system of a signed-in user (ARCHITECTURE.md "How data flows"): one XState system, `agentSystem`,
// whose children are the presence machines of machines/ with their effects supplied here with .provide(). Siblings
// reach each other through the system (`system.get(id)`); the few "this actor changed, tell that one" links are
// subscriptions below. Everything the browser does (socket, BroadcastChannel, HTTP, reload, toasts) comes in as
// `AgentSystemEffects`, so tests drive the whole system with fakes. Views never own timers or sockets: they read the
// actors with useSelector (AgentSystemProvider.tsx).

/** The parts of a WebSocket the service socket uses (the browser's WebSocket satisfies it). */
export type SocketLike = {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: Event) => void) | null
  onmessage: ((event: MessageEvent) => void) | null
  onclose: ((event: CloseEvent) => void) | null
  onerror: ((event: Event) => void) | null
}

/** The parts of a BroadcastChannel tab ownership uses. */
export type ChannelLike = {
  postMessage(message: unknown): void
  close(): void
  onmessage: ((event: MessageEvent) => void) | null
}

export type AgentSystemEffects = {
  openSocket(url: string): SocketLike
  /** null where the browser has no BroadcastChannel: the server alone then decides which tab serves. */
  openChannel(name: string): ChannelLike | null
  startPause(request: StartPauseRequest): Promise<PauseResponse>
  stopPause(request: StopPauseRequest): Promise<PauseResponse>
  checkPause(): Promise<Pause | null>
  /** The pause as the server last described it (start answer, socket, check): server state for the views' query cache. */
  rememberPause(pause: Pause | null): void
  /** The agent's due activities as the socket last listed them (`activity`): server state for the query cache. */
  rememberActivities(activities: Activity[]): void
  /** Resolves `{ success }`; a rejection may carry `fieldErrors` (the API client's ApiError). */
  validatePassword(password: string): Promise<ValidatePasswordResponse>
  reload(): void
  openUrl(url: string): void
  /** A toast (or notice) in the user's language; `message` is the machines' pt-BR text or a server detail. */
  notify(notice: Notice): void
  /** The app's sign-out (the /logout page). */
  logout(): void
  /** `updateUser`: the profile query is refetched. */
  refetchProfile(): void
  postToParent(message: ParentStatusMessage): void
  logFailure(reason: string): void
  /** Tab ownership lost: the webphone actor stops its phone itself (SERVING_CHANGED); anything else to drop here. */
  stopPhone(): void
  /** The webphone's browser side; without it the webphone stays off. */
  webphone?: WebphoneEffects
  /** The activity requests the dialer makes; without them (or the webphone) no activity is dialled. */
  activities?: ActivityEffects
  /** The console's audio playbacks (src/features/presence/audioPlayback.ts); without it the audio dialog never opens. */
  audio?: AudioEffects
}

/** Audio the browser may refuse to play until a user gesture (spec 000 §2 audio dialog, §8). */
export type AudioEffects = {
  /** Hears how every playback went until the returned function is called. */
  subscribe(listener: (report: PlaybackReport) => void): () => void
  /** The start-up check: a silent playback, reported like any other. */
  probe(): void
  /** Plays the refused playbacks again; runs inside the click on 'Permitir', the gesture the browser waits for. */
  retry(ids: readonly string[]): void
}

/** What the activity dialer asks of the server (contract/api/activities.ts ACTIVITY_PATHS). */
export type ActivityEffects = {
  /** POST …/activities/{id}/attempt/: one more dial attempt (the 50th makes it done). */
  attempt(id: number): Promise<Activity>
  /** POST …/activities/{id}/done/. */
  done(id: number): Promise<Activity>
}

/** What the webphone actor needs from the browser (src/features/webphone/sipPhone.ts, the API client). */
export type WebphoneEffects = {
  /** The sip.js adapter. */
  createSipPhone: CreateSipPhone
  /** One metadata attempt for a call (its form, client, activity): null while the server has none yet. */
  fetchCallMetadata(uid: string): Promise<CallMetadata | null>
  /** POST /v1/agent/transfer/cancel/. */
  cancelTransfer(request: CancelTransferRequest): Promise<unknown>
  /** The desktop notification of an incoming call (answer / hang up, unless answered automatically). */
  notifyIncomingCall(call: { callId: string; phone: string; name: string; actions: boolean }): void
  /** What the browser already says about audio and notifications; the phone's own microphone probe decides the rest. */
  permissions(): { audio: boolean; notifications: boolean } | null
  /** The telephony channel sign-in (spec 000 §7 "Agent channel"): POST channel/login (by user or system) or logout. */
  telephonyChannel(loggedIn: boolean, by: 'user' | 'system'): Promise<unknown>
}

export type AgentSystemOptions = {
  userId: number
  roles: readonly string[]
  endpoint: string | null
  token: string | null
  locale: Locale
  /** The page open when the system starts (reported on the socket as change_page). */
  page: string
  tabId: string
  socketUrl: string
  /**
   * True once a webphone actor feeds the telephony inputs (registration, calls). Until then nobody has a phone that
   * could be busy, so the pause treats 'unavailable' as available (see README "Pause without a webphone").
   */
  webphone: boolean
  /** The profile's voip data and team (spec 000 §3); the webphone starts only with voip, for a user with the softphone. */
  voip?: VoipProfile | null
  team?: WebphoneTeam | null
}

export const BROADCAST_CHANNEL_NAME = 'atende-service'

/** What a received socket action turns into: an event for a sibling, or an effect. */
type Step = { to: AgentActorName; event: AnyEventObject } | (() => void)

/** Stands in for an actor of a stopped system: events sent to it go nowhere. */
const DETACHED = { send: () => {} }

/** The children of the root, by system id (the same names as machines/index.ts). */
export type AgentActors = {
  tabOwnership: ActorRefFrom<typeof tabOwnershipMachine>
  serviceSocket: ActorRefFrom<typeof serviceSocketMachine>
  pause: ActorRefFrom<typeof pauseMachine>
  screenLock: ActorRefFrom<typeof screenLockMachine>
  agentStatus: ActorRefFrom<typeof agentStatusMachine>
  webchatStatus: ActorRefFrom<typeof webchatStatusMachine>
  webphone: ActorRefFrom<typeof webphoneMachine>
  activityDialer: ActorRefFrom<typeof activityDialerMachine>
  audioPermission: ActorRefFrom<typeof audioPermissionMachine>
}
export type AgentActorName = keyof AgentActors
export const AGENT_ACTOR_NAMES = ['tabOwnership', 'serviceSocket', 'pause', 'screenLock', 'agentStatus', 'webchatStatus', 'webphone', 'activityDialer', 'audioPermission'] as const satisfies readonly AgentActorName[]

/** A transition an actor took: its state's path, its event type and its place among that state's transitions for it. */
export type TakenTransition = { source: string; eventType: string; index: number }

/** The last event each child received and the transitions it took, for the machine visualizer. */
export type LastEvent = { type: string; at: number; count: number; taken: TakenTransition[] }

type DefinitionLike = { eventType: string; source: { path: string[]; transitions: Map<string, unknown[]>; always?: unknown[] } }

function taken(definition: DefinitionLike): TakenTransition {
  const { source, eventType } = definition
  const group = source.transitions.get(eventType) ?? source.always ?? []
  return { source: source.path.join('.'), eventType, index: group.indexOf(definition) }
}

export type AgentSystem = {
  get<K extends AgentActorName>(name: K): AgentActors[K]
  lastEvents: Store<Partial<Record<AgentActorName, LastEvent>>>
  /** The SPA navigated. */
  pageChanged(page: string): void
  /** Stops every actor; `signingOut` first tells the server on the socket (spec 000 §4 "Logout"). */
  stop(options?: { signingOut?: boolean }): void
}

/**
 * What the pause waits for (spec 000 §4: a pending pause starts when the webphone status is not_inuse,
 * do_not_disturb or paused). Without a webphone nothing can keep the agent busy, and its 'unavailable' only says
 * that no phone is registered, so the pause sees 'not_inuse' instead (machines/README.md, wiring).
 */
export function statusForPause(status: AgentStatus | null, webphone: boolean): AgentStatus {
  if (!status) return 'unavailable'
  return !webphone && status === 'unavailable' ? 'not_inuse' : status
}

export function createAgentSystem(options: AgentSystemOptions, effects: AgentSystemEffects): AgentSystem {
  const channel = effects.openChannel(BROADCAST_CHANNEL_NAME)
  const lastEvents = createStore<Partial<Record<AgentActorName, LastEvent>>>({})
  // Siblings by system id. The root exists before it starts, and the children register as it starts, so the entry
  // actions of one child (a first status report) already reach the others.
  // After stop() they are gone: late answers (a pause check, a reload timer) then reach nobody, harmlessly.
  let system: AnyActorRef['system'] | null = null
  const to = <K extends AgentActorName>(name: K): AgentActors[K] => (system?.get(name) ?? DETACHED) as AgentActors[K]
  const sendSocket = (message: SocketMessage) => to('serviceSocket').send({ type: 'SEND', message })
  // Inside an actor's actions, siblings are reached with the built-in sendTo: XState delivers it once the sender's own
  // actions are done, so a receiver never runs in the middle of them.
  const serviceSocketRef = ({ system }: { system: AnyActorRef['system'] }) => system.get('serviceSocket')
  const sendEvent = (_: unknown, message: SocketMessage) => ({ type: 'SEND' as const, message })

  // The pause check needs the break permission; others have no pause to re-sync.
  const canPause = has(options.roles, PERMISSIONS.viewTakeBreak)
  const phoneEffects = effects.webphone
  function resyncPause() {
    if (!canPause) return
    effects
      .checkPause()
      .then((pause) => {
        effects.rememberPause(pause)
        to('pause').send({ type: 'REMOTE_SYNC', pause })
      })
      .catch((error: unknown) => effects.logFailure(`pause check failed: ${String((error as Error)?.message ?? error)}`))
  }

  /**
   * Received socket actions the app acts on (the rest belong to the webphone, chat and activity actors to come): an
   * event for a sibling, or an effect.
   */
  function route(message: SocketMessage): Step[] {
    switch (message.action) {
      case 'pause': {
        const pause = (message.pause ?? null) as Pause | null
        return [() => effects.rememberPause(pause), { to: 'pause', event: { type: 'REMOTE_SYNC', pause } }]
      }
      case 'startPause': {
        const pause = message.pause as Pause | undefined
        return pause ? [() => effects.rememberPause(pause), { to: 'pause', event: { type: 'REMOTE_START', pause } }] : []
      }
      case 'stopPause':
        return [() => effects.rememberPause(null), { to: 'pause', event: { type: 'REMOTE_STOP' } }]
      case 'startService':
        return [{ to: 'tabOwnership', event: { type: 'START_SERVICE' } }]
      case 'serviceElsewhere':
        return [{ to: 'tabOwnership', event: { type: 'SERVICE_ELSEWHERE' } }]
      // The webphone owns do-not-disturb and feeds agentStatus (wire below).
      case 'dnd':
        return [{ to: 'webphone', event: { type: 'SET_DND', dnd: message.dnd === true } }]
      case 'startWebphone':
        return [{ to: 'webphone', event: { type: 'START' } }]
      case 'changeDeviceState': {
        const state = message.state ?? message.status
        return [{ to: 'webphone', event: { type: 'DEVICE_STATE', state: typeof state === 'string' ? state : null } }]
      }
      case 'clickToCall': {
        const number = message.number ?? message.phone ?? message.destination
        const origin: DialOrigin = 'clickToCall'
        return typeof number === 'string' || typeof number === 'number'
          ? [{ to: 'webphone', event: { type: 'DIAL', number: String(number), origin, force: message.force === true } }]
          : []
      }
      case 'refresh':
        return [() => effects.reload()]
      case 'openUrl': {
        const url = message.url
        return typeof url === 'string' ? [() => effects.openUrl(url)] : []
      }
      case 'updateUser':
        return [() => effects.refetchProfile()]
      // The whole due list every time (answer to get_activities, or pushed after a change): it replaces the last one.
      case 'activity':
        return v.is(SERVER_MESSAGES.activity, message)
          ? [
              () => effects.rememberActivities(message.activities),
              { to: 'activityDialer', event: { type: 'ACTIVITIES', activities: message.activities, at: Date.now() } },
            ]
          : []
      default:
        return []
    }
  }

  const connection = fromCallback<TransportCommand, void>(({ sendBack, receive }) => {
    const socket = effects.openSocket(options.socketUrl)
    socket.onopen = () => sendBack({ type: 'SOCKET_OPEN' })
    socket.onclose = () => sendBack({ type: 'SOCKET_CLOSED' })
    socket.onmessage = (event) => {
      let message: unknown
      try {
        message = JSON.parse(String(event.data))
      } catch {
        return
      }
      sendBack({ type: 'SOCKET_MESSAGE', message })
    }
    receive((command) => {
      if (socket.readyState === 1) socket.send(JSON.stringify(command.message))
    })
    return () => {
      socket.onopen = socket.onclose = socket.onmessage = socket.onerror = null
      socket.close()
    }
  })

  const root = setup({
    types: { context: {} as AgentSystemOptions, input: {} as AgentSystemOptions },
    actors: {
      tabOwnership: tabOwnershipMachine.provide({
        actions: {
          broadcast: (_, message: TabMessage) => channel?.postMessage(message),
          sendSocket: sendTo(serviceSocketRef, sendEvent),
          stopPhone: () => effects.stopPhone(),
          reload: () => effects.reload(),
        },
      }),
      serviceSocket: serviceSocketMachine.provide({
        actors: { connection },
        actions: {
          forward: enqueueActions(({ enqueue, system }, message: SocketMessage) => {
            for (const step of route(message)) {
              if (typeof step === 'function') enqueue(step)
              else enqueue.sendTo(system.get(step.to), step.event)
            }
          }),
          resync: () => resyncPause(),
          notify: (_, notice) => effects.notify(notice),
          logout: () => effects.logout(),
        },
      }),
      pause: pauseMachine.provide({
        actors: {
          startPause: fromPromise(async ({ input }: { input: StartPauseRequest }) => {
            const answer = await effects.startPause(input)
            if (answer.success) effects.rememberPause((answer.pause ?? null) as Pause | null)
            return answer
          }),
          stopPause: fromPromise(async ({ input }: { input: StopPauseRequest }) => {
            const answer = await effects.stopPause(input)
            if (answer.success) effects.rememberPause(null)
            return answer
          }),
        },
        actions: {
          sendSocket: sendTo(serviceSocketRef, sendEvent),
          // The webphone owns do-not-disturb; its snapshot feeds agentStatus.
          setDnd: sendTo(({ system }) => system.get('webphone'), (_, { on }: { on: boolean }) => ({ type: 'SET_DND', dnd: on })),
          lockScreen: sendTo(
            ({ system }) => system.get('screenLock'),
            (_, { pauseStartedAt }: { pauseStartedAt: number | null }) => ({ type: 'LOCK', by: 'pause', pauseStartedAt }),
          ),
          notify: (_, notice) => effects.notify(notice),
        },
      }),
      screenLock: screenLockMachine.provide({
        actors: { validatePassword: fromPromise(({ input }: { input: { password: string } }) => effects.validatePassword(input.password)) },
        actions: { logFailure: (_, { reason }) => effects.logFailure(`unlock failed: ${reason}`) },
      }),
      agentStatus: agentStatusMachine.provide({
        actions: {
          sendSocket: sendTo(serviceSocketRef, sendEvent),
          postToParent: (_, message: ParentStatusMessage) => effects.postToParent(message),
        },
      }),
      webchatStatus: webchatStatusMachine.provide({
        actions: { sendSocket: sendTo(serviceSocketRef, sendEvent) },
      }),
      webphone: webphoneMachine.provide({
        actions: {
          sendSocket: sendTo(serviceSocketRef, sendEvent),
          notify: (_, notice) => effects.notify(notice),
          notifyIncoming: (_, call) => phoneEffects?.notifyIncomingCall(call),
        },
        actors: {
          phone: phoneActor((config, emit) => (phoneEffects as WebphoneEffects).createSipPhone(config, emit)),
          call: webphoneCallMachine.provide({
            actors: { fetchMetadata: fromPromise(({ input }: { input: { uid: string; callId: string; attempt: number } }) => (phoneEffects as WebphoneEffects).fetchCallMetadata(input.uid)) },
          }),
          transfer: webphoneTransferMachine.provide({
            actors: { cancelTransfer: fromPromise(({ input }: { input: CancelTransferRequest }) => (phoneEffects as WebphoneEffects).cancelTransfer(input)) },
          }),
        },
      }),
      activityDialer: activityDialerMachine.provide({
        actors: {
          attempt: fromPromise(({ input }: { input: { id: number } }) => (effects.activities as ActivityEffects).attempt(input.id)),
          dial: fromPromise(async ({ input, system }: { input: DialRequest; system: AnyActorRef['system'] }) => dialActivity(system.get('webphone'), input)),
        },
        actions: {
          sendSocket: sendTo(serviceSocketRef, sendEvent),
          markDone: (_, { id }: { id: number }) =>
            void (effects.activities as ActivityEffects).done(id).catch((error: unknown) => effects.logFailure(`activity ${id} done failed: ${String((error as Error)?.message ?? error)}`)),
        },
      }),
      audioPermission: audioPermissionMachine.provide({
        actions: { retry: (_, { ids }) => effects.audio?.retry(ids) },
      }),
    },
  }).createMachine({
    id: 'agentSystem',
    context: ({ input }) => input,
    invoke: [
      { id: 'tabOwnership', systemId: 'tabOwnership', src: 'tabOwnership', input: ({ context }) => ({ tabId: context.tabId }) },
      { id: 'serviceSocket', systemId: 'serviceSocket', src: 'serviceSocket', input: ({ context }) => ({ page: context.page }) },
      {
        id: 'pause',
        systemId: 'pause',
        src: 'pause',
        input: ({ context }) => ({ userId: context.userId, agentStatus: statusForPause('unavailable', context.webphone) }),
      },
      { id: 'screenLock', systemId: 'screenLock', src: 'screenLock', input: () => ({}) },
      {
        id: 'agentStatus',
        systemId: 'agentStatus',
        src: 'agentStatus',
        input: ({ context }) => ({ token: context.token, endpoint: context.endpoint, locale: context.locale }),
      },
      { id: 'webchatStatus', systemId: 'webchatStatus', src: 'webchatStatus', input: () => ({}) },
      {
        id: 'webphone',
        systemId: 'webphone',
        src: 'webphone',
        // Without the browser side (or the softphone permission) there is no voip: the webphone stays off.
        input: ({ context }) => ({
          voip: phoneEffects && has(context.roles, PERMISSIONS.viewSoftphone) ? (context.voip ?? null) : null,
          team: context.team ?? null,
          permissions: phoneEffects?.permissions() ?? null,
        }),
      },
      {
        id: 'activityDialer',
        systemId: 'activityDialer',
        src: 'activityDialer',
        // Activities are dialled by the webphone: without it (or the requests) the dialer never starts a try.
        input: ({ context }) => ({ enabled: !!phoneEffects && !!effects.activities && has(context.roles, PERMISSIONS.viewSoftphone) }),
      },
      { id: 'audioPermission', systemId: 'audioPermission', src: 'audioPermission' },
    ],
  })

  const names = new Set<string>(AGENT_ACTOR_NAMES)
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.event' && event.type !== '@xstate.microstep') return
    const id = (event.actorRef as AnyActorRef).id
    if (!names.has(id)) return
    const name = id as AgentActorName
    if (event.type === '@xstate.event') {
      lastEvents.set((all) => ({ ...all, [name]: { type: event.event.type, at: Date.now(), count: (all[name]?.count ?? 0) + 1, taken: [] } }))
      return
    }
    // The microsteps of that event: the transitions it took (eventless ones that followed included).
    const steps = (event._transitions as unknown as DefinitionLike[]).map(taken)
    if (!steps.length) return
    lastEvents.set((all) => {
      const last = all[name]
      return last ? { ...all, [name]: { ...last, taken: [...last.taken, ...steps] } } : all
    })
  }

  let stopped = false
  const actor = createActor(root, { input: options, inspect })
  system = actor.system
  actor.start()
  const subscriptions = wire(to, options, effects)
  // Every playback of the console reports to the audio actor, from the start-up silence on (the dialog is the views').
  if (effects.audio) {
    subscriptions.push(effects.audio.subscribe((report) => to('audioPermission').send(report)))
    effects.audio.probe()
  }
  // Every tab learns the running pause at once (only the serving tab asks the socket for it, spec 001 §4).
  resyncPause()

  if (channel) {
    channel.onmessage = (event) => {
      const tabEvent = tabMessageToEvent(event.data, options.tabId)
      if (tabEvent) to('tabOwnership').send(tabEvent)
    }
  }

  return {
    get(name) {
      const ref = system?.get(name)
      if (!ref || stopped) throw new Error(`agentSystem: ${name} asked for after the system stopped`)
      return ref
    },
    lastEvents,
    pageChanged: (page) => to('serviceSocket').send({ type: 'PAGE_CHANGED', page }),
    stop({ signingOut = false } = {}) {
      if (stopped) return
      stopped = true
      if (signingOut) sendSocket({ action: 'logout' })
      for (const unsubscribe of subscriptions) unsubscribe()
      actor.stop()
      if (channel) {
        channel.onmessage = null
        channel.close()
      }
    },
  }
}

type Lookup = <K extends AgentActorName>(name: K) => AgentActors[K]

/** The links between siblings that follow a state rather than an event; returns the unsubscribers. */
function wire(to: Lookup, options: AgentSystemOptions, effects: AgentSystemEffects): (() => void)[] {
  let pauseKey = ''
  const onPause = (snapshot: SnapshotFrom<typeof pauseMachine>) => {
    const flags = pauseFlags(snapshot)
    const current = snapshot.context.current
    const key = JSON.stringify([flags.webphonePaused, flags.swapActive, flags.webchatPaused, current?.id ?? null, current?.startedAt ?? null])
    if (key === pauseKey) return
    pauseKey = key
    to('agentStatus').send({ type: 'PAUSE_CHANGED', webphonePause: flags.webphonePaused, pauseSwap: flags.swapActive })
    // A pause that enables the webphone takes the agent off calls both ways (the spec has no per-direction flags).
    to('webphone').send({
      type: 'PAUSE_CHANGED',
      allowIncoming: !flags.webphonePaused,
      allowOutgoing: !flags.webphonePaused,
      webphonePause: flags.webphonePaused,
      pauseSwap: flags.swapActive,
    })
    to('webchatStatus').send({ type: 'PAUSE_CHANGED', webchatPause: flags.webchatPaused })
    to('screenLock').send({ type: 'PAUSE_CHANGED', active: current !== null, startedAt: current?.startedAt ?? null })
  }

  let bySupervisor = false
  const onSupervisorPause = (snapshot: SnapshotFrom<typeof pauseMachine>) => {
    const now = snapshot.context.pausedBySupervisor
    if (now && !bySupervisor) effects.notify({ message: PAUSED_BY_SUPERVISOR_NOTICE, severity: 'info' })
    bySupervisor = now
  }

  // A webphone that is off (not logged in, another tab) cannot keep the agent busy: the pause then sees the status as
  // it would without a webphone.
  let statusForPauseSent: AgentStatus | null = null
  let agentStatusNow: AgentStatus | null = null
  let phoneOn = false
  const reportToPause = () => {
    const status = statusForPause(agentStatusNow, options.webphone && phoneOn)
    if (status === statusForPauseSent) return
    statusForPauseSent = status
    to('pause').send({ type: 'AGENT_STATUS', status })
  }
  const onAgentStatus = (snapshot: SnapshotFrom<typeof agentStatusMachine>) => {
    agentStatusNow = snapshot.context.status
    reportToPause()
  }
  const onPhoneRunning = (snapshot: SnapshotFrom<typeof webphoneMachine>) => {
    phoneOn = snapshot.matches('starting') || snapshot.matches('ready')
    reportToPause()
  }

  let serving = false
  const onTabOwnership = (snapshot: SnapshotFrom<typeof tabOwnershipMachine>) => {
    const now = snapshot.matches('serving')
    if (now === serving) return
    serving = now
    to('serviceSocket').send({ type: 'SERVING_CHANGED', serving })
  }

  // Every (re)connection hears the statuses again: those reported while the socket was down were dropped, and the
  // first ones were reported before it opened.
  let connected = false
  const onSocket = (snapshot: SnapshotFrom<typeof serviceSocketMachine>) => {
    const now = snapshot.matches({ connection: { socket: 'connected' } })
    if (now === connected) return
    connected = now
    if (!connected) return
    to('agentStatus').send({ type: 'RESEND' })
    to('webchatStatus').send({ type: 'RESEND' })
  }

  // Tab ownership → the webphone: it runs its phone only in the serving tab; nothing while the tabs still decide.
  let phoneServing: boolean | null = null
  const onTabForPhone = (snapshot: SnapshotFrom<typeof tabOwnershipMachine>) => {
    const now = snapshot.matches('serving') ? true : snapshot.matches('claiming') ? null : false
    if (now === null || now === phoneServing) return
    phoneServing = now
    to('webphone').send({ type: 'SERVING_CHANGED', serving: now })
  }

  // The webphone → agentStatus (registration, transport, calls, ringing, after-service, do-not-disturb) and the
  // socket's calls flag (a remote logout waits for the calls).
  let phoneInputs: ReturnType<typeof webphoneStatusInputs> | null = null
  const onWebphone = (snapshot: SnapshotFrom<typeof webphoneMachine>) => {
    const now = webphoneStatusInputs(snapshot)
    const was = phoneInputs
    phoneInputs = now
    const status = to('agentStatus')
    if (was?.registration !== now.registration) status.send({ type: 'REGISTRATION_CHANGED', registration: now.registration })
    if (was?.connected !== now.connected) status.send({ type: 'TRANSPORT_CHANGED', connected: now.connected })
    if (was?.calls !== now.calls || was?.ringing !== now.ringing) {
      status.send({ type: 'CALLS_CHANGED', calls: now.calls, ringing: now.ringing })
      if ((was?.calls ?? 0) > 0 !== now.calls > 0) to('serviceSocket').send({ type: 'CALLS_CHANGED', hasCalls: now.calls > 0 })
    }
    if (was?.afterService !== now.afterService) status.send({ type: 'AFTER_SERVICE_CHANGED', active: now.afterService })
    if (was?.dnd !== now.dnd) status.send({ type: 'DND_CHANGED', dnd: now.dnd })
  }

  // The telephony channel (spec 000 §7 "Agent channel", §3 login_channel_telephony): the queues offer calls only to
  // agents signed in to it. Signed in once the phone runs (by the system when the team's auto login started it, by the
  // user otherwise), out when the agent stops the phone; a phone stopped because another tab serves stays signed in.
  let channelIn = false
  const onPhoneChannel = (snapshot: SnapshotFrom<typeof webphoneMachine>) => {
    const channel = effects.webphone?.telephonyChannel
    if (!channel) return
    if (snapshot.matches('ready') && !channelIn) {
      channelIn = true
      channel(true, snapshot.context.autoLogin ? 'system' : 'user').catch(() => (channelIn = false))
    } else if (snapshot.matches('off') && channelIn) {
      channelIn = false
      channel(false, 'user').catch(() => {})
    }
  }

  // The activity dialer follows the serving tab, the registration, the status and its own call (answered, gone).
  const dialer = to('activityDialer')
  let dialerServing: boolean | null = null
  const onTabForDialer = (snapshot: SnapshotFrom<typeof tabOwnershipMachine>) => {
    const now = snapshot.matches('serving')
    if (now === dialerServing) return
    dialerServing = now
    dialer.send({ type: 'SERVING_CHANGED', serving: now })
  }
  let dialerRegistered: boolean | null = null
  const onPhoneForDialer = (snapshot: SnapshotFrom<typeof webphoneMachine>) => {
    const now = snapshot.context.registration === 'registered'
    if (now === dialerRegistered) return
    dialerRegistered = now
    dialer.send({ type: 'REGISTRATION_CHANGED', registered: now })
  }
  let dialerStatus: AgentStatus | null = null
  const onStatusForDialer = (snapshot: SnapshotFrom<typeof agentStatusMachine>) => {
    const now = snapshot.context.status
    if (!now || now === dialerStatus) return
    dialerStatus = now
    dialer.send({ type: 'STATUS_CHANGED', status: now })
  }
  let dialerCall = ''
  const onActivityCall = () => {
    const callId = to('activityDialer').getSnapshot().context.callId
    if (!callId) return void (dialerCall = '')
    const phone = to('webphone').getSnapshot().context
    const ended = !phone.calls.some((call) => call.id === callId)
    const accepted = phone.callStates[callId]?.accepted ?? false
    const key = JSON.stringify([callId, accepted, ended])
    if (key === dialerCall) return
    dialerCall = key
    to('activityDialer').send({ type: 'CALL_CHANGED', callId, accepted, ended })
  }

  const links = [
    follow(dialer, onActivityCall),
    follow(to('webphone'), onActivityCall),
    follow(to('tabOwnership'), onTabForDialer),
    follow(to('webphone'), onPhoneForDialer),
    follow(to('agentStatus'), onStatusForDialer),
    follow(to('webphone'), onPhoneChannel),
    follow(to('tabOwnership'), onTabForPhone),
    follow(to('webphone'), onWebphone),
    follow(to('webphone'), onPhoneRunning),
    follow(to('pause'), onPause),
    follow(to('pause'), onSupervisorPause),
    follow(to('agentStatus'), onAgentStatus),
    follow(to('tabOwnership'), onTabOwnership),
    follow(to('serviceSocket'), onSocket),
  ]
  return links
}

/**
 * Asks the webphone to dial an activity (origin 'activity', the activity id in the call headers) and answers the call
 * it started; a refusal (the webphone's own rules, a missing route) rejects.
 */
export function dialActivity(webphone: AgentActors['webphone'], request: DialRequest): DialResult {
  const known = new Set(webphone.getSnapshot().context.calls.map((call) => call.id))
  const origin: DialOrigin = 'activity'
  webphone.send({ type: 'DIAL', number: request.destination, origin, headers: { [ACTIVITY_CALL_HEADER]: String(request.id) } })
  const started = webphone.getSnapshot().context.calls.find((call) => !known.has(call.id))
  if (!started) throw new Error(`activity ${request.id}: the webphone did not dial ${request.destination}`)
  return { callId: started.id }
}

/** Calls `listener` with the current snapshot and every later one. */
function follow<TActor extends AnyActorRef>(actor: TActor, listener: (snapshot: SnapshotFrom<TActor>) => void): () => void {
  listener(actor.getSnapshot())
  const subscription = actor.subscribe((snapshot: SnapshotFrom<TActor>) => listener(snapshot))
  return () => subscription.unsubscribe()
}
