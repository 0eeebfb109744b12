import { Trans } from '@lingui/react/macro'
import { EmptyLayout } from '../layout/EmptyLayout.tsx'
import { ErrorIcon } from '../icons/icons.tsx'
import { ErrorContent } from './ErrorContent.tsx'

/** 500 — anything else went wrong. */
export function ServerErrorPage({ detail }: { detail?: string }) {
  return (
    <EmptyLayout>
      <ErrorContent
        code="500"
        color="danger"
        icon={<ErrorIcon />}
        title={<Trans>Ocorreu um erro inesperado</Trans>}
        text={detail ?? <Trans>Tente novamente em instantes. Se o problema continuar, fale com o administrador.</Trans>}
      />
    </EmptyLayout>
  )
}
