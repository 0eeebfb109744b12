import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react'
import { useSelector } from '@xstate/react'
import { useQuery } from '@tanstack/react-query'
import type { AnyActorRef } from 'xstate'
import { isRegistrationState } from '../../../contract/codes/states.ts'
import type { RegistrationState } from '../../../contract/codes/states.ts'
import type { Coaching, TransferType, WebphoneStage } from '../../../machines/webphoneTypes.ts'
import { afterServiceEndable, afterServiceMode, type AfterServiceMode } from '../../../contract/codes/after-service.ts'
import { profileQuery } from '../../api/session.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'

// The one door between the webphone actors (machines/webphone.machine.ts and its child call actors, wired into the
// agent system by src/app/agentSystem.ts) and the views of this folder. The views never read a snapshot themselves:
// they get `WebphoneView` and `CallView` and send the events built here, so a change of the machines' shape is one
// edit in this file. Until the webphone actor is wired, every view sees the 'off' placeholder.

export type { TransferType, WebphoneStage }
export const WEBPHONE_STAGES = [
  'dialpad',
  'phonebook',
  'settings',
  'transfer',
  'transfer-attend',
  'transfer-pendulum',
  'transferring',
  'conference',
  'after-service',
  'classification',
] as const satisfies readonly WebphoneStage[]
export type WebphonePhase = 'off' | 'otherTab' | 'missingPermissions' | 'starting' | 'ready'
export type CallStatus = 'ringing' | 'inuse' | 'onhold' | 'onmute' | 'ended'

/** What any actor ref offers to a view (a real XState ref, or a test's fake). */
export type ActorLike = Pick<AnyActorRef, 'getSnapshot' | 'subscribe' | 'send'>
export type CallEntry = { id: string; ref: ActorLike }

export type TransferView = { type: TransferType; originCallId: string; destinationCallId: string | null; destination: string; label?: string }

export type WebphoneView = {
  phase: WebphonePhase
  registration: RegistrationState | null
  currentCallId: string | null
  stage: WebphoneStage
  dnd: boolean
  routeId: number | null
  autoAnswer: boolean
  autoLogin: boolean
  transfer: TransferView | null
  error: { code: string; message: string } | null
  /** Set while the stage is after-service: when its countdown ends (epoch ms), null when unknown. */
  afterServiceEndsAt: number | null
  /**
   * The after-service running, whatever the stage shows (the ended call is gone from the list): its number, when its
   * countdown ends (null when the team's mode has no time limit) and whether the agent may end it now.
   */
  afterService: AfterServiceView | null
  /** A supervisor whispering to the agent or barging in (server/media/README.md "Monitoring"), or null. */
  coaching: Coaching | null
}

export type AfterServiceView = { callId: string; uid: string | null; phone: string; endsAt: number | null; canEnd: boolean; mode: AfterServiceMode }

export type CallView = {
  id: string
  uid: string
  direction: 'incoming' | 'outgoing'
  phone: string
  name: string
  status: CallStatus
  accepted: boolean
  connected: boolean
  mute: boolean
  hold: boolean
  startedAt: number
  answeredAt: number | null
  endedAt: number | null
  callType: number
  queue: string | null
  /** The call carries a form (its metadata names one): the panel opens wide with the form on the right. */
  hasForm: boolean
  /** The call's metadata (tab-form GET) once the server had it. */
  metadata: Record<string, unknown> | null
}

export type WebphoneEvent =
  | { type: 'START' | 'STOP' | 'RELOAD' | 'TRANSFER_CONFIRM' | 'TRANSFER_CANCEL' | 'AFTER_SERVICE_END' }
  | { type: 'DIAL'; number: string; routeId?: number }
  | { type: 'ANSWER' | 'HANGUP' | 'HOLD' | 'UNHOLD' | 'MUTE' | 'UNMUTE' | 'SELECT_CALL'; callId: string }
  | { type: 'DTMF'; callId: string; tone: string }
  | { type: 'SET_STAGE'; stage: WebphoneStage }
  | { type: 'CALL_FORM'; callId: string; uid: string | null; sent: boolean; valid: boolean }
  | { type: 'CALL_CLASSIFIED'; uid: string | null }
  | { type: 'SET_ROUTE'; routeId: number | null }
  // The interface names the transfer kind `type`, which an event cannot carry twice: it travels as `transferType`.
  | { type: 'TRANSFER'; transferType: TransferType; destination: string }
  | { type: 'CONFERENCE'; callIds: string[] }
  | { type: 'SET_DND'; dnd: boolean }
  | { type: 'SET_AUDIO_DEVICES'; input: string | null; output: string | null }

export type Webphone = {
  /** False until the webphone actor is wired into the agent system: the views show 'off' and send nothing. */
  available: boolean
  view: WebphoneView
  calls: CallView[]
  current: CallView | null
  send(event: WebphoneEvent): void
}

const PHASES: readonly WebphonePhase[] = ['off', 'otherTab', 'missingPermissions', 'starting', 'ready']
const CALL_STATUSES: readonly CallStatus[] = ['ringing', 'inuse', 'onhold', 'onmute', 'ended']
const NO_CALLS: readonly CallEntry[] = []

export const OFF_VIEW: WebphoneView = {
  phase: 'off',
  registration: null,
  currentCallId: null,
  stage: 'dialpad',
  dnd: false,
  routeId: null,
  autoAnswer: false,
  autoLogin: false,
  transfer: null,
  error: null,
  afterServiceEndsAt: null,
  afterService: null,
  coaching: null,
}

type Snapshot = { value?: unknown; context?: Record<string, unknown> } | undefined

/** The names of a state value, outermost first: 'ready' → ['ready']; { ready: { registration: 'registered' } } → ['ready', 'registration', 'registered']. */
function stateNames(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, child]) => [key, ...stateNames(child)])
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value == null ? '' : String(value))
const numberOr = <T>(value: unknown, fallback: T): number | T => (typeof value === 'number' && Number.isFinite(value) ? value : fallback)

/** The webphone snapshot as the views read it; `afterServiceSeconds` is the team's after-service length. */
export function webphoneView(snapshot: Snapshot, afterServiceSeconds = 0, calls: readonly CallView[] = []): WebphoneView {
  if (!snapshot?.context) return OFF_VIEW
  const context = snapshot.context
  const phase = PHASES.find((name) => stateNames(snapshot.value)[0] === name) ?? 'off'
  const stage = (WEBPHONE_STAGES as readonly string[]).includes(text(context.stage)) ? (context.stage as WebphoneStage) : 'dialpad'
  const currentCallId = typeof context.currentCallId === 'string' ? context.currentCallId : null
  const transfer = context.transfer && typeof context.transfer === 'object' ? (context.transfer as TransferView) : null
  const error = context.error && typeof context.error === 'object' ? (context.error as WebphoneView['error']) : null
  return {
    phase,
    registration: isRegistrationState(context.registration) ? context.registration : null,
    currentCallId,
    stage,
    dnd: context.dnd === true,
    routeId: numberOr(context.routeId, null),
    autoAnswer: context.autoAnswer === true,
    autoLogin: context.autoLogin === true,
    transfer,
    error,
    afterServiceEndsAt: stage === 'after-service' ? afterServiceEnd(context, afterServiceSeconds, calls, currentCallId) : null,
    afterService: afterServiceView(context.afterService),
    coaching: coachingView(context.coaching),
  }
}

function coachingView(value: unknown): Coaching | null {
  if (!value || typeof value !== 'object') return null
  const coaching = value as Record<string, unknown>
  if (coaching.mode !== 'whisper' && coaching.mode !== 'barge') return null
  return { mode: coaching.mode, supervisor: text(coaching.supervisor) }
}

function afterServiceView(value: unknown): AfterServiceView | null {
  if (!value || typeof value !== 'object') return null
  const running = value as Record<string, unknown>
  const mode = afterServiceMode(running.mode)
  return {
    callId: text(running.callId),
    uid: typeof running.uid === 'string' ? running.uid : null,
    phone: text(running.phone),
    endsAt: numberOr(running.endsAt, null),
    canEnd: afterServiceEndable(mode, running.classified === true),
    mode,
  }
}

/** The machine's own deadline when it keeps one; otherwise the ended call's end plus the team's after-service length. */
function afterServiceEnd(context: Record<string, unknown>, seconds: number, calls: readonly CallView[], currentCallId: string | null): number | null {
  const own = (context.afterService as { endsAt?: unknown } | null | undefined)?.endsAt
  if (typeof own === 'number') return own
  const call = afterServiceCall(calls, currentCallId)
  return call?.endedAt != null && seconds > 0 ? call.endedAt + seconds * 1000 : null
}

/** The call whose after-service runs: the current one, else the last that ended. */
export function afterServiceCall(calls: readonly CallView[], currentCallId: string | null): CallView | null {
  return calls.find((call) => call.id === currentCallId) ?? calls.findLast((call) => call.status === 'ended') ?? null
}

/** A call actor's snapshot as the views read it. */
export function callView(id: string, snapshot: Snapshot): CallView {
  const context = snapshot?.context ?? {}
  const names = stateNames(snapshot?.value)
  // Nested values ({ active: 'onhold' }) name their status deepest; flags decide when the value names none.
  const named = names.findLast((name): name is CallStatus => (CALL_STATUSES as readonly string[]).includes(name))
  const status: CallStatus =
    named ?? (context.endedAt != null ? 'ended' : context.hold ? 'onhold' : context.mute ? 'onmute' : context.accepted ? 'inuse' : 'ringing')
  const metadata = context.metadata && typeof context.metadata === 'object' ? (context.metadata as Record<string, unknown>) : null
  const phone = text(context.phone)
  // A caller without a name shows its number as the display name too (a trunk's From): one line is enough.
  const name = text(context.name)
  return {
    id: text(context.id) || id,
    uid: text(context.uid),
    direction: context.direction === 'outgoing' ? 'outgoing' : 'incoming',
    phone,
    name: name === phone ? '' : name,
    status,
    accepted: context.accepted === true,
    connected: context.connected === true,
    mute: context.mute === true,
    hold: context.hold === true,
    startedAt: numberOr(context.startedAt, 0),
    answeredAt: numberOr(context.answeredAt, null),
    endedAt: numberOr(context.endedAt, null),
    callType: numberOr(context.callType, 0),
    queue: typeof context.queue === 'string' ? context.queue : null,
    hasForm: !!metadata && (metadata.form != null || metadata.form_id != null),
    metadata,
  }
}

/** The first queued incoming call still ringing (order of arrival): the ringing dialog's. */
export function ringingCall(calls: readonly CallView[]): CallView | null {
  return calls.find((call) => call.direction === 'incoming' && call.status === 'ringing') ?? null
}

/** Calls not ended: the count on the widget button. */
export function liveCalls(calls: readonly CallView[]): CallView[] {
  return calls.filter((call) => call.status !== 'ended')
}

/** Whether the webphone holds a call not yet ended, read once (the sign-out rule of spec 000 §4). */
export function hasLiveCalls(actor: ActorLike | null): boolean {
  if (!actor) return false
  const entries = selectCalls(actor.getSnapshot())
  return liveCalls(entries.map((entry) => callView(entry.id, entry.ref.getSnapshot() as Snapshot))).length > 0
}

/** The webphone actor of the agent system, or null while it is not wired (or the system is not running). */
export function useWebphoneActor(): ActorLike | null {
  const system = useAgentSystem()
  return useMemo(() => {
    if (!system) return null
    try {
      // Typed loosely on purpose: the actor joins AgentActors when the webphone is wired.
      return ((system.get as (name: string) => unknown)('webphone') as ActorLike | undefined) ?? null
    } catch {
      return null
    }
  }, [system])
}

/** Subscribes to every call actor; one array of views, stable while no call changed. */
function useCallViews(entries: readonly CallEntry[]): CallView[] {
  const cache = useRef<{ entries: readonly CallEntry[]; snapshots: unknown[]; views: CallView[] } | null>(null)
  const subscribe = useCallback(
    (notify: () => void) => {
      const subscriptions = entries.map((entry) => entry.ref.subscribe({ next: notify, error: notify }))
      return () => subscriptions.forEach((subscription) => subscription.unsubscribe())
    },
    [entries],
  )
  const read = useCallback(() => {
    const snapshots = entries.map((entry) => entry.ref.getSnapshot())
    const last = cache.current
    if (last && last.entries === entries && snapshots.every((snapshot, i) => snapshot === last.snapshots[i])) return last.views
    const views = entries.map((entry, i) => callView(entry.id, snapshots[i] as Snapshot))
    cache.current = { entries, snapshots, views }
    return views
  }, [entries])
  return useSyncExternalStore(subscribe, read, read)
}

const selectSnapshot = (snapshot: unknown) => snapshot as Snapshot
const selectCalls = (snapshot: unknown): readonly CallEntry[] => {
  const calls = (snapshot as Snapshot)?.context?.calls
  return Array.isArray(calls) ? (calls as CallEntry[]) : NO_CALLS
}

/** The facade the views use: the view of the webphone, its calls, and `send` (a no-op while there is no actor). */
export function useWebphone(actor: ActorLike | null): Webphone {
  const snapshot = useSelector(actor ?? undefined, selectSnapshot)
  const entries = useSelector(actor ?? undefined, selectCalls)
  const calls = useCallViews(entries)
  const { data: profile } = useQuery(profileQuery)
  const afterServiceSeconds = profile?.team?.duration_of_after_service ?? 0
  return useMemo(() => {
    const view = actor ? webphoneView(snapshot, afterServiceSeconds, calls) : OFF_VIEW
    const current = calls.find((call) => call.id === view.currentCallId) ?? null
    const send = (event: WebphoneEvent) => actor?.send(event)
    return { available: !!actor, view, calls, current, send }
  }, [actor, snapshot, afterServiceSeconds, calls])
}
