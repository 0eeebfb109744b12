import { useEffect, useMemo, useState } from 'react'
import Button from '@mui/joy/Button'
import Stack from '@mui/joy/Stack'
import { useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ChatForms } from '../../../contract/api/chat-calls.ts'
import type { CallFormDefinition } from '../../../contract/api/service-actions.ts'
import { formValuesFor } from '../../../contract/entities/index.ts'
import type { Values } from '../../../contract/entities/index.ts'
import { ApiError } from '../../api/errors.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { bodyOf, validateValues } from '../../entities/form/validate.ts'
import { ConfirmDialog } from './ConfirmDialog.tsx'
import { useChatActors } from './useChat.ts'
import { ClassificationForm } from '../outcomes/ClassificationForm.tsx'
import { OutcomeForm, useBuilderEntity } from '../outcomes/OutcomeForm.tsx'
import { chatFormsKey, rememberAnswers, saveChatClassification, saveChatForm } from './chatOutcomes.ts'

// The chat's Form and Classification tabs (spec 001 §2 right column; issue 15 item 4), drawn by the pieces a call's
// panel uses (OutcomeForm, ClassificationForm). Both tell the room's machine its OUTCOME, which decides whether the
// close may go (the spec's toasts otherwise); the Classification tab holds the close when a classification form exists.

type FormPart = NonNullable<ChatForms['form']>
type ClassificationPart = NonNullable<ChatForms['classification']>

/** The form-builder definition the forms/ answer carries in tabs. */
function definitionOf(form: FormPart): CallFormDefinition {
  return { id: form.id, description: form.description, fields: form.tabs.flatMap((tab) => tab.fields) }
}

export function ChatFormTab({ stepId, form, ended }: { stepId: number; form: FormPart; ended: boolean }) {
  const { t, i18n } = useLingui()
  const { room: tell } = useChatActors()
  const queryClient = useQueryClient()
  const definition = useMemo(() => definitionOf(form), [form])
  const entity = useBuilderEntity(definition)
  const names = useMemo(() => new Set(entity.fields.map((field) => field.name)), [entity])
  // Pre-filled from the room's data (and, once sent, the answers) under the fields' names.
  const [typed, setTyped] = useState<Record<string, unknown>>(() => Object.fromEntries(Object.entries(form.data).filter(([name]) => names.has(name))))
  const [touched, setTouched] = useState(false)
  const values: Values = { ...formValuesFor(entity), ...typed }
  const errors = validateValues(entity, 'create', values, i18n.locale)
  const valid = Object.keys(errors).length === 0
  const required = definition.fields.some((field) => field.required === true)
  const sent = form.sent
  useEffect(() => {
    rememberAnswers(stepId, form.id, bodyOf(entity, values), sent)
    tell(stepId, { type: 'OUTCOME', hasForm: true, formRequired: required, formValid: valid, formSent: sent })
  }, [stepId, valid, sent, JSON.stringify(typed)]) // eslint-disable-line react-hooks/exhaustive-deps
  const save = async () => {
    setTouched(true)
    if (!valid) return
    try {
      await saveChatForm(stepId)
      toast(t`Formulário salvo.`, 'success')
      await queryClient.invalidateQueries({ queryKey: chatFormsKey(stepId) })
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
      sent={sent || ended}
      ids={{ form: 'chat-form', save: 'chat-form-save', sent: 'chat-form-sent' }}
      onChange={(name, value) => setTyped((prev) => ({ ...prev, [name]: value }))}
      onBlur={() => setTouched(true)}
      onSave={() => void save()}
    />
  )
}

export function ChatClassificationTab({ stepId, classification, ended }: { stepId: number; classification: ClassificationPart; ended: boolean }) {
  const { t } = useLingui()
  const { room: tell } = useChatActors()
  const queryClient = useQueryClient()
  const [confirm, setConfirm] = useState(false)
  useEffect(() => {
    tell(stepId, { type: 'OUTCOME', classificationRequired: classification.required, classified: classification.value !== null })
  }, [stepId, classification.required, classification.value, tell])
  return (
    <Stack spacing={1}>
      <ClassificationForm
        required={classification.required}
        // The classifications of the chat's queue (spec 000 §7 ?queue_id= for calls; chat queues are their own list).
        lookupPath={classification.queue_id !== null ? `/api/v1/service/classifications/?chat_queues=${classification.queue_id}` : null}
        comment={classification.comment}
        saved={classification.value}
        savedText={<Trans>Chat classificado.</Trans>}
        ids={{ root: 'chat-classification', save: 'chat-classification-save', saved: 'chat-classified' }}
        onSend={async (body) => {
          await saveChatClassification(stepId, body)
          tell(stepId, { type: 'OUTCOME', classified: true })
          await queryClient.invalidateQueries({ queryKey: chatFormsKey(stepId) })
        }}
      >
        {!ended && (
          <Button size="sm" variant="soft" color="danger" onClick={() => setConfirm(true)} data-testid="chat-classification-close">
            {t`Encerrar`}
          </Button>
        )}
      </ClassificationForm>
      {confirm && (
        <ConfirmDialog
          text={t`Você tem certeza que deseja encerrar?`}
          onNo={() => setConfirm(false)}
          onYes={() => {
            setConfirm(false)
            tell(stepId, { type: 'CLOSE' })
          }}
        />
      )}
    </Stack>
  )
}
