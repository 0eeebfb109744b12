import { createActor, setup } from 'xstate'
import type { AnyActorLogic, AnyActorRef } from 'xstate'
import type { SocketMessage } from '../../machines/types.ts'
import { lastEventInspector } from './agentInspect.ts'
import type { LastEvent } from './agentInspect.ts'
import { routeServerFrame, serverActionTable } from '../agent/realtime.ts'
import type { ServerActionTable } from '../agent/realtime.ts'
import type { Link, SliceContext, SliceParts, SocketHandlers } from '../agent/slice.ts'
import { AGENT_ACTOR_NAMES, AGENT_SLICES } from '../agent/slices/index.ts'
import type { AgentActorName, AgentActors } from '../agent/slices/index.ts'
import type { AgentSystemEffects, AgentSystemOptions } from '../agent/types.ts'
import type { Store } from './store.ts'

// The root actor system of a signed-in user (ARCHITECTURE.md "How data flows"): one XState system, `agentSystem`,
// whose children are the actors of src/agent/slices/, one slice each. This file folds the slice list: each slice's
// machine becomes a child invoked under its system id with its input, its server actions join the one realtime table
// (src/agent/realtime.ts), its links subscribe once every child started. Everything the browser does comes in as
// `AgentSystemEffects`, so tests drive the whole system with fakes. Views never own timers or sockets: they read the
// actors with useAgentSelector (agentSystemContext.tsx).

export type { ActivityEffects, AgentSystemEffects, AgentSystemOptions, AudioEffects, ChannelLike, SocketLike, WebphoneEffects } from '../agent/types.ts'
export type { LastEvent, TakenTransition } from './agentInspect.ts'
export type { AgentActorName, AgentActors } from '../agent/slices/index.ts'
export { AGENT_ACTOR_NAMES } from '../agent/slices/index.ts'
export { BROADCAST_CHANNEL_NAME } from '../agent/slices/tabOwnership.ts'
export { statusForPause } from '../agent/slices/pause.ts'
export { dialActivity } from '../agent/slices/activityDialer.ts'

export type AgentSystem = {
  get<K extends AgentActorName>(name: K): AgentActors[K]
  lastEvents: Store<Partial<Record<AgentActorName, LastEvent>>>
  /** The SPA navigated. */
  pageChanged(page: string): void
  /** Stops every actor; `signingOut` first tells the server on the socket (spec 000 §4 "Logout"). */
  stop(options?: { signingOut?: boolean }): void
}

/** Stands in for an actor of a stopped system: events sent to it go nowhere. */
const DETACHED = { send: () => {}, getSnapshot: () => undefined }

type BuiltSlice = { name: string } & SliceParts<AnyActorLogic, never>

export function createAgentSystem(options: AgentSystemOptions, effects: AgentSystemEffects): AgentSystem {
  // Siblings by system id. The root exists before it starts, and the children register as it starts, so the entry
  // actions of one child (a first status report) already reach the others.
  // After stop() they are gone: late answers (a pause check, a reload timer) then reach nobody, harmlessly.
  let system: AnyActorRef['system'] | null = null
  const actor = (name: string) => (system?.get(name) ?? DETACHED) as AnyActorRef
  let table: ServerActionTable | null = null
  const logFailure = (what: string, error?: unknown) =>
    effects.logFailure(error === undefined ? what : `${what}: ${String((error as Error)?.message ?? error)}`)
  const context: SliceContext = {
    options,
    effects,
    actor,
    sendSocket: (message: SocketMessage) => actor('serviceSocket').send({ type: 'SEND', message }),
    logFailure,
    routeServerFrame: (frame) => (table ? routeServerFrame(table, frame, logFailure) : []),
    resync: () => slices.forEach((slice) => slice.resync?.()),
    resend: () => slices.forEach((slice) => slice.resend?.()),
  }
  const slices: BuiltSlice[] = AGENT_SLICES.map((slice) => ({ name: slice.name, ...(slice.build(context) as SliceParts<AnyActorLogic, never>) }))
  table = serverActionTable(slices.map((slice) => ({ slice: slice.name, socket: (slice.socket ?? {}) as Partial<SocketHandlers<never>> })))

  const root = setup({
    types: { context: {} as AgentSystemOptions, input: {} as AgentSystemOptions },
    actors: Object.fromEntries(slices.map((slice) => [slice.name, slice.logic])),
  }).createMachine({
    id: 'agentSystem',
    context: ({ input }) => input,
    invoke: slices.map((slice) => ({
      id: slice.name,
      systemId: slice.name,
      src: slice.name,
      ...(slice.input ? { input: ({ context }: { context: AgentSystemOptions }) => slice.input!(context) } : {}),
    })),
  })

  const { lastEvents, inspect } = lastEventInspector(AGENT_ACTOR_NAMES)
  let stopped = false
  const running = createActor(root, { input: options, inspect })
  system = running.system
  running.start()
  // Links subscribe from the last slice to the first: an actor that follows a sibling it feeds (the dialer follows the
  // webphone, which feeds the statuses) hears a change of it before the siblings that sit earlier in the list.
  const links: Link[] = [...slices].reverse().flatMap((slice) => slice.links ?? [])
  const unsubscribe = links.map((link) => link.subscribe(actor))
  const stops = slices.map((slice) => slice.start?.()).filter((stop): stop is () => void => typeof stop === 'function')

  return {
    get(name) {
      const ref = system?.get(name)
      if (!ref || stopped) throw new Error(`agentSystem: ${name} asked for after the system stopped`)
      return ref as AgentActors[typeof name]
    },
    lastEvents,
    pageChanged: (page) => actor('serviceSocket').send({ type: 'PAGE_CHANGED', page }),
    stop({ signingOut = false } = {}) {
      if (stopped) return
      stopped = true
      if (signingOut) context.sendSocket({ action: 'logout' })
      for (const off of unsubscribe) off()
      running.stop()
      for (const stop of stops) stop()
    },
  }
}
