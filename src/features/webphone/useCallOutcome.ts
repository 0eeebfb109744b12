import { useEffect, useSyncExternalStore } from 'react'
import type { CallFormDefinition, StepClassification } from '../../../contract/api/service-actions.ts'
import { outcomeOf, outcomesVersion, rememberOutcome, subscribeOutcomes } from './callOutcomes.ts'
import type { CallOutcome } from './callOutcomes.ts'
import type { Webphone } from './useWebphone.ts'

// The light side of the form area (the widget's first chunk): which call's outcome is recorded now, whether the panel
// widens for it, and the calls' metadata remembered as it arrives. The form area itself (CallOutcomePanel.tsx, with
// the renderer) loads with the panel.

/** The call whose outcome is recorded now: the current live call, else the one in after-service. */
export function outcomeCall(webphone: Webphone): { callId: string; uid: string } | null {
  const { current, view } = webphone
  if (current && current.status !== 'ended' && current.uid) return { callId: current.id, uid: current.uid }
  if (view.afterService?.uid) return { callId: view.afterService.callId, uid: view.afterService.uid }
  return null
}

export function useOutcome(uid: string | null | undefined): CallOutcome | null {
  useSyncExternalStore(subscribeOutcomes, outcomesVersion, outcomesVersion)
  return outcomeOf(uid)
}

/** Whether the panel widens (spec 000 §2): the call has a form, or needs its classification. */
export function useNeedsOutcomePanel(webphone: Webphone): boolean {
  const call = outcomeCall(webphone)
  const outcome = useOutcome(call?.uid)
  return !!outcome && (outcome.meta.form !== null || outcome.meta.classificationRequired)
}

/** Each call's metadata, once it arrives, becomes its outcome (form definition, what was already sent). */
export function useRememberOutcomes(webphone: Webphone): void {
  const { calls } = webphone
  useEffect(() => {
    for (const call of calls) {
      const metadata = call.metadata
      if (!metadata || !call.uid) continue
      const data = (metadata.data ?? {}) as { queue?: number | null; mailing?: number | null; call_type?: number; uid?: string }
      rememberOutcome(
        {
          uid: call.uid,
          form: (metadata.form_definition as CallFormDefinition | null | undefined) ?? null,
          classificationRequired: metadata.classification_required === true,
          queue: typeof data.queue === 'number' ? data.queue : null,
          mailing: typeof data.mailing === 'number' ? data.mailing : null,
          callType: typeof data.call_type === 'number' ? data.call_type : call.callType,
        },
        {
          formValues: (metadata.form_values as Record<string, unknown> | null | undefined) ?? null,
          classification: (metadata.classification as StepClassification | null | undefined) ?? null,
        },
      )
    }
  }, [calls])
}
