import { useState } from 'react'
import type { ReactNode } from 'react'
import Button from '@mui/joy/Button'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Stack from '@mui/joy/Stack'
import Switch from '@mui/joy/Switch'
import { useForm } from '@tanstack/react-form'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { ActivityCreateBody } from '../../../contract/api/activities.ts'
import { dayjs } from '../../app/dates.ts'
import { AppForm } from '../../components/form/AppForm.tsx'
import { applyServerErrors } from '../../components/form/serverErrors.ts'
import { errorText } from '../../components/form/TextField.tsx'
import { schemaFieldErrors } from '../../components/form/validation.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { lookupQuery } from '../../entities/api.ts'
import { ACTIVITIES_KEY, createActivity } from './activitiesApi.ts'
import type { ActivityCreateRequest } from './activitiesApi.ts'

/** The agents a supervisor may schedule for: active users of the caller's site by name (sites.add_activity may read it). */
export const USERS_LOOKUP = '/api/v1/service/apps/business/users/'

/** The activity types the form offers (ours: the spec names none); a list shows any other type as it is. */
export const ACTIVITY_TYPES: Record<string, MessageDescriptor> = { call: msg`Ligação`, callback: msg`Retorno` }

const FIELDS = ['user', 'destination', 'start', 'end', 'subject', 'type', 'automatic_execution'] as const

export type NewActivityValues = {
  user: string
  destination: string
  /** datetime-local values: the browser's local time. */
  start: string
  end: string
  subject: string
  type: string
  automatic_execution: boolean
}

/** The body the form sends: local date-times as ISO instants, an empty end as null. */
export function activityBody(value: NewActivityValues): ActivityCreateRequest {
  const instant = (text: string) => (text ? dayjs(text).toISOString() : '')
  return {
    user: value.user === '' ? (undefined as unknown as number) : Number(value.user),
    destination: value.destination,
    start: instant(value.start),
    end: value.end ? instant(value.end) : null,
    subject: value.subject,
    type: value.type,
    automatic_execution: value.automatic_execution,
  }
}

type FieldLike = { name: string; state: { meta: { errors: unknown[]; isTouched: boolean } }; form: { state: { submissionAttempts: number } } }

function Labelled({ field, label, children }: { field: FieldLike; label: string; children: ReactNode }) {
  const shown = field.state.meta.isTouched || field.form.state.submissionAttempts > 0
  const error = shown ? errorText(field.state.meta.errors) : undefined
  return (
    <FormControl id={`activity-${field.name}`} error={Boolean(error)}>
      <FormLabel>{label}</FormLabel>
      {children}
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  )
}

/** 'Nova atividade' (sites.add_activity): agent, destination, start, end, subject, type, automatic execution. */
export function NewActivityDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const users = useQuery(lookupQuery(USERS_LOOKUP))
  const [formErrors, setFormErrors] = useState<string[]>([])
  const validate = ({ value }: { value: NewActivityValues }) => {
    const fields = schemaFieldErrors(ActivityCreateBody, activityBody(value), i18n.locale)
    return fields ? { fields } : undefined
  }
  const form = useForm({
    defaultValues: { user: '', destination: '', start: '', end: '', subject: '', type: 'call', automatic_execution: true } as NewActivityValues,
    validators: { onChange: validate, onSubmit: validate },
    onSubmit: async ({ value }) => {
      setFormErrors([])
      try {
        await createActivity(activityBody(value))
        toast.success(t`Atividade agendada.`)
        await queryClient.invalidateQueries({ queryKey: ACTIVITIES_KEY })
        onClose()
      } catch (error) {
        setFormErrors(applyServerErrors(form, error, FIELDS))
      }
    },
  })
  return (
    <Modal open onClose={onClose}>
      <ModalDialog aria-labelledby="activity-new-title" sx={{ width: 'min(520px, 96vw)', maxHeight: '92vh', overflow: 'auto' }} data-testid="activity-dialog">
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle id="activity-new-title">{t`Nova atividade`}</DialogTitle>
        <DialogContent>
          <AppForm onSubmit={form.handleSubmit} errors={formErrors} spacing={1.5}>
            <form.Field name="user">
              {(f) => (
                <Labelled field={f} label={t`Agente`}>
                  <Select
                    value={f.state.value || null}
                    onChange={(_, value) => f.handleChange(value ?? '')}
                    onClose={f.handleBlur}
                    placeholder={t`Selecione`}
                    slotProps={{ button: { 'aria-label': t`Agente` } }}
                  >
                    {(users.data ?? []).map((user) => (
                      <Option key={String(user.id)} value={String(user.id)}>
                        {String(user.description ?? user.id)}
                      </Option>
                    ))}
                  </Select>
                </Labelled>
              )}
            </form.Field>
            <form.Field name="destination">
              {(f) => (
                <Labelled field={f} label={t`Ligar para`}>
                  <Input name="destination" value={f.state.value} inputMode="tel" onChange={(e) => f.handleChange(e.target.value)} onBlur={f.handleBlur} />
                </Labelled>
              )}
            </form.Field>
            <Stack spacing={1.5}>
              <form.Field name="start">
                {(f) => (
                  <Labelled field={f} label={t({ message: 'Início', context: 'activity start' })}>
                    <Input
                      type="datetime-local"
                      name="start"
                      value={f.state.value}
                      onChange={(e) => f.handleChange(e.target.value)}
                      onBlur={f.handleBlur}
                      slotProps={{ input: { step: 1 } }}
                    />
                  </Labelled>
                )}
              </form.Field>
              <form.Field name="end">
                {(f) => (
                  <Labelled field={f} label={t`Fim`}>
                    <Input
                      type="datetime-local"
                      name="end"
                      value={f.state.value}
                      onChange={(e) => f.handleChange(e.target.value)}
                      onBlur={f.handleBlur}
                      slotProps={{ input: { step: 1 } }}
                    />
                  </Labelled>
                )}
              </form.Field>
            </Stack>
            <form.Field name="subject">
              {(f) => (
                <Labelled field={f} label={t`Assunto`}>
                  <Input name="subject" value={f.state.value} onChange={(e) => f.handleChange(e.target.value)} onBlur={f.handleBlur} />
                </Labelled>
              )}
            </form.Field>
            <form.Field name="type">
              {(f) => (
                <Labelled field={f} label={t`Tipo`}>
                  <Select value={f.state.value} onChange={(_, value) => f.handleChange(value ?? 'call')} slotProps={{ button: { 'aria-label': t`Tipo` } }}>
                    {Object.entries(ACTIVITY_TYPES).map(([value, label]) => (
                      <Option key={value} value={value}>
                        {i18n._(label)}
                      </Option>
                    ))}
                  </Select>
                </Labelled>
              )}
            </form.Field>
            <form.Field name="automatic_execution">
              {(f) => (
                <FormControl orientation="horizontal" sx={{ justifyContent: 'space-between' }}>
                  <FormLabel>{t`Execução automática`}</FormLabel>
                  <Switch
                    checked={f.state.value}
                    onChange={(e) => f.handleChange(e.target.checked)}
                    slotProps={{ input: { 'aria-label': t`Execução automática` } }}
                  />
                </FormControl>
              )}
            </form.Field>
            <form.Subscribe selector={(s) => s.isSubmitting}>
              {(submitting) => (
                <Stack direction="row" justifyContent="flex-end" spacing={1}>
                  <Button variant="plain" color="neutral" onClick={onClose}>
                    {t`Cancelar`}
                  </Button>
                  <Button type="submit" loading={submitting} data-testid="activity-save">
                    {t`Salvar`}
                  </Button>
                </Stack>
              )}
            </form.Subscribe>
          </AppForm>
        </DialogContent>
      </ModalDialog>
    </Modal>
  )
}
