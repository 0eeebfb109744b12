import { useMemo, useState } from 'react'
import type { ReactNode } from 'react'
import Button from '@mui/joy/Button'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { entityByKey, formValuesFor } from '../../../contract/entities/index.ts'
import type { Entity, Field, Values } from '../../../contract/entities/index.ts'
import type { StepClassification } from '../../../contract/api/service-actions.ts'
import { t as texts } from '../../../contract/entities/define.ts'
import { field, textarea } from '../../../contract/entities/fields.ts'
import { ApiError } from '../../api/errors.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { FormTabs } from '../../entities/form/FormTabs.tsx'
import { validateValues } from '../../entities/form/validate.ts'
import { previewEntity } from '../settings/formBuilder/builderFields.ts'

// The classification chain with the comment (issue 15 item 2; spec 000 §5 comment and classification rules), for a
// call (webphone) and a chat (Classification tab): classification → sub-classification → schedule through the
// renderer's classification kind, filtered by the step's queue, and the comment with its minimum, maximum and the hint
// 'Quantidade mínima de caracteres é {n}'. The caller sends the body (tab-form ?type=classification).

export type CommentRule = { enabled: boolean; min: number; max: number }

/** The chain and the comment as renderer fields: a throwaway entity validates them. */
export function classificationEntity(options: { required: boolean; lookupPath: string | null; comment: CommentRule }): Entity {
  const fields: Field[] = [
    field('chain', 'classificationWithCache', texts('Classificação', 'Classification', 'Clasificación'), {
      required: options.required,
      cols: 12,
      ...(options.lookupPath ? { lookup: { path: options.lookupPath, value: 'id', label: 'description' } } : {}),
    }),
  ]
  const { enabled, min, max } = options.comment
  if (enabled) {
    fields.push(
      textarea('comment', texts('Comentário', 'Comment', 'Comentario'), {
        required: min > 0,
        ...(min > 0
          ? {
              min,
              hint: texts(`Quantidade mínima de caracteres é ${min}`, `Minimum number of characters is ${min}`, `La cantidad mínima de caracteres es ${min}`),
            }
          : {}),
        ...(max > 0 ? { max } : {}),
        cols: 12,
      }),
    )
  }
  return previewEntity(entityByKey('service.forms'), fields, [{ key: 'classification', label: texts('', '', ''), fields: fields.map((f) => f.name) }])
}

/** What tab-form ?type=classification takes from the chain and the comment. */
export type ClassificationSend = {
  classification_id: number
  sub_classification_id: number | null
  schedule_date: string | null
  comment: string
}

type ChainValues = { chain?: unknown; comment?: unknown }

export type ClassificationIds = { root: string; save: string; saved: string }

export function ClassificationForm({
  required,
  lookupPath,
  comment,
  saved,
  savedText,
  ids,
  onSend,
  children,
}: {
  required: boolean
  lookupPath: string | null
  comment: CommentRule
  saved: StepClassification | null
  /** What shows once it is classified ('Chamada classificada.', 'Chat classificado.'). */
  savedText: ReactNode
  ids: ClassificationIds
  /** Sends it; a field error of the answer shows on its field. */
  onSend: (body: ClassificationSend) => Promise<void>
  children?: ReactNode
}) {
  const { t, i18n } = useLingui()
  const entity = useMemo(() => classificationEntity({ required, lookupPath, comment }), [required, lookupPath, comment.enabled, comment.min, comment.max]) // eslint-disable-line react-hooks/exhaustive-deps
  const [values, setValues] = useState<ChainValues>(() =>
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
      await onSend({
        classification_id: Number(chain[0]),
        sub_classification_id: chain[1] === undefined || chain[1] === '' ? null : Number(chain[1]),
        schedule_date: (chain[2] as string | undefined) ?? null,
        comment: typeof current.comment === 'string' ? current.comment : '',
      })
      setServerErrors({})
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
    <Stack spacing={1} data-testid={ids.root}>
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
        <Typography level="body-sm" color="success" data-testid={ids.saved}>
          {savedText}
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        {children}
        <Button size="sm" onClick={() => void save()} data-testid={ids.save}>
          <Trans>Salvar classificação</Trans>
        </Button>
      </Stack>
    </Stack>
  )
}
