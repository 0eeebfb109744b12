import { Trans } from '@lingui/react/macro'
import { EmptyLayout } from '../layout/EmptyLayout.tsx'
import { ShieldIcon } from '../icons/icons.tsx'
import { ErrorContent } from './ErrorContent.tsx'

/** 403 — the no-permission page (spec 000 §2). */
export function NoPermissionPage() {
  return (
    <EmptyLayout>
      <ErrorContent
        code="403"
        color="warning"
        icon={<ShieldIcon />}
        title={<Trans>Sem permissão</Trans>}
        text={<Trans>Você não tem permissão para acessar esta página</Trans>}
      />
    </EmptyLayout>
  )
}
