import { useEffect, useMemo, useState } from 'react'
import Alert from '@mui/joy/Alert'
import Button from '@mui/joy/Button'
import Divider from '@mui/joy/Divider'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { entityByKey, formValuesFor } from '../../../contract/entities/index.ts'
import type { Entity, Field, Values } from '../../../contract/entities/index.ts'
import { t as texts } from '../../../contract/entities/define.ts'
import { field, textarea } from '../../../contract/entities/fields.ts'
import { profileQuery } from '../../api/session.ts'
import { ApiError } from '../../api/errors.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { FormTabs } from '../../entities/form/FormTabs.tsx'
import { bodyOf, validateValues } from '../../entities/form/validate.ts'
import { builderForm, previewEntity } from '../settings/formBuilder/builderFields.ts'
import { saveCallForm, saveClassification, updateOutcome } from './callOutcomes.ts'
import { outcomeCall, useOutcome } from './useCallOutcome.ts'
import type { CallOutcome } from './callOutcomes.ts'
import type { Webphone } from './useWebphone.ts'

// The form area beside the call (spec 000 §2: the panel is 1000 wide when the call has a form; issue 15 items 1, 2):
// the form the call's queue names, drawn by the dynamic renderer from its form-builder definition, and the
// classification chain (classification → sub-classification → schedule, the renderer's classification kind filtered
// by the call's queue) with the team's comment. Both stay through the after-service. The machine hears whether the
// form is sent and valid (CALL_FORM: an invalid unsent form blocks a transfer) and when the call is classified.

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
  const entity = useMemo(() => {
    const { fields, tabs } = builderForm(definition.fields)
    return previewEntity(entityByKey('service.forms'), fields, tabs)
  }, [definition])
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
    <Stack spacing={1} data-testid="webphone-call-form">
      <Typography level="title-md">{definition.description || t`Formulário`}</Typography>
      <FormTabs
        fields={entity.fields}
        tabs={entity.form.tabs}
        values={values}
        errors={touched ? errors : {}}
        onChange={(name, value) => updateOutcome(uid, { values: { ...outcome.values, [name]: value } })}
        onBlur={() => setTouched(true)}
        context={{ entity, mode: 'create' }}
        disabled={outcome.formSent}
      />
      {outcome.formSent ? (
        <Alert size="sm" color="success" variant="soft" data-testid="webphone-form-sent">
          <Trans>Formulário enviado.</Trans>
        </Alert>
      ) : (
        <Button size="sm" onClick={() => void save()} sx={{ alignSelf: 'flex-end' }} data-testid="webphone-form-save">
          <Trans>Salvar formulário</Trans>
        </Button>
      )}
    </Stack>
  )
}

type ClassificationValues = { chain?: unknown; comment?: unknown }

/** The chain and the comment as renderer fields (spec 000 §5 call form rules): a throwaway entity validates them. */
function classificationEntity(outcome: CallOutcome, team: { enable_comment?: boolean; minimum_comment_size?: number; maximum_comment_size?: number } | null) {
  const queue = outcome.meta.queue
  const fields: Field[] = [
    field('chain', 'classificationWithCache', texts('Classificação', 'Classification', 'Clasificación'), {
      required: outcome.meta.classificationRequired,
      cols: 12,
      // Spec 000 §7: the classifications of the call's queue.
      ...(queue !== null ? { lookup: { path: `/api/v1/service/classifications/?queue_id=${queue}`, value: 'id', label: 'description' } } : {}),
    }),
  ]
  if (team?.enable_comment) {
    const min = team.minimum_comment_size ?? 0
    fields.push(
      textarea('comment', texts('Comentário', 'Comment', 'Comentario'), {
        required: min > 0,
        ...(min > 0
          ? {
              min,
              hint: texts(`Quantidade mínima de caracteres é ${min}`, `Minimum number of characters is ${min}`, `La cantidad mínima de caracteres es ${min}`),
            }
          : {}),
        ...(team.maximum_comment_size ? { max: team.maximum_comment_size } : {}),
        cols: 12,
      }),
    )
  }
  const entity: Entity = previewEntity(entityByKey('service.forms'), fields, [
    { key: 'classification', label: texts('', '', ''), fields: fields.map((f) => f.name) },
  ])
  return entity
}

function Classification({ webphone, outcome }: { webphone: Webphone; outcome: CallOutcome }) {
  const { t, i18n } = useLingui()
  const { data: profile } = useQuery(profileQuery)
  const entity = useMemo(() => classificationEntity(outcome, profile?.team ?? null), [outcome.meta, profile?.team]) // eslint-disable-line react-hooks/exhaustive-deps
  const saved = outcome.classification
  const [values, setValues] = useState<ClassificationValues>(() =>
    saved
      ? { chain: [saved.classification_id, saved.sub_classification_id ?? '', ...(saved.schedule_date ? [saved.schedule_date] : [])], comment: saved.comment }
      : {},
  )
  const [touched, setTouched] = useState(false)
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const current = { ...formValuesFor(entity), ...values } as Values
  const errors = { ...validateValues(entity, 'create', current, i18n.locale), ...serverErrors }
  const save = async () => {
    setTouched(true)
    if (Object.keys(validateValues(entity, 'create', current, i18n.locale)).length > 0) return
    const chain = Array.isArray(current.chain) ? current.chain : []
    if (chain[0] === undefined || chain[0] === '') return
    try {
      await saveClassification(outcome.meta.uid, {
        queue_id: outcome.meta.queue,
        classification_id: Number(chain[0]),
        sub_classification_id: chain[1] === undefined || chain[1] === '' ? null : Number(chain[1]),
        schedule_date: chain[2] ?? null,
        comment: typeof current.comment === 'string' ? current.comment : '',
      })
      setServerErrors({})
      webphone.send({ type: 'CALL_CLASSIFIED', uid: outcome.meta.uid })
      toast(t`Classificação salva.`, 'success')
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
        const byField = error.fieldErrors
        setServerErrors({
          chain: [...(byField.classification_id ?? []), ...(byField.sub_classification_id ?? []), ...(byField.schedule_date ?? [])][0] ?? '',
          ...(byField.comment ? { comment: byField.comment[0]! } : {}),
        })
      } else toast(error instanceof ApiError ? error.message : t`Ocorreu um erro`, 'danger')
    }
  }
  return (
    <Stack spacing={1} data-testid="webphone-classification">
      <Typography level="title-md">
        <Trans>Classificação</Trans>
      </Typography>
      <FormTabs
        fields={entity.fields}
        tabs={entity.form.tabs}
        values={current}
        errors={touched ? Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) : {}}
        onChange={(name, value) => {
          setServerErrors({})
          setValues((prev) => ({ ...prev, [name]: value }))
        }}
        onBlur={() => setTouched(true)}
        context={{ entity, mode: 'create' }}
      />
      {saved && (
        <Typography level="body-sm" color="success" data-testid="webphone-classified">
          <Trans>Chamada classificada.</Trans>
        </Typography>
      )}
      <Button size="sm" onClick={() => void save()} sx={{ alignSelf: 'flex-end' }} data-testid="webphone-classification-save">
        <Trans>Salvar classificação</Trans>
      </Button>
    </Stack>
  )
}
