import { useEffect, useRef } from 'react'
import CircularProgress from '@mui/joy/CircularProgress'
import Typography from '@mui/joy/Typography'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { logout } from '../../api/session.ts'
import { useLocale } from '../../app/useLocale.ts'
import { EmptyLayout } from '../../components/layout/EmptyLayout.tsx'

const route = getRouteApi('/{-$locale}/_empty/logout')

/** /logout: ends the session, forgets every cached answer, then shows the sign-in page. */
export function LogoutPage() {
  const { queries } = route.useRouteContext()
  const navigate = useNavigate()
  const { params } = useLocale()
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    logout()
      .catch((error) => console.warn('logout', error))
      .finally(() => {
        queries.current()?.clear()
        void navigate({ to: '/{-$locale}/login', params, replace: true })
      })
  }, [queries, navigate, params])
  return (
    <EmptyLayout>
      <CircularProgress />
      <Typography level="body-md" sx={{ mt: 2 }}>
        <Trans>Saindo…</Trans>
      </Typography>
    </EmptyLayout>
  )
}
