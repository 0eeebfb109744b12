import Stack from '@mui/joy/Stack'
import { ButtonLink } from '../links.tsx'
import { Trans } from '@lingui/react/macro'
import { useLocale } from '../../app/useLocale.ts'
import { EmptyLayout } from '../layout/EmptyLayout.tsx'
import { LockIcon } from '../icons/icons.tsx'
import { ErrorContent, HomeButton } from './ErrorContent.tsx'

/** 401 — a call was refused for lack of authorisation (usually an expired session). */
export function UnauthorizedPage() {
  const { params } = useLocale()
  return (
    <EmptyLayout>
      <ErrorContent
        code="401"
        color="warning"
        icon={<LockIcon />}
        title={<Trans>Não autorizado</Trans>}
        text={<Trans>Sua sessão expirou ou você não está autorizado. Entre novamente para continuar.</Trans>}
        action={
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} justifyContent="center">
            <ButtonLink to="/{-$locale}/login" params={params} size="lg">
              <Trans>Entrar</Trans>
            </ButtonLink>
            <HomeButton variant="outlined" />
          </Stack>
        }
      />
    </EmptyLayout>
  )
}
