import { assign } from 'xstate'

// The shape shared by agentStatus and webchatStatus: one state per status, listed by precedence. An input event that
// changes the computed status goes through `evaluating` into the new status, whose entry records it and runs the
// machine's `report` action; an input that leaves the status as it is only updates the context (action
// `applyInput`, guard `changesStatus`, both defined by the machine).

/** `on` entries for the input events. */
export function statusInputTransitions(eventTypes: readonly string[]) {
  return Object.fromEntries(
    eventTypes.map((type) => [type, [{ guard: 'changesStatus', target: '.evaluating', actions: 'applyInput' }, { actions: 'applyInput' }]]),
  )
}

/** `initial` and `states`: the transient `evaluating` state and one state per status. */
export function statusStates<TStatus extends string, TContext>(precedence: readonly TStatus[], compute: (context: TContext) => TStatus) {
  return {
    initial: 'evaluating',
    states: {
      evaluating: {
        always: precedence.map((status) => ({ guard: ({ context }: { context: TContext }) => compute(context) === status, target: status })),
      },
      ...Object.fromEntries(precedence.map((status) => [status, { entry: [assign({ status }), 'report'] }])),
    },
  }
}
