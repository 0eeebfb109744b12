import { createFileRoute } from '@tanstack/react-router'
import { NoPermissionPage } from '../../../components/errors/NoPermissionPage.tsx'

export const Route = createFileRoute('/{-$locale}/_empty/403')({ staticData: { permission: 'public' }, component: NoPermissionPage })
