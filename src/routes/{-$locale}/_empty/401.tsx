import { createFileRoute } from '@tanstack/react-router'
import { UnauthorizedPage } from '../../../components/errors/UnauthorizedPage.tsx'

export const Route = createFileRoute('/{-$locale}/_empty/401')({ staticData: { permission: 'public' }, component: UnauthorizedPage })
