import { createFileRoute } from '@tanstack/react-router'
import { ServerErrorPage } from '../../../components/errors/ServerErrorPage.tsx'

export const Route = createFileRoute('/{-$locale}/_empty/500')({ staticData: { permission: 'public' }, component: () => <ServerErrorPage /> })
