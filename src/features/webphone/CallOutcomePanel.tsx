import { useEffect, useState } from 'react'
import Divider from '@mui/joy/Divider'
import Stack from '@mui/joy/Stack'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { formValuesFor } from '../../../contract/entities/index.ts'
import type { Values } from '../../../contract/entities/index.ts'
import { profileQuery } from '../../api/session.ts'
import { ApiError } from '../../api/errors.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { bodyOf, validateValues } from '../../entities/form/validate.ts'
import { ClassificationForm } from '../outcomes/ClassificationForm.tsx'
import { OutcomeForm, useBuilderEntity } from '../outcomes/OutcomeForm.tsx'
import { saveCallForm, saveClassification, updateOutcome } from './callOutcomes.ts'
import { outcomeCall, useOutcome } from './useCallOutcome.ts'
import type { CallOutcome } from './callOutcomes.ts'
import type { Webphone } from './useWebphone.ts'

// The form area beside the call (spec 000 §2: the panel is 1000 wide when the call has a form; issue 15 items 1, 2):
// the form the call's queue names, drawn by the dynamic renderer from its form-builder definition, and the
// classification chain (classification → sub-classification → schedule, the renderer's classification kind filtered
// by the call's queue) with the team's comment — the pieces a chat's tabs use too (src/features/outcomes/). Both stay
// through the after-service. The machine hears whether the form is sent and valid (CALL_FORM: an invalid unsent form
// blocks a transfer) and when the call is classified.

export function CallOutcomePanel({ webphone }: { webphone: Webphone }) {
  const call = outcomeCall(webphone)
  const outcome = useOutcome(call?.uid)
  if (!call || !outcome) return null
  return (
    <Stack spacing={2} sx={{ p: 1.5 }} data-testid="webphone-outcome">
      {outcome.meta.form && <CallForm webphone={webphone} callId={call.callId} outcome={outcome} />}
      {outcome.meta.form && <Divider />}
      <Classification webphone={webphone} outcome={outcome} />
    </Stack>
  )
}

function CallForm({ webphone, callId, outcome }: { webphone: Webphone; callId: string; outcome: CallOutcome }) {
  const { t, i18n } = useLingui()
  const uid = outcome.meta.uid
  const definition = outcome.meta.form!
  const entity = useBuilderEntity(definition)
  const [touched, setTouched] = useState(false)
  const values: Values = { ...formValuesFor(entity), ...outcome.values }
  const errors = validateValues(entity, 'create', values, i18n.locale)
  const valid = Object.keys(errors).length === 0
  // The machine hears what a transfer and the after-service's end need.
  useEffect(() => {
    webphone.send({ type: 'CALL_FORM', callId, uid, sent: outcome.formSent, valid })
    if (outcome.valid !== valid) updateOutcome(uid, { valid })
  }, [callId, uid, outcome.formSent, valid]) // eslint-disable-line react-hooks/exhaustive-deps
  const save = async () => {
    setTouched(true)
    if (!valid) return
    updateOutcome(uid, { values: bodyOf(entity, values) })
    try {
      await saveCallForm(uid)
      toast(t`Formulário salvo.`, 'success')
    } catch (error) {
      toast(error instanceof ApiError ? error.message : t`Ocorreu um erro`, 'danger')
    }
  }
  return (
    <OutcomeForm
      definition={definition}
      entity={entity}
      values={values}
      errors={touched ? errors : {}}
      sent={outcome.formSent}
      ids={{ form: 'webphone-call-form', save: 'webphone-form-save', sent: 'webphone-form-sent' }}
      onChange={(name, value) => updateOutcome(uid, { values: { ...outcome.values, [name]: value } })}
      onBlur={() => setTouched(true)}
      onSave={() => void save()}
    />
  )
}

function Classification({ webphone, outcome }: { webphone: Webphone; outcome: CallOutcome }) {
  const { data: profile } = useQuery(profileQuery)
  const team = profile?.team ?? null
  const { queue, mailing } = outcome.meta
  const min = team?.enable_comment ? (team.minimum_comment_size ?? 0) : 0
  return (
    <ClassificationForm
      required={outcome.meta.classificationRequired}
      // Spec 000 §7: the classifications of the call's queue, or of its lead's mailing (a dialer call has no queue).
      lookupPath={
        queue !== null
          ? `/api/v1/service/classifications/?queue_id=${queue}`
          : mailing !== null
            ? `/api/v1/service/classifications/?mailing_id=${mailing}`
            : null
      }
      comment={{ enabled: !!team?.enable_comment, min, max: team?.maximum_comment_size ?? 0 }}
      saved={outcome.classification}
      savedText={<Trans>Chamada classificada.</Trans>}
      ids={{ root: 'webphone-classification', save: 'webphone-classification-save', saved: 'webphone-classified' }}
      onSend={async (body) => {
        await saveClassification(outcome.meta.uid, { queue_id: queue, ...body })
        webphone.send({ type: 'CALL_CLASSIFIED', uid: outcome.meta.uid })
      }}
    />
  )
}
