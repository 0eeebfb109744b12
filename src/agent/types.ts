import type { Pause } from '../../contract/api/agent.ts'
import type { ChatRoom } from '../../contract/api/chat.ts'
import type { Activity } from '../../contract/api/activities.ts'
import type { MakeCallResponse, PreviewLead } from '../../contract/api/dialer.ts'
import type { ValidatePasswordResponse } from '../../contract/api/profile.ts'
import type { Locale } from '../../contract/locales.ts'
import type { ParentStatusMessage } from '../../machines/agentStatus.machine.ts'
import type { PlaybackReport } from '../../machines/audioPermission.machine.ts'
import type { CallMetadata } from '../../machines/call.machine.ts'
import type { PauseResponse, StartPauseRequest, StopPauseRequest } from '../../machines/pause.machine.ts'
import type { CancelTransferRequest } from '../../machines/transfer.machine.ts'
import type { AfterServiceEnd, AfterServiceStartOutput } from '../../machines/webphone.machine.ts'
import type { CreateSipPhone, VoipProfile, WebphoneTeam } from '../../machines/webphoneTypes.ts'
import type { Notice } from '../../machines/types.ts'

// What the agent system is started with: the signed-in user (options) and everything the browser does (effects), so
// tests drive the whole system with fakes (tests/src/presence-fakes.ts).

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
  /** `voicemail`: a new message in one of the user's boxes (the top bar lists it); absent in tests that ignore it. */
  voicemailArrived?(): void
  postToParent(message: ParentStatusMessage): void
  logFailure(reason: string): void
  /** Tab ownership lost: the webphone actor stops its phone itself (SERVING_CHANGED); anything else to drop here. */
  stopPhone(): void
  /** The webphone's browser side; without it the webphone stays off. */
  webphone?: WebphoneEffects
  /** The activity requests the dialer makes; without them (or the webphone) no activity is dialled. */
  activities?: ActivityEffects
  /** The preview dialer's requests (contract/api/dialer.ts); without them (or the webphone) no lead is offered. */
  dialer?: DialerEffects
  /** The chat console's browser side (src/features/chat/chatEffects.ts); without it the chat socket never opens. */
  chat?: ChatEffects
  /** The console's audio playbacks (src/features/presence/audioPlayback.ts); without it the audio dialog never opens. */
  audio?: AudioEffects
}

/** What the chat actors need from the browser (spec 001 §4 "Chat lifecycle in the console", §7 "Chat socket"). */
export type ChatEffects = {
  /** The chat socket /ws/chat/, the token as a subprotocol when there is one. */
  openSocket(url: string, protocols: string[]): SocketLike
  /** A chat-socket frame for the views' live data (src/features/chat/chatLive.ts). */
  receive(frame: unknown): void
  /** The chat channel sign-in by the system (team enable_auto_login_webchat), once the serving tab's socket opens. */
  signIn(): Promise<unknown>
  /** The rooms the live data holds now (after `receive`). */
  rooms(): ChatRoom[]
  /** A removed room: its messages and forms are dropped from the live data. */
  removeRoom(stepId: number): void
  /** The queue's ring while a room rings; the inactivity ring with the seconds left. */
  startRing(stepId: number): void
  stopRing(stepId: number): void
  ringInactivity(stepId: number, secondsLeft: number): void
  /** The desktop notification 'Novo Chat' (Atender / Desligar live on the top bar's card). */
  showNewChat(stepId: number, title: string): void
  closeNewChat(stepId: number): void
  /** The unread bar asks the room's view to try scrolling to the new messages again. */
  retryUnread(stepId: number): void
  /** The customer's 'digitando…' under a room's title (the room actor times it). */
  showTyping(stepId: number, typing: boolean): void
  /** Closing (src/features/outcomes/chatOutcomes.ts): the Form tab's answers sent once, then POST close/{uid}/. */
  saveRoomForm?(stepId: number): Promise<unknown>
  closeRoom?(stepId: number, force: boolean): Promise<unknown>
}

/** The chat part of the options: present for users with sites.view_chat. */
export type ChatOptions = {
  socketUrl: string
  token: string | null
  team: ChatTeam | null
  /** Already signed in to the chat channel (userextra login_channel_chat). */
  signedIn?: boolean
}

export type ChatTeam = {
  enable_auto_login_webchat?: boolean
  enable_webchat_auto_answer?: boolean
  chat_limit_per_user?: number | null
  chat_timeout_to_remove_inactive?: number | null
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

/** What the preview dialer asks of the server (contract/api/dialer.ts dialerPaths). */
export type DialerEffects = {
  previewLead(): Promise<PreviewLead>
  makeCall(mailingClient: number): Promise<MakeCallResponse>
  release(mailingClient: number): Promise<unknown>
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
  /** POST after-service/start/{uid}/: its pause report, or none needed; rejects with `code: 'noAfterService'`. */
  startAfterService(uid: string): Promise<AfterServiceStartOutput>
  /** tab-form ?type=hangup for the ended after-service (failures are the server's to time out). */
  endAfterService(end: AfterServiceEnd): Promise<void>
  /** tab-form ?type=form with the form area's answers of the call `uid` (sent once). */
  saveForm(uid: string | null): Promise<void>
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
  /** The chat console (users with sites.view_chat); without it the chat actors stay idle. */
  chat?: ChatOptions | null
}
