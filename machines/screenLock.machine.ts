import { setup, assign } from 'xstate'
import { missingAction, missingPromise } from './effects.ts'
import type { FieldErrors } from './types.ts'

// Screen lock — spec 000 §2 "Full-screen lock dialog", §4 "Screen lock", §5 "Unlock", §7 validate-password, §8.
// The screen locks when a pause with lock_screen starts or when the agent locks it, and unlocks only when the
// password is validated: only the password is sent; on failure the lock stays, the form keeps its field errors and
// the failure is logged. The dialog's title is 'Pausado' while a break is active, otherwise 'Tela bloqueada', and it
// shows the break's start time.

export const LOCK_TITLE_PAUSED = 'Pausado'
export const LOCK_TITLE_LOCKED = 'Tela bloqueada'

/** POST /v1/business/profile/validate-password/ */
export type ValidatePasswordRequest = { password: string }
export type ValidatePasswordResponse = { success: boolean }

export type ScreenLockEvent =
  | { type: 'LOCK'; by: 'pause'; pauseStartedAt: number | null } // a pause with lock_screen started
  | { type: 'LOCK'; by: 'manual' }
  | { type: 'PAUSE_CHANGED'; active: boolean; startedAt: number | null } // keeps title and start time current
  | { type: 'SUBMIT'; password: string }

export type ScreenLockContext = {
  pauseActive: boolean
  pauseStartedAt: number | null
  /** Field errors of the unlock form: kept while locked, cleared when unlocked. */
  fieldErrors: FieldErrors | null
}

export type ScreenLockInput = { pauseActive?: boolean; pauseStartedAt?: number | null }

/** The dialog's title for the current context. */
export function lockTitle(context: Pick<ScreenLockContext, 'pauseActive'>): string {
  return context.pauseActive ? LOCK_TITLE_PAUSED : LOCK_TITLE_LOCKED
}

/** Field errors the API client attached to a failed request (`{ fieldErrors: { password: [...] } }`), if any. */
function fieldErrorsOf(error: unknown): FieldErrors | null {
  const found = error && typeof error === 'object' ? (error as { fieldErrors?: unknown }).fieldErrors : null
  return found && typeof found === 'object' ? (found as FieldErrors) : null
}

export const screenLockMachine = setup({
  types: {
    context: {} as ScreenLockContext,
    events: {} as ScreenLockEvent,
    input: {} as ScreenLockInput,
  },
  actors: {
    validatePassword: missingPromise<ValidatePasswordResponse, ValidatePasswordRequest>('screenLock', 'validatePassword'),
  },
  actions: {
    /** Spec 000 §8: a failed unlock is only logged. */
    logFailure: missingAction<{ reason: string }>('screenLock', 'logFailure'),
  },
  guards: {
    hasPassword: ({ event }) => event.type === 'SUBMIT' && event.password.length > 0,
    validated: ({ event }) => (event as { output?: ValidatePasswordResponse }).output?.success === true,
  },
}).createMachine({
  id: 'screenLock',
  context: ({ input }) => ({
    pauseActive: input.pauseActive ?? false,
    pauseStartedAt: input.pauseStartedAt ?? null,
    fieldErrors: null,
  }),
  on: {
    PAUSE_CHANGED: {
      actions: assign({ pauseActive: ({ event }) => event.active, pauseStartedAt: ({ event }) => event.startedAt }),
    },
  },
  initial: 'unlocked',
  states: {
    unlocked: {
      on: {
        LOCK: {
          target: 'locked',
          actions: assign(({ event }) => (event.by === 'pause' ? { pauseActive: true, pauseStartedAt: event.pauseStartedAt } : {})),
        },
      },
    },
    locked: {
      on: { SUBMIT: { guard: 'hasPassword', target: 'validating' } },
    },
    validating: {
      invoke: {
        id: 'validatePassword',
        src: 'validatePassword',
        // Only the password leaves the machine; it is never stored in context.
        input: ({ event }): ValidatePasswordRequest => ({ password: event.type === 'SUBMIT' ? event.password : '' }),
        onDone: [
          { guard: 'validated', target: 'unlocked', actions: assign({ fieldErrors: null }) },
          { target: 'locked', actions: { type: 'logFailure', params: { reason: 'password not validated' } } },
        ],
        onError: {
          target: 'locked',
          actions: [
            assign({ fieldErrors: ({ context, event }) => fieldErrorsOf(event.error) ?? context.fieldErrors }),
            { type: 'logFailure', params: ({ event }) => ({ reason: String((event.error as Error)?.message ?? event.error) }) },
          ],
        },
      },
    },
  },
})
