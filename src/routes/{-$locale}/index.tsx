import { createFileRoute } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
export const Route = createFileRoute('/{-$locale}/')({ component: () => <p><Trans>Olá</Trans></p> })
