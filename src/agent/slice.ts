import type { AnyActorLogic, AnyActorRef, AnyEventObject, InputFrom, SnapshotFrom } from 'xstate'
import type { ParsedServerMessage } from '../../contract/realtime/service-socket.ts'
import type { ForwardedAction } from '../../machines/serviceSocket.machine.ts'
import type { SocketMessage } from '../../machines/types.ts'
import type { AgentSystemEffects, AgentSystemOptions } from './types.ts'

// One actor of the agent system = one slice (ARCHITECTURE.md "one actor = one slice of the agent system"): its
// machine with the effects it provides, its input, the server actions it handles and how it follows its siblings.
// `createAgentSystem` (src/app/agentSystem.ts) folds the list in ./slices/index.ts, the way fastify/demo autoloads
// its plugins.

/** What a slice may use while it is built: the user, the browser's effects and its siblings by system id. */
export type SliceContext = {
  readonly options: AgentSystemOptions
  readonly effects: AgentSystemEffects
  /** A sibling by system id; once the system stopped, a stand-in that drops what it is sent. */
  actor(name: string): Pick<AnyActorRef, 'send' | 'getSnapshot'>
  /** A message for the service socket (serviceSocket SEND; dropped while it is down). */
  sendSocket(message: SocketMessage): void
  /** Logs a failed request or a dropped frame; `what` says which. */
  logFailure(what: string, error?: unknown): void
  /** What a forwarded server frame turns into (the realtime table of every slice, ./realtime.ts). */
  routeServerFrame(frame: unknown): SocketStep[]
  /** After the service socket reconnected: every slice asks for its server state again. */
  resync(): void
  /** Every time the service socket opens: every slice reports its state on it again. */
  resend(): void
}

// Inside an actor's own actions, siblings are reached with the built-in sendTo: XState delivers it once the sender's
// actions are done, so a receiver never runs in the middle of them.
export const serviceSocketRef = ({ system }: { system: AnyActorRef['system'] }) => system.get('serviceSocket')
export const socketEvent = (_: unknown, message: SocketMessage) => ({ type: 'SEND' as const, message })

/** What a received server action becomes, in order: an event for a sibling, or an effect. */
export type SocketStep = { to: string; event: AnyEventObject } | (() => void)
export type SocketHandler<A extends ForwardedAction> = (message: ParsedServerMessage<A>) => SocketStep[]
export type SocketHandlers<Handles extends ForwardedAction> = { [A in Handles]: SocketHandler<A> }

/** A link that follows siblings' states; subscribes when the system started and returns what unsubscribes. */
export type Link = { subscribe(actor: (name: string) => AnyActorRef): () => void }

/** The parts of one slice, built once per system. */
export type SliceParts<Logic extends AnyActorLogic, Handles extends ForwardedAction> = {
  /** The machine with its effects supplied (`.provide()`). */
  logic: Logic
  /** Its input, read when the system starts. */
  input?: (options: AgentSystemOptions) => InputFrom<Logic>
  /** The server actions it handles (src/agent/realtime.ts folds them into one table). */
  socket?: SocketHandlers<Handles>
  /** The siblings' states it follows. */
  links?: Link[]
  /** What runs once every actor started (a subscription, a first request); returns what stops it. */
  start?: () => (() => void) | void
  /** After the service socket reconnected: server state to ask for again. */
  resync?: () => void
  /** Every time the service socket opens: what this actor reports on it, again (the reports meanwhile were dropped). */
  resend?: () => void
}

export type AgentSlice<Name extends string = string, Logic extends AnyActorLogic = AnyActorLogic, Handles extends ForwardedAction = ForwardedAction> = {
  readonly name: Name
  build(context: SliceContext): SliceParts<Logic, Handles>
}

export function defineSlice<Name extends string, Logic extends AnyActorLogic, Handles extends ForwardedAction = never>(
  name: Name,
  build: (context: SliceContext) => SliceParts<Logic, Handles>,
): AgentSlice<Name, Logic, Handles> {
  return { name, build }
}

/**
 * Follows one value of a sibling's snapshot: `changed` hears it at once and after every change (compared with
 * `equal`, `Object.is` by default), like a view's useSelector. The last value is the selector's memory, not state.
 */
export function follow<Logic extends AnyActorLogic, T>(
  from: string,
  select: (snapshot: SnapshotFrom<Logic>) => T,
  changed: (value: T, previous: T | undefined) => void,
  equal: (a: T, b: T) => boolean = Object.is,
): Link {
  return followAll([from], (actor) => select(actor(from).getSnapshot() as SnapshotFrom<Logic>), changed, equal)
}

/** Follows a value computed from several siblings' snapshots: re-computed whenever one of them changes. */
export function followAll<T>(
  from: readonly string[],
  compute: (actor: (name: string) => AnyActorRef) => T,
  changed: (value: T, previous: T | undefined) => void,
  equal: (a: T, b: T) => boolean = Object.is,
): Link {
  return {
    subscribe(actor) {
      let seen = false
      let last: T | undefined
      const listener = () => {
        const value = compute(actor)
        if (seen && equal(last as T, value)) return
        const previous = last
        seen = true
        last = value
        changed(value, previous)
      }
      listener()
      const subscriptions = from.map((name) => actor(name).subscribe(listener))
      return () => subscriptions.forEach((subscription) => subscription.unsubscribe())
    },
  }
}

/** Compares plain values (flags, small records) by their JSON. */
export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
