import type { AnyActorRef, InspectionEvent } from 'xstate'
import { createStore } from './store.ts'
import type { Store } from './store.ts'

// What the machine visualizer (/machines) shows of the running actors: the last event each child received and the
// transitions it took.

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

/** A store of the last events of the actors named, and the inspector that fills it. */
export function lastEventInspector<Name extends string>(names: readonly Name[]) {
  const lastEvents = createStore<Partial<Record<Name, LastEvent>>>({})
  const known = new Set<string>(names)
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.event' && event.type !== '@xstate.microstep') return
    const id = (event.actorRef as AnyActorRef).id
    if (!known.has(id)) return
    const name = id as Name
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
  return { lastEvents: lastEvents as Store<Partial<Record<Name, LastEvent>>>, inspect }
}
