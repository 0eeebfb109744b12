import { Trans } from '@lingui/react/macro'
import { EmptyLayout } from '../layout/EmptyLayout.tsx'
import { SearchOffIcon } from '../icons/icons.tsx'
import { ErrorContent } from './ErrorContent.tsx'

/** 404. The title is the spec's fixed English sentence in every language; the way home is translated. */
export function NotFoundPage() {
  return (
    <EmptyLayout>
      <ErrorContent
        code="404"
        icon={<SearchOffIcon />}
        title="This page could not be found"
        text={<Trans>O endereço pode ter sido digitado errado ou a página foi removida.</Trans>}
      />
    </EmptyLayout>
  )
}
