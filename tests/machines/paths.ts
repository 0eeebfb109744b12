import { getShortestPaths, getSimplePaths, serializeSnapshot } from '@xstate/graph'
import type { StatePath } from '@xstate/graph'
import {
  __unsafe_getAllOwnEventDescriptors,
  createActor,
  fromCallback,
  fromPromise,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type CallbackActorLogic,
  type EventObject,
  type AnyStateMachine,
  type InspectionEvent,
} from 'xstate'
import { describe, expect, it, vi } from 'vitest'

// Path-coverage tests for machines/ (QUALITY.md, "machine paths"). @xstate/graph walks a machine from the events a
// suite offers; every path found is replayed on a real actor, built from the machine with recording fakes, under fake
// timers. A step is driven the way the real world would drive it:
//   xstate.after.<delay>.<state>  → fake timers advance until that delayed event is processed (named delays too);
//   events listed in `timed`      → the same, for delays raised with raise(..., { delay });
//   xstate.done.actor.<id>        → the fake request <id> resolves with the step's `output`;
//   xstate.error.actor.<id>       → the fake request <id> rejects with the step's `error`;
//   anything else                 → actor.send(event).
// After every step the actor must be in the state the graph predicted; at the end the suite's `expectEffects` checks
// the effects the spec requires for the reached state, and no effect may have fallen through to a throwing default.

/** One effect a machine performed through an injected implementation; `step` is the path step that caused it. */
export type Effect = { effect: string; params?: unknown; step?: number }

/** A request (promise actor) the machine started and the test settles. */
type Pending = { id: string; src: string; input: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void; stopped: boolean }

export type Fakes = {
  /** Every action, request and transport message, in order. */
  log: Effect[]
  /** The path step being replayed (0 = start); stamped on every effect. */
  step: number
  /** `actions` for .provide(): each records `{ effect: name, params }`. */
  actions: (names: readonly string[]) => Record<string, (args: unknown, params: unknown) => void>
  /** `actors` for .provide(): each records `{ effect: name, params: input }` and waits for the test to settle it. */
  requests: (names: readonly string[]) => Record<string, ReturnType<typeof fromPromise<unknown, unknown>>>
  /** A transport actor that records its start as `<name>.open`, every event sent to it, and its stop as `<name>.close`. */
  transport: <TEvent extends EventObject = AnyEventObject, TInput = unknown>(name: string) => CallbackActorLogic<TEvent, TInput>
  /** Settles the oldest open request of the invoke id (a running one before a stopped one). */
  settle: (id: string, outcome: { output: unknown } | { error: unknown }) => void
  pending: Pending[]
}

export function createFakes(): Fakes {
  const pending: Pending[] = []
  const fakes: Fakes = {
    log: [],
    step: 0,
    pending,
    actions: (names) => Object.fromEntries(names.map((name) => [name, (_args: unknown, params: unknown) => record({ effect: name, params })])),
    requests: (names) =>
      Object.fromEntries(
        names.map((name) => [
          name,
          fromPromise<unknown, unknown>(
            ({ input, self, signal }) =>
              new Promise((resolve, reject) => {
                record({ effect: name, params: input })
                const request: Pending = { id: self.id, src: name, input, resolve, reject, stopped: false }
                pending.push(request)
                // A request whose state was left is stopped: its answer reaches nobody.
                signal.addEventListener('abort', () => void (request.stopped = true))
              }),
          ),
        ]),
      ),
    transport: <TEvent extends EventObject, TInput>(name: string) =>
      fromCallback<TEvent, TInput>(({ receive }) => {
        record({ effect: `${name}.open` })
        receive((event) => record({ effect: name, params: event }))
        return () => record({ effect: `${name}.close` })
      }),
    settle: (id, outcome) => {
      // The oldest request still running under that id; a stopped one only when none runs (its answer goes nowhere).
      const live = pending.findIndex((request) => request.id === id && !request.stopped)
      const index = live >= 0 ? live : pending.findIndex((request) => request.id === id)
      if (index < 0) throw new Error(`no open request "${id}" to settle`)
      const [request] = pending.splice(index, 1)
      if ('error' in outcome) request.reject(outcome.error)
      else request.resolve(outcome.output)
    },
  }
  function record(effect: Effect): void {
    fakes.log.push({ ...effect, step: fakes.step })
  }
  return fakes
}

/** The effects named `name`, as their params. */
export function effectsOf(log: Effect[], name: string): unknown[] {
  return log.filter((entry) => entry.effect === name).map((entry) => entry.params)
}

export type PathSuite<TMachine extends AnyStateMachine> = {
  name: string
  machine: TMachine
  input?: unknown
  /** Candidate events (with payloads) for a snapshot; delayed events are found by the helper. */
  events: (snapshot: AnyMachineSnapshot) => AnyEventObject[]
  /** Event types a machine raises to itself with a delay (replayed by advancing timers, not by sending). */
  timed?: readonly string[]
  /**
   * Whether to offer a delayed event in a snapshot. The graph cannot order timers of parallel regions (it does not
   * know how long each has run), so a suite offers one region's timer at a time where two could race.
   */
  offerDelayed?: (snapshot: AnyMachineSnapshot, type: string) => boolean
  /** How a snapshot is told apart; project away counters so the graph stays finite. Defaults to value + context. */
  serializeState?: (snapshot: AnyMachineSnapshot) => string
  /**
   * Events whose every transition gets its own path, even when it loops back to a state already reached (a failed
   * request returning to `paused`, a forwarded socket message): the target is told apart by the edge that led to it.
   */
  distinguish?: (event: AnyEventObject) => boolean
  /**
   * Also replay getSimplePaths: `true` on the suite's own graph (only where it is small); a list of bounded sub-models
   * where the whole graph has too many simple paths to replay (the reason and the bound in a comment); `false` must
   * come with the reason in a comment.
   */
  simplePaths: boolean | readonly SubModel[]
  /** The machine with recording fakes, fresh for every replay. */
  build: (fakes: Fakes) => AnyStateMachine
  /** Effects the spec requires once `path` reached `snapshot`; the path's states are the ones the actor lived. */
  expectEffects: (snapshot: AnyMachineSnapshot, log: Effect[], path: StatePath<AnyMachineSnapshot, AnyEventObject>) => void
}

/**
 * A bounded part of a machine's graph whose simple paths are replayed: the same machine, fakes and `expectEffects`,
 * with its own input, candidate events (usually the suite's, kept to those that matter in the snapshot) and state
 * serialization (what is not given is the suite's).
 */
export type SubModel = {
  /** Names the describe block: `<suite> — simple paths (<name>)`. */
  name: string
  input?: unknown
  events?: (snapshot: AnyMachineSnapshot) => AnyEventObject[]
  offerDelayed?: (snapshot: AnyMachineSnapshot, type: string) => boolean
  serializeState?: (snapshot: AnyMachineSnapshot) => string
}

type AnyPath = StatePath<AnyMachineSnapshot, AnyEventObject>

const DELAYED = /^xstate\.after\.([^.]+)\./

function offeredEvents(suite: PathSuite<AnyStateMachine>, snapshot: AnyMachineSnapshot): AnyEventObject[] {
  // A finished actor takes no more events (machine.transition would still compute some).
  if (snapshot.status !== 'active') return []
  const descriptors: string[] = __unsafe_getAllOwnEventDescriptors(snapshot)
  const candidates = suite.events(snapshot).filter((event) => descriptors.includes(event.type) || descriptors.includes('*'))
  const delayed = descriptors.filter((type) => DELAYED.test(type) && (suite.offerDelayed?.(snapshot, type) ?? true)).map((type) => ({ type }))
  return [...candidates, ...delayed]
}

function traversalOptions(suite: PathSuite<AnyStateMachine>, distinguish: boolean) {
  const base = suite.serializeState ?? defaultSerialize
  return {
    input: suite.input,
    events: (snapshot: AnyMachineSnapshot) => offeredEvents(suite, snapshot),
    serializeState: (snapshot: AnyMachineSnapshot, event?: AnyEventObject, previous?: AnyMachineSnapshot) =>
      distinguish && event && previous && suite.distinguish?.(event) ? `${base(snapshot)} via ${JSON.stringify(event)} from ${base(previous)}` : base(snapshot),
  }
}

function defaultSerialize(snapshot: AnyMachineSnapshot): string {
  return serializeSnapshot(snapshot)
}

/** A readable label for one event: `SELECT {"pauseId":1}`, `after 3000ms`, `startPause done {...}`. */
export function eventLabel(event: AnyEventObject): string {
  const delayed = DELAYED.exec(event.type)
  if (delayed) return `after ${/^\d+$/.test(delayed[1]) ? `${delayed[1]}ms` : delayed[1]}`
  const settled = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
  const { type, ...payload } = event
  const name = settled ? `${settled[2]} ${settled[1] === 'done' ? 'done' : 'failed'}` : type
  const detail = settled ? (settled[1] === 'done' ? event.output : undefined) : Object.keys(payload).length ? payload : undefined
  return detail === undefined ? name : `${name} ${JSON.stringify(detail)}`
}

function pathName(path: AnyPath): string {
  const events = path.steps.slice(1).map((step) => eventLabel(step.event))
  return `${events.length ? events.join(' → ') : '(initial)'} ⇒ ${JSON.stringify(path.state.value)}`
}

function pathKey(path: AnyPath): string {
  return JSON.stringify(path.steps.map((step) => step.event))
}

/** The suite as one sub-model sees it (its input, events and serialization; the rest the suite's). */
function subSuite(suite: PathSuite<AnyStateMachine>, model: SubModel): PathSuite<AnyStateMachine> {
  const { name: _name, ...overrides } = model
  return { ...suite, ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) }
}

/** The graphs whose simple paths are replayed: the suite's own, or its sub-models. */
function simpleModels(suite: PathSuite<AnyStateMachine>): { name: string | null; suite: PathSuite<AnyStateMachine> }[] {
  if (suite.simplePaths === false) return []
  if (suite.simplePaths === true) return [{ name: null, suite }]
  return suite.simplePaths.map((model) => ({ name: model.name, suite: subSuite(suite, model) }))
}

export function pathsOf(suite: PathSuite<AnyStateMachine>): {
  shortest: AnyPath[]
  simple: AnyPath[]
  models: { name: string | null; suite: PathSuite<AnyStateMachine>; paths: AnyPath[] }[]
} {
  const shortest = getShortestPaths(suite.machine, traversalOptions(suite, true)) as AnyPath[]
  // Simple paths walk the plain state graph: told-apart edges would multiply them past any useful number. A path the
  // shortest ones already replay (same input, same events) is not replayed twice.
  const inputKey = JSON.stringify(suite.input) ?? ''
  const known = new Set(shortest.map((path) => `${inputKey} ${pathKey(path)}`))
  const models = simpleModels(suite).map((model) => {
    const modelInput = JSON.stringify(model.suite.input) ?? ''
    const paths = (getSimplePaths(model.suite.machine, traversalOptions(model.suite, false)) as AnyPath[]).filter((path) => {
      const key = `${modelInput} ${pathKey(path)}`
      if (known.has(key)) return false
      known.add(key)
      return true
    })
    return { ...model, paths }
  })
  return { shortest, simple: models.flatMap((model) => model.paths), models }
}

async function microtasks(times = 20): Promise<void> {
  for (let i = 0; i < times; i++) await Promise.resolve()
}

/** Replays one path on a real actor and runs the suite's effect checks. */
export async function replayPath(suite: PathSuite<AnyStateMachine>, path: AnyPath): Promise<void> {
  const serialize = suite.serializeState ?? defaultSerialize
  const fakes = createFakes()
  const logic = suite.build(fakes)
  const processed: string[] = []
  const errors: unknown[] = []
  vi.useFakeTimers()
  try {
    const actor = createActor(logic, {
      input: suite.input,
      inspect: (inspection: InspectionEvent) => {
        if (inspection.type === '@xstate.event' && inspection.actorRef === actor) processed.push(inspection.event.type)
      },
    })
    actor.subscribe({ error: (error) => void errors.push(error) })
    actor.start()
    expect(serialize(actor.getSnapshot())).toBe(serialize(path.steps[0].state))
    // The snapshots the actor really went through: the graph keeps one representative per serialized state, so its
    // own snapshots may differ in what serializeState projects away.
    const lived: AnyMachineSnapshot[] = [actor.getSnapshot()]

    for (const [index, step] of path.steps.slice(1).entries()) {
      fakes.step = index + 1
      const event = step.event
      const seenBefore = processed.length
      const arrived = () => processed.slice(seenBefore).includes(event.type)
      const settled = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (DELAYED.test(event.type) || suite.timed?.includes(event.type)) {
        // Fire timers one by one until this delayed event is processed: other timers may come first, as in real time.
        for (let fired = 0; !arrived(); fired++) {
          if (fired > 200) throw new Error(`step ${index + 1}: ${event.type} never fired`)
          await vi.advanceTimersToNextTimerAsync()
        }
      } else if (settled) {
        fakes.settle(settled[2], settled[1] === 'done' ? { output: event.output } : { error: event.error })
        await microtasks()
        if (!arrived()) throw new Error(`step ${index + 1}: ${event.type} was not processed`)
      } else {
        actor.send(event)
      }
      expect(serialize(actor.getSnapshot()), `after step ${index + 1} (${eventLabel(event)})`).toBe(serialize(step.state))
      lived.push(actor.getSnapshot())
    }

    const snapshot = actor.getSnapshot()
    expect(snapshot.value).toEqual(path.state.value)
    expect(errors).toEqual([])
    const livedPath = { ...path, state: snapshot, steps: path.steps.map((step, index) => ({ event: step.event, state: lived[index] })) }
    suite.expectEffects(snapshot, fakes.log, livedPath)
    actor.stop()
  } finally {
    vi.useRealTimers()
  }
}

/** Declares one `it` per shortest path (and per extra simple path of the suite's graph or of its sub-models). */
export function describePaths(suite: PathSuite<AnyStateMachine>): void {
  const { shortest, models } = pathsOf(suite)
  describe(`${suite.name} — shortest paths`, () => {
    it('the graph reaches more than the initial state', () => expect(shortest.length).toBeGreaterThan(1))
    for (const path of shortest) it(pathName(path), () => replayPath(suite, path))
  })
  for (const model of models) {
    describe(`${suite.name} — simple paths${model.name ? ` (${model.name})` : ''}`, () => {
      // A sub-model that reaches nothing would prove nothing.
      if (model.name) it('the sub-model reaches more than the initial state', () => expect(model.paths.length).toBeGreaterThan(1))
      for (const path of model.paths) it(pathName(path), () => replayPath(model.suite, path))
    })
  }
}
