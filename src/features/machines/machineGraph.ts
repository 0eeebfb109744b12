import { and, not, or } from 'xstate'
import type { AnyStateMachine } from 'xstate'

// Reads a machine definition (the same object the app runs) into what the visualizer draws: the state tree, with
// compound and parallel states holding their children, and every transition with a readable event, guard and target.
// Nothing here is hand-written per machine, so the picture cannot drift from the code.

export type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history'

export type GraphState = {
  /** Dotted path below the root ('' for the root): 'connection.socket.connected'. */
  path: string
  key: string
  kind: StateKind
  /** Key of the initial child of a compound state. */
  initial: string | null
  children: GraphState[]
  entry: string[]
  invokes: string[]
  meta: Record<string, unknown> | undefined
}

export type TransitionKind = 'event' | 'after' | 'always' | 'done' | 'error'

export type GraphTransition = {
  /** The state that handles it (path, '' for the root). */
  source: string
  kind: TransitionKind
  /** The event type as XState names it ('xstate.after.5000.…' included). */
  eventType: string
  /** What people read: 'SOCKET_OPEN', 'after 5 s', 'done: startPause', 'always'. */
  label: string
  /** Target paths; empty for a transition that only runs actions. */
  targets: string[]
  guard: string | null
  actions: string[]
  /** Leaves and re-enters its own state (restarts its timers). */
  reenter: boolean
}

export type MachineGraph = { id: string; root: GraphState; states: GraphState[]; transitions: GraphTransition[] }

// Minimal shapes of XState's state nodes (their full types are internal).
type GuardLike = string | { type: string } | ((...args: never[]) => unknown) | undefined
type ActionLike = string | { type?: string; name?: string } | ((...args: never[]) => unknown)
type TransitionDefinition = { eventType: string; target?: readonly { path: string[] }[]; guard?: GuardLike; actions: readonly ActionLike[]; reenter?: boolean }
type StateNodeLike = {
  key: string
  path: string[]
  type: StateKind
  initial?: { target: readonly { key: string }[] }
  states: Record<string, StateNodeLike>
  transitions: Map<string, TransitionDefinition[]>
  always?: TransitionDefinition[]
  after: { delay: number | string; eventType: string }[]
  entry: readonly ActionLike[]
  invoke: readonly { id: string; src: unknown }[]
  meta?: Record<string, unknown>
}

// Combinators are recognised by their check function, which survives minification (function names do not).
const COMBINATOR_CHECKS = new Map<unknown, string>([
  [(and([]) as unknown as { check: unknown }).check, 'and'],
  [(or([]) as unknown as { check: unknown }).check, 'or'],
  [(not('x') as unknown as { check: unknown }).check, 'not'],
])

export function guardLabel(guard: GuardLike): string | null {
  if (guard === undefined) return null
  if (typeof guard === 'string') return guard
  if (typeof guard === 'function') {
    const { check, guards } = guard as unknown as { check?: unknown; guards?: GuardLike[] }
    const combinator = COMBINATOR_CHECKS.get(check)
    if (combinator && guards) return `${combinator}(${guards.map((g) => guardLabel(g) ?? '?').join(', ')})`
    return 'ƒ'
  }
  return guard.type
}

export function actionLabel(action: ActionLike): string {
  if (typeof action === 'string') return action
  const type = (action as { type?: unknown }).type
  if (typeof type === 'string') return type.replace(/^xstate\./, '')
  return 'ƒ'
}

export function durationLabel(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`
  return `${ms} ms`
}

function delayLabel(machine: AnyStateMachine, delay: number | string): string {
  if (typeof delay === 'number') return durationLabel(delay)
  const implementation = (machine.implementations.delays as Record<string, unknown>)[delay]
  return typeof implementation === 'number' ? `${delay} (${durationLabel(implementation)})` : delay
}

function pathOf(node: { path: string[] }): string {
  return node.path.join('.')
}

function readState(node: StateNodeLike): GraphState {
  return {
    path: pathOf(node),
    key: node.key,
    kind: node.type,
    initial: node.type === 'compound' ? (node.initial?.target[0]?.key ?? null) : null,
    children: Object.values(node.states).map(readState),
    entry: node.entry.map(actionLabel),
    invokes: node.invoke.map((invoke) => (typeof invoke.src === 'string' ? invoke.src : invoke.id)),
    meta: node.meta,
  }
}

function readTransitions(machine: AnyStateMachine, node: StateNodeLike): GraphTransition[] {
  const delays = new Map(node.after.map((after) => [after.eventType, after.delay]))
  const source = pathOf(node)
  const transitions: GraphTransition[] = []
  const push = (definition: TransitionDefinition, kind: TransitionKind, label: string) =>
    transitions.push({
      source,
      kind,
      eventType: definition.eventType,
      label,
      targets: (definition.target ?? []).map(pathOf),
      guard: guardLabel(definition.guard),
      actions: definition.actions.map(actionLabel),
      reenter: !!definition.reenter,
    })
  for (const [eventType, definitions] of node.transitions) {
    for (const definition of definitions) {
      if (delays.has(eventType)) push(definition, 'after', `after ${delayLabel(machine, delays.get(eventType)!)}`)
      else if (eventType.startsWith('xstate.done.actor.')) push(definition, 'done', `done: ${eventType.slice('xstate.done.actor.'.length)}`)
      else if (eventType.startsWith('xstate.error.actor.')) push(definition, 'error', `error: ${eventType.slice('xstate.error.actor.'.length)}`)
      else push(definition, 'event', eventType)
    }
  }
  for (const definition of node.always ?? []) push(definition, 'always', 'always')
  for (const child of Object.values(node.states)) transitions.push(...readTransitions(machine, child))
  return transitions
}

export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const rootNode = machine.root as unknown as StateNodeLike
  const root = readState(rootNode)
  const states: GraphState[] = []
  const collect = (state: GraphState) => {
    states.push(state)
    state.children.forEach(collect)
  }
  collect(root)
  return { id: machine.id, root, states, transitions: readTransitions(machine, rootNode) }
}

/** Whether the last event an actor received was handled by this transition's state. */
export function tookTransition(transition: GraphTransition, last: { type: string; from: readonly string[] } | null | undefined): boolean {
  return !!last && last.type === transition.eventType && last.from.includes(transition.source)
}
