import { useEffect, useRef, useState } from 'react'
import Button from '@mui/joy/Button'
import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'
import { getRouteApi, useRouter } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { login, preSession, profileQuery } from '../../api/session.ts'
import { useLocale } from '../../app/useLocale.ts'
import { localeParam } from '../../app/locale.ts'
import { AppForm } from '../../components/form/AppForm.tsx'
import { TextField } from '../../components/form/TextField.tsx'
import { sortServerErrors } from '../../components/form/serverErrors.ts'
import { useSchemaForm } from '../../components/form/useSchemaForm.ts'
import { LockIcon, PersonIcon } from '../../components/icons/formIcons.tsx'

const route = getRouteApi('/{-$locale}/_login/login')
const FIELDS = ['username', 'password'] as const

/** A same-site path only: never send the user to another origin after sign-in. */
export function safeRedirect(target: string | undefined): string | undefined {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : undefined
}

export function LoginForm() {
  const { t } = useLingui()
  const { locale } = useLocale()
  const search = route.useSearch()
  const { queries } = route.useRouteContext()
  const router = useRouter()
  const [formErrors, setFormErrors] = useState<string[]>([])
  // GET /api/pre-session/ once per visit, so the csrftoken cookie exists before the sign-in POST (asked again on
  // submit if it failed). Plain fetch: TanStack Query loads only once the user signs in (QUALITY.md budget).
  const preSessionDone = useRef<Promise<unknown> | null>(null)
  const ensurePreSession = () =>
    (preSessionDone.current ??= preSession().catch((error: unknown) => {
      preSessionDone.current = null
      throw error
    }))
  useEffect(() => {
    ensurePreSession().catch((error: unknown) => console.warn('pre-session', error))
  }, [])

  // Not TanStack Form: the sign-in page stays light (QUALITY.md budget); the small schema form behaves the same.
  const form = useSchemaForm({
    loadSchema: () => import('../../../contract/api/auth.ts').then((m) => m.LoginBody),
    defaultValues: { username: '', password: '' },
    onSubmit: async (value) => {
      setFormErrors([])
      try {
        await ensurePreSession()
        await login({ username: value.username.trim(), password: value.password })
        // The query cache (and its chunk) starts here: the signed-in pages read the profile from it.
        const queryClient = await queries.load()
        await queryClient.fetchQuery({ ...profileQuery, staleTime: 0 })
        const target = safeRedirect(search.redirect)
        await (target
          ? router.navigate({ href: target, replace: true })
          : router.navigate({ to: '/{-$locale}', params: { locale: localeParam(locale) }, replace: true }))
      } catch (error) {
        const sorted = sortServerErrors(error, FIELDS)
        form.setFieldErrors(sorted.fields)
        setFormErrors(sorted.form)
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
        <TextField field={form.field('username')} label={t`Usuário`} autoComplete="username" autoFocus size="lg" startDecorator={<PersonIcon />} />
        <TextField field={form.field('password')} label={t`Senha`} type="password" autoComplete="current-password" size="lg" startDecorator={<LockIcon />} />
        <Button type="submit" size="lg" loading={form.isSubmitting} fullWidth data-testid="login-submit">
          <Trans>Entrar</Trans>
        </Button>
      </AppForm>
    </>
  )
}
