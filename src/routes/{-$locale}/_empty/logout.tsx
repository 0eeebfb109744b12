import { createFileRoute } from '@tanstack/react-router'
import { LogoutPage } from '../../../features/session/LogoutPage.tsx'

export const Route = createFileRoute('/{-$locale}/_empty/logout')({ staticData: { permission: 'public' }, component: LogoutPage })
