import { useState } from 'react'
import Button from '@mui/joy/Button'
import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'
import { useForm } from '@tanstack/react-form'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getRouteApi, useRouter } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { LoginBody } from '../../../contract/api/auth.ts'
import { login, preSessionQuery, profileQuery } from '../../api/session.ts'
import { useLocale } from '../../app/useLocale.ts'
import { localeParam } from '../../app/locale.ts'
import { AppForm } from '../../components/form/AppForm.tsx'
import { TextField } from '../../components/form/TextField.tsx'
import { applyServerErrors } from '../../components/form/serverErrors.ts'
import { formValidator } from '../../components/form/validation.ts'
import { LockIcon, PersonIcon } from '../../components/icons/icons.tsx'

const route = getRouteApi('/{-$locale}/_login/login')

/** A same-site path only: never send the user to another origin after sign-in. */
export function safeRedirect(target: string | undefined): string | undefined {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : undefined
}

export function LoginForm() {
  const { t, i18n } = useLingui()
  const { locale } = useLocale()
  const search = route.useSearch()
  const router = useRouter()
  const queryClient = useQueryClient()
  const [formErrors, setFormErrors] = useState<string[]>([])
  // GET /api/pre-session/ once, so the csrftoken cookie exists before the sign-in POST.
  useQuery(preSessionQuery)

  const form = useForm({
    defaultValues: { username: '', password: '' },
    validators: { onChange: formValidator<LoginBody>(LoginBody, () => i18n.locale), onSubmit: formValidator<LoginBody>(LoginBody, () => i18n.locale) },
    onSubmit: async ({ value }) => {
      setFormErrors([])
      try {
        await queryClient.ensureQueryData(preSessionQuery)
        await login({ username: value.username.trim(), password: value.password })
        await queryClient.fetchQuery({ ...profileQuery, staleTime: 0 })
        const target = safeRedirect(search.redirect)
        await (target ? router.navigate({ href: target, replace: true }) : router.navigate({ to: '/{-$locale}', params: { locale: localeParam(locale) }, replace: true }))
      } catch (error) {
        setFormErrors(applyServerErrors(form, error, ['username', 'password']))
      }
    },
  })

  return (
    <>
      <Box sx={{ mb: 2.5 }}>
        <Typography level="h2" sx={{ fontSize: 'xl3' }}>
          <Trans>Entrar</Trans>
        </Typography>
        <Typography level="body-md" textColor="text.secondary" sx={{ mt: 0.5 }}>
          <Trans>Use seu usuário e senha para acessar o console.</Trans>
        </Typography>
      </Box>
      <AppForm onSubmit={form.handleSubmit} errors={formErrors} spacing={2.5}>
        <form.Field name="username">
          {(field) => <TextField field={field} label={t`Usuário`} autoComplete="username" autoFocus size="lg" startDecorator={<PersonIcon />} />}
        </form.Field>
        <form.Field name="password">
          {(field) => <TextField field={field} label={t`Senha`} type="password" autoComplete="current-password" size="lg" startDecorator={<LockIcon />} />}
        </form.Field>
        <form.Subscribe selector={(s) => s.isSubmitting}>
          {(submitting) => (
            <Button type="submit" size="lg" loading={submitting} fullWidth data-testid="login-submit">
              <Trans>Entrar</Trans>
            </Button>
          )}
        </form.Subscribe>
      </AppForm>
    </>
  )
}
