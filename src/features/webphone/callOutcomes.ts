import type { CallFormDefinition, StepClassification, TabFormPostResponse } from '../../../contract/api/service-actions.ts'
import { api } from '../../api/client.ts'

// What the agent records beside a call (issue 15 items 1, 2): the form its queue names and the classification, kept
// by the call's uid while the call lives and through its after-service (the call is gone from the list by then). The
// form area (CallOutcomePanel.tsx) reads and writes it; the webphone machine asks for the save before a transfer and
// at the end of after-service (its `saveForm` effect → saveCallForm); the machine hears what it needs (sent, valid)
// through CALL_FORM.

export type CallOutcomeMeta = {
  uid: string
  form: CallFormDefinition | null
  classificationRequired: boolean
  queue: number | null
  /** The lead's mailing of a dialer call (its classifications are the mailing's when the call has no queue). */
  mailing: number | null
  callType: number
}

export type CallOutcome = {
  meta: CallOutcomeMeta
  values: Record<string, unknown>
  /** The answers are valid now (the renderer's validation). */
  valid: boolean
  formSent: boolean
  classification: StepClassification | null
}

const outcomes = new Map<string, CallOutcome>()
const listeners = new Set<() => void>()
let version = 0

function changed(): void {
  version++
  for (const listener of listeners) listener()
}

export function subscribeOutcomes(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function outcomesVersion(): number {
  return version
}

export function outcomeOf(uid: string | null | undefined): CallOutcome | null {
  return uid ? (outcomes.get(uid) ?? null) : null
}

/** The call's metadata arrived (tab-form GET): its form and what was already sent. */
export function rememberOutcome(meta: CallOutcomeMeta, sent: { formValues: Record<string, unknown> | null; classification: StepClassification | null }): void {
  if (outcomes.has(meta.uid)) return
  outcomes.set(meta.uid, {
    meta,
    values: sent.formValues ?? {},
    valid: false,
    formSent: sent.formValues !== null,
    classification: sent.classification,
  })
  changed()
}

export function updateOutcome(uid: string, patch: Partial<Omit<CallOutcome, 'meta'>>): void {
  const known = outcomes.get(uid)
  if (!known) return
  outcomes.set(uid, { ...known, ...patch })
  changed()
}

export function forgetOutcome(uid: string): void {
  if (outcomes.delete(uid)) changed()
}

const tabForm = (uid: string) => `/v1/service/action/tab-form/${encodeURIComponent(uid)}/`

/** tab-form ?type=form&form_id=: the answers, once (a form already sent is not resent). */
export async function saveCallForm(uid: string | null): Promise<boolean> {
  const outcome = outcomeOf(uid)
  if (!uid || !outcome?.meta.form || outcome.formSent) return false
  updateOutcome(uid, { formSent: true })
  try {
    await api.post<TabFormPostResponse>(tabForm(uid), outcome.values, { query: { type: 'form', form_id: outcome.meta.form.id } })
    return true
  } catch (error) {
    updateOutcome(uid, { formSent: false })
    throw error
  }
}

/** tab-form ?type=classification: the chain, the comment and the schedule; answers the activity it created. */
export async function saveClassification(uid: string, body: Record<string, unknown>): Promise<TabFormPostResponse> {
  const answer = await api.post<TabFormPostResponse>(tabForm(uid), body, { query: { type: 'classification' } })
  const outcome = outcomeOf(uid)
  if (outcome) {
    updateOutcome(uid, {
      classification: {
        queue_id: outcome.meta.queue,
        classification_id: Number(body.classification_id),
        sub_classification_id: body.sub_classification_id == null ? null : Number(body.sub_classification_id),
        comment: String(body.comment ?? ''),
        schedule_date: (body.schedule_date as string | null | undefined) ?? null,
        classified_by: 0,
        activity_id: answer.activity ?? null,
      },
    })
  }
  return answer
}
