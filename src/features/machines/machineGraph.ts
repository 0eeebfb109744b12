import { and, not, or } from 'xstate'
import type { AnyStateMachine, StateValue } from 'xstate'

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
  /** Its place among its state's transitions for the same event (guarded alternatives come in order). */
  index: number
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

/** `after` adds to its state an entry raise (id: the delayed event's type) of its own: not one of the machine's actions. */
function isAfterTimer(node: StateNodeLike, action: ActionLike): boolean {
  const id = (action as { id?: unknown }).id
  return typeof id === 'string' && node.after.some((after) => after.eventType === id)
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
    entry: node.entry.filter((action) => !isAfterTimer(node, action)).map(actionLabel),
    invokes: node.invoke.map((invoke) => (typeof invoke.src === 'string' ? invoke.src : invoke.id)),
    meta: node.meta,
  }
}

function readTransitions(machine: AnyStateMachine, node: StateNodeLike): GraphTransition[] {
  const delays = new Map(node.after.map((after) => [after.eventType, after.delay]))
  const source = pathOf(node)
  const transitions: GraphTransition[] = []
  const push = (definition: TransitionDefinition, kind: TransitionKind, label: string, index: number) =>
    transitions.push({
      index,
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
    definitions.forEach((definition, index) => {
      if (delays.has(eventType)) push(definition, 'after', `after ${delayLabel(machine, delays.get(eventType)!)}`, index)
      else if (eventType.startsWith('xstate.done.actor.')) push(definition, 'done', `done: ${eventType.slice('xstate.done.actor.'.length)}`, index)
      else if (eventType.startsWith('xstate.error.actor.')) push(definition, 'error', `error: ${eventType.slice('xstate.error.actor.'.length)}`, index)
      else push(definition, 'event', eventType, index)
    })
  }
  ;(node.always ?? []).forEach((definition, index) => push(definition, 'always', 'always', index))
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

/** Whether the actor took this transition on its last event. */
export function tookTransition(
  transition: GraphTransition,
  last: { taken: readonly { source: string; eventType: string; index: number }[] } | null | undefined,
): boolean {
  return !!last?.taken.some((step) => step.source === transition.source && step.eventType === transition.eventType && step.index === transition.index)
}

/** The paths of every active state of a snapshot value, ancestors included ('' is the root). */
export function activePaths(value: StateValue, prefix = ''): string[] {
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key)
  if (typeof value === 'string') return [prefix, join(value)]
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => (child === undefined ? [] : activePaths(child as StateValue, join(key))))]
}
