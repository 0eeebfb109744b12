import { useState } from 'react'
import Button from '@mui/joy/Button'
import Box from '@mui/joy/Box'
import Stack from '@mui/joy/Stack'
import { useForm } from '@tanstack/react-form'
import { useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ProfileUpdateBody } from '../../../contract/api/profile.ts'
import { updateProfile } from '../../api/profile.ts'
import { profileQuery } from '../../api/session.ts'
import { useProfile } from '../../api/useProfile.ts'
import { AppForm } from '../../components/form/AppForm.tsx'
import { TextField } from '../../components/form/TextField.tsx'
import { applyServerErrors } from '../../components/form/serverErrors.ts'
import { formValidator } from '../../components/form/validation.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { ProfileFormCard } from './ProfileFormCard.tsx'

const FIELDS = ['first_name', 'last_name', 'email', 'avatar_message'] as const
type Values = { first_name: string; last_name: string; email: string; avatar_message: string }

/** /profile/change-personal-data — name, e-mail and avatar message (ProfileUpdateBody). */
export function PersonalDataForm() {
  const { t, i18n } = useLingui()
  const profile = useProfile()
  const queryClient = useQueryClient()
  const [formErrors, setFormErrors] = useState<string[]>([])
  const validate = formValidator<Values>(ProfileUpdateBody, () => i18n.locale)
  const form = useForm({
    defaultValues: {
      first_name: profile.first_name,
      last_name: profile.last_name,
      email: profile.email ?? '',
      avatar_message: profile.avatar_message ?? '',
    } as Values,
    validators: { onChange: validate, onSubmit: validate },
    onSubmit: async ({ value }) => {
      setFormErrors([])
      try {
        const updated = await updateProfile(value)
        if (updated && typeof updated === 'object' && 'username' in updated) queryClient.setQueryData(profileQuery.queryKey, updated)
        else await queryClient.invalidateQueries({ queryKey: profileQuery.queryKey })
        toast.success(t`Dados pessoais atualizados.`)
      } catch (error) {
        setFormErrors(applyServerErrors(form, error, FIELDS))
      }
    },
  })
  return (
    <ProfileFormCard title={<Trans>Alterar dados pessoais</Trans>} subtitle={<Trans>Como seu nome aparece para colegas e clientes.</Trans>}>
      <AppForm onSubmit={form.handleSubmit} errors={formErrors}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
          <form.Field name="first_name">{(f) => <TextField field={f} label={t`Nome`} autoComplete="given-name" />}</form.Field>
          <form.Field name="last_name">{(f) => <TextField field={f} label={t`Sobrenome`} autoComplete="family-name" />}</form.Field>
        </Box>
        <form.Field name="email">{(f) => <TextField field={f} label={t`E-mail`} type="email" autoComplete="email" />}</form.Field>
        <form.Field name="avatar_message">
          {(f) => <TextField field={f} label={t`Mensagem do avatar`} helper={t`Uma frase curta exibida junto à sua foto.`} />}
        </form.Field>
        <form.Subscribe selector={(s) => [s.isSubmitting, s.isDirty] as const}>
          {([submitting, dirty]) => (
            <Stack direction="row" justifyContent="flex-end" spacing={1}>
              <Button variant="plain" color="neutral" disabled={!dirty || submitting} onClick={() => form.reset()}>
                <Trans>Descartar</Trans>
              </Button>
              <Button type="submit" loading={submitting} data-testid="personal-submit">
                <Trans>Salvar</Trans>
              </Button>
            </Stack>
          )}
        </form.Subscribe>
      </AppForm>
    </ProfileFormCard>
  )
}
