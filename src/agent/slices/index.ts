import type { ActorRefFrom } from 'xstate'
import type { ForwardedAction } from '../../../machines/serviceSocket.machine.ts'
import type { AgentSlice } from '../slice.ts'
import { activityDialerSlice } from './activityDialer.ts'
import { agentStatusSlice } from './agentStatus.ts'
import { audioPermissionSlice } from './audioPermission.ts'
import { chatRoomsSlice } from './chatRooms.ts'
import { chatSocketSlice } from './chatSocket.ts'
import { pauseSlice } from './pause.ts'
import { previewDialerSlice } from './previewDialer.ts'
import { screenLockSlice } from './screenLock.ts'
import { serviceSocketSlice } from './serviceSocket.ts'
import { tabOwnershipSlice } from './tabOwnership.ts'
import { telephonyChannelSlice } from './telephonyChannel.ts'
import { wallboardSlice } from './wallboard.ts'
import { webchatStatusSlice } from './webchatStatus.ts'
import { webphoneSlice } from './webphone.ts'

// The actors of the agent system, one slice each, in the order they start: an actor's first reports reach the ones
// before it (the statuses' first change_state reaches the socket actor). A new actor is one file here plus one line.

export const AGENT_SLICES = [
  tabOwnershipSlice,
  serviceSocketSlice,
  pauseSlice,
  screenLockSlice,
  agentStatusSlice,
  webchatStatusSlice,
  webphoneSlice,
  telephonyChannelSlice,
  activityDialerSlice,
  previewDialerSlice,
  audioPermissionSlice,
  chatRoomsSlice,
  chatSocketSlice,
  wallboardSlice,
] as const

type Slices = (typeof AGENT_SLICES)[number]

/** The children of the root, by system id (the same names as machines/index.ts). */
export type AgentActors = { [S in Slices as S['name']]: S extends AgentSlice<string, infer Logic, infer _Handles> ? ActorRefFrom<Logic> : never }
export type AgentActorName = keyof AgentActors
export const AGENT_ACTOR_NAMES = AGENT_SLICES.map((slice) => slice.name) as AgentActorName[]

// Every server action the socket forwards has a handler: the compiler names any action no slice handles.
type Handled<S> = S extends AgentSlice<string, infer _Logic, infer H> ? H : never
type Unhandled = Exclude<ForwardedAction, Handled<Slices>>
export const EVERY_SERVER_ACTION_HANDLED: [Unhandled] extends [never] ? true : { unhandled: Unhandled } = true
