import { fromPromise } from 'xstate'
import { screenLockMachine } from '../../../machines/screenLock.machine.ts'
import { defineSlice } from '../slice.ts'

// The screen lock (spec 000 §4, §5): locked by a pause (the pause slice sends LOCK and PAUSE_CHANGED) or by hand,
// lifted by a validated password.

export const screenLockSlice = defineSlice('screenLock', ({ effects }) => ({
  logic: screenLockMachine.provide({
    actors: { validatePassword: fromPromise(({ input }: { input: { password: string } }) => effects.validatePassword(input.password)) },
    actions: { logFailure: (_, { reason }) => effects.logFailure(`unlock failed: ${reason}`) },
  }),
  input: () => ({}),
}))
