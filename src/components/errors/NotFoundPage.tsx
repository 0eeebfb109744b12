import { Trans } from '@lingui/react/macro'
import { EmptyLayout } from '../layout/EmptyLayout.tsx'
import { SearchOffIcon } from '../icons/icons.tsx'
import { ErrorContent } from './ErrorContent.tsx'

/** 404: the spec's sentence ('This page could not be found', en-US) in the page's language, and the way home. */
export function NotFoundPage() {
  return (
    <EmptyLayout>
      <ErrorContent
        code="404"
        icon={<SearchOffIcon />}
        title={<Trans>Esta página não foi encontrada</Trans>}
        text={<Trans>O endereço pode ter sido digitado errado ou a página foi removida.</Trans>}
      />
    </EmptyLayout>
  )
}
