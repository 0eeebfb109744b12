import { fromCallback, fromPromise } from 'xstate'

// Named defaults for effects a machine cannot perform itself. The caller supplies the real ones with .provide();
// until then every default fails loudly with the machine and effect name, so a forgotten wiring is found at once.

function missing(machine: string, kind: string, name: string): Error {
  return new Error(`${machine}: ${kind} "${name}" was not provided; supply it with machine.provide({ ${kind}s: { ${name} } })`)
}

/** A custom action that throws until provided. */
export function missingAction<TParams = undefined>(machine: string, name: string) {
  return (_args: unknown, _params: TParams): void => {
    throw missing(machine, 'action', name)
  }
}

/** A promise actor (an HTTP call) that rejects until provided. */
export function missingPromise<TOutput, TInput>(machine: string, name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw missing(machine, 'actor', name)
  })
}

/** A callback actor (a transport) that throws until provided. */
export function missingCallback<TEvent extends { type: string }, TInput>(machine: string, name: string) {
  return fromCallback<TEvent, TInput>(() => {
    throw missing(machine, 'actor', name)
  })
}
