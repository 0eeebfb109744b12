import type { Db } from '../../db/client.ts'
import { sipRegistrations, sites } from '../../db/schema/index.ts'
import { eq } from 'drizzle-orm'
import type { CallControl, CallEvent, RegistrationEvent } from '../types.ts'
import { parseEvent, parseFailure, parseRoute, rejectWith } from './protocol.ts'
import type { Decision } from './protocol.ts'
import { applyProgress, closeStep, latestStep, recordSteps, stepsOf } from './records.ts'
import { routeAfterFailure } from './after-failure.ts'
import type { Env } from './call-plan.ts'
import { toDestination } from './destinations/index.ts'
import { routeNew } from './routing.ts'
import { isSpyTarget, routeSpyLeg } from './spy.ts'
import { asDialerPlan, finishPreviewCall, isDialerCall, routeDialerLeg, startPreviewAttempt } from './dialer-leg.ts'
import { CALL_TYPE } from '../../../contract/codes/call-types.ts'
import type { Random } from '../../acd/strategies.ts'
import { replacedStep } from './step-change.ts'
import type { StepChange } from './step-change.ts'

// Call control (README.md): the brain Kamailio asks over evapi where each call goes. `route` and `failure` answer a
// decision and record it as a call step in the same breath; `event` completes the records from call progress and
// keeps the registrations. Nothing lives only in this process: every answer is derived from the database.

export type CallControlDeps = {
  db: Db
  log?: { warn(obj: unknown, msg?: string): void }
  /** The media app's SIP address (`sip:127.0.0.1:5090;transport=udp`): callers wait there; null/absent: it does not run. */
  mediaApp?: string | null
  /** An agent's live call became another step (step-change.ts; the app pushes changeCallStep to their sockets). */
  onStepChange?: (change: StepChange) => void | Promise<void>
  /** Tests fix the clock and the dice. */
  now?: () => Date
  random?: Random
}

export type CallControlService = CallControl & {
  route(request: unknown): Promise<Decision>
  failure(request: unknown): Promise<Decision>
  event(event: unknown): void
  /** Resolves when every event received so far is written (tests, shutdown). */
  settled(): Promise<void>
}

/** Keys of a stored decision that are ours, not Kamailio's. */
const PRIVATE_KEYS = ['group', 'offered_devices'] as const

function forKamailio(decision: Decision): Decision {
  const copy = { ...decision } as Record<string, unknown>
  for (const key of PRIVATE_KEYS) delete copy[key]
  return copy as Decision
}

export function createCallControl(deps: CallControlDeps): CallControlService {
  const now = deps.now ?? (() => new Date())
  const env = (): Env => ({
    db: deps.db,
    now: now(),
    random: deps.random ?? Math.random,
    destination: toDestination,
    mediaApp: deps.mediaApp ?? null,
  })
  const pending = new Set<Promise<void>>()

  async function route(raw: unknown): Promise<Decision> {
    const request = parseRoute(raw)
    if (!request) return rejectWith(400)
    const e = env()
    // The media app calling a dialer's customer (no caller of its own to bridge): the campaign's route (dialer-leg.ts).
    // The media app calling a supervisor who monitors an agent (spy.ts).
    if (isSpyTarget(request)) return forKamailio(await routeSpyLeg(e, request))
    if (request.source === 'media' && !request.x_headers['X-Atende-Media-Leg']) return forKamailio(await routeDialerLeg(e, request))
    const routed = await routeNew(e, request)
    if (routed.siteId === null) return routed.decision
    const existing = await stepsOf(e.db, routed.siteId, request.call_id)
    // A repeated question (Kamailio re-asking after a reconnect) gets the answer already given.
    if (existing.length > 0) return forKamailio(existing[existing.length - 1]!.decision as unknown as Decision)
    const decision = await recordSteps(
      e.db,
      {
        siteId: routed.siteId,
        callId: request.call_id,
        after: 0,
        parentUid: routed.parentUid ?? null,
        now: e.now,
      },
      routed.plan,
    )
    // A preview call that goes out counts as the lead's attempt (its hold names the call until it ends).
    const first = routed.plan[0]
    if (decision.action === 'relay' && first?.callType === CALL_TYPE.preview && typeof first.leadId === 'number') {
      await startPreviewAttempt(e.db, routed.siteId, first.leadId, request.call_id, e.now)
    }
    return forKamailio(decision)
  }

  async function failure(raw: unknown): Promise<Decision> {
    const request = parseFailure(raw)
    if (!request) return rejectWith(400)
    const e = env()
    const latest = await latestStep(e.db, request.call_id)
    if (!latest) return rejectWith(404)
    await closeStep(e.db, latest, request.code, request.reason, e.now)
    const steps = await stepsOf(e.db, latest.siteId, request.call_id)
    const planned = await routeAfterFailure(e, steps, {
      code: request.code,
      reason: request.reason,
    })
    // A dialer call's next trunk keeps its media with the media app (dialer-leg.ts).
    const plan = isDialerCall(steps[0]) ? asDialerPlan(planned) : planned
    const decision = await recordSteps(
      e.db,
      {
        siteId: latest.siteId,
        callId: request.call_id,
        after: steps[steps.length - 1]!.step,
        parentUid: steps[0]!.uid,
        now: e.now,
      },
      plan,
    )
    return forKamailio(decision)
  }

  async function apply(event: CallEvent | RegistrationEvent): Promise<void> {
    if (event.event === 'registration') {
      const [user, domain] = event.aor.replace(/^sips?:/, '').split('@')
      if (!user || !domain) return
      const [site] = await deps.db.select({ id: sites.id }).from(sites).where(eq(sites.domain, domain.toLowerCase()))
      if (!site) return
      const at = now()
      const registered = event.state === 'registered'
      const values = {
        siteId: site.id,
        username: user,
        registered,
        expiresAt: registered && event.expires > 0 ? new Date(at.getTime() + event.expires * 1000) : null,
        updatedAt: at,
      }
      await deps.db
        .insert(sipRegistrations)
        .values(values)
        .onConflictDoUpdate({
          target: [sipRegistrations.siteId, sipRegistrations.username],
          set: values,
        })
      return
    }
    await applyProgress(deps.db, {
      callId: event.call_id,
      state: event.state,
      code: event.code,
      reason: event.reason,
      by: event.by,
      callee: event.callee,
      at: typeof event.ts === 'number' ? new Date(event.ts) : now(),
    })
    // A preview call's end is the lead's result (dialer-leg.ts).
    if (event.state === 'ended' || event.state === 'failed') await finishPreviewCall(deps.db, event.call_id, now())
    if (event.state === 'answered' && deps.onStepChange) {
      const change = await replacedStep(deps.db, event.call_id)
      if (change) await deps.onStepChange(change)
    }
  }

  function event(raw: unknown): void {
    const parsed = parseEvent(raw)
    if (!parsed) {
      deps.log?.warn({ event: raw }, 'call control: malformed event ignored')
      return
    }
    // Events of one call are written in arrival order: each waits for the writes before it.
    const previous = Promise.all(pending)
    const job: Promise<void> = previous
      .then(() => apply(parsed))
      .catch((err: unknown) => deps.log?.warn({ err }, 'call control: event not recorded'))
      .finally(() => pending.delete(job))
    pending.add(job)
  }

  return {
    route,
    failure,
    event,
    async settled() {
      while (pending.size > 0) await Promise.all(pending)
    },
  } as CallControlService
}

export { parseEvent, parseFailure, parseRoute } from './protocol.ts'
export type { Decision } from './protocol.ts'
