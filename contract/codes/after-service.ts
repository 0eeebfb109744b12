// After-service (wrap-up) of a call — spec 000 §4 "Webphone state" and §7. The spec's behaviour is a countdown of the
// team's duration_of_after_service that the agent may end early; a team may choose instead one of Genesys Cloud's four
// wrap-up modes (team field after_service_mode):
//   optional                  — no time limit; the agent ends it when they like, classified or not.
//   mandatory                 — no time limit; it ends only once the call is classified (then by the agent).
//   mandatory_timeout         — the countdown; ending early needs the classification; the time limit ends it anyway.
//   mandatory_timeout_no_exit — the countdown, exactly: it cannot be ended early.

export const AFTER_SERVICE_MODES = ['spec', 'optional', 'mandatory', 'mandatory_timeout', 'mandatory_timeout_no_exit'] as const
export type AfterServiceMode = (typeof AFTER_SERVICE_MODES)[number]

export function afterServiceMode(value: unknown): AfterServiceMode {
  return (AFTER_SERVICE_MODES as readonly unknown[]).includes(value) ? (value as AfterServiceMode) : 'spec'
}

/** The mode counts down the team's duration (the others last until the agent ends them). */
export function afterServiceTimed(mode: AfterServiceMode): boolean {
  return mode === 'spec' || mode === 'mandatory_timeout' || mode === 'mandatory_timeout_no_exit'
}

/** Whether the agent may end the after-service now, in this mode, with the call classified or not. */
export function afterServiceEndable(mode: AfterServiceMode, classified: boolean): boolean {
  if (mode === 'mandatory_timeout_no_exit') return false
  if (mode === 'mandatory' || mode === 'mandatory_timeout') return classified
  return true
}

/**
 * Why the agent may not end the after-service now (null: they may), the server's side of `afterServiceEndable`: the
 * wrap-up mode, whether the call is classified and whether its time is over (`timeOver`; untimed modes never are).
 */
export function afterServiceEndRefusal(
  mode: AfterServiceMode,
  classified: boolean,
  timeOver: boolean,
): 'afterServiceNeedsClassification' | 'afterServiceNoEarlyExit' | null {
  if (afterServiceEndable(mode, classified)) return null
  if (timeOver && afterServiceTimed(mode)) return null
  return mode === 'mandatory_timeout_no_exit' ? 'afterServiceNoEarlyExit' : 'afterServiceNeedsClassification'
}

/**
 * Seconds an agent's end may come before the server's count of the time (the browser counts from its own clock and
 * its own view of the call's end).
 */
export const AFTER_SERVICE_EARLY_TOLERANCE_SECONDS = 3

/** spec 000 §7: `tab-form ?type=hangup&after_service_type=3` — the after-service of a call that ended. */
export const AFTER_SERVICE_TYPE_CALL = 3

/** Seconds the server waits past an after-service's time before it ends it itself (afterServiceTimeout). */
export const AFTER_SERVICE_GRACE_SECONDS = 10
