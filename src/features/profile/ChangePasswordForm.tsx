import { useState } from 'react'
import Button from '@mui/joy/Button'
import Stack from '@mui/joy/Stack'
import { useForm } from '@tanstack/react-form'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { passwordProblems } from '../../../contract/api/password.ts'
import { ChangePasswordBody } from '../../../contract/api/profile.ts'
import { changePassword } from '../../api/profile.ts'
import { profileQuery } from '../../api/session.ts'
import { useProfile } from '../../api/useProfile.ts'
import { useLocale } from '../../app/useLocale.ts'
import { AppForm } from '../../components/form/AppForm.tsx'
import { TextField } from '../../components/form/TextField.tsx'
import { applyServerErrors } from '../../components/form/serverErrors.ts'
import { formValidator } from '../../components/form/validation.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { ProfileFormCard } from './ProfileFormCard.tsx'

const FIELDS = ['old_password', 'new_password1', 'new_password2'] as const

/** /profile/change-password — current, new and confirmation; the policy is the contract's, checked before sending. */
export function ChangePasswordForm() {
  const { t, i18n } = useLingui()
  const profile = useProfile()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const { params } = useLocale()
  const [formErrors, setFormErrors] = useState<string[]>([])
  const policy = (value: ChangePasswordBody, lang: string): Record<string, string> => {
    const problems = value.new_password1 ? passwordProblems(value.new_password1, { username: profile.username, lang }) : []
    return problems.length ? { new_password1: problems.join(' ') } : {}
  }
  const validate = formValidator<ChangePasswordBody>(ChangePasswordBody, () => i18n.locale, policy)
  const form = useForm({
    defaultValues: { old_password: '', new_password1: '', new_password2: '' },
    validators: { onChange: validate, onSubmit: validate },
    onSubmit: async ({ value }) => {
      setFormErrors([])
      try {
        await changePassword(value)
        toast.success(t`Senha alterada com sucesso.`)
        await queryClient.invalidateQueries({ queryKey: profileQuery.queryKey })
        form.reset()
        void navigate({ to: '/{-$locale}/profile', params })
      } catch (error) {
        setFormErrors(applyServerErrors(form, error, FIELDS))
      }
    },
  })
  return (
    <ProfileFormCard title={<Trans>Alterar senha</Trans>} subtitle={<Trans>A nova senha deve ter pelo menos 8 caracteres, com letras e números.</Trans>}>
      <AppForm onSubmit={form.handleSubmit} errors={formErrors}>
        <form.Field name="old_password">{(f) => <TextField field={f} label={t`Senha atual`} type="password" autoComplete="current-password" />}</form.Field>
        <form.Field name="new_password1">{(f) => <TextField field={f} label={t`Nova senha`} type="password" autoComplete="new-password" />}</form.Field>
        <form.Field name="new_password2">
          {(f) => <TextField field={f} label={t`Confirme a nova senha`} type="password" autoComplete="new-password" />}
        </form.Field>
        <form.Subscribe selector={(s) => s.isSubmitting}>
          {(submitting) => (
            <Stack direction="row" justifyContent="flex-end">
              <Button type="submit" loading={submitting} data-testid="password-submit">
                <Trans>Salvar nova senha</Trans>
              </Button>
            </Stack>
          )}
        </form.Subscribe>
      </AppForm>
    </ProfileFormCard>
  )
}
