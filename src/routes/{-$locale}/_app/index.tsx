import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { HomeDashboard } from '../../../features/home/HomeDashboard.tsx'

export const Route = createFileRoute('/{-$locale}/_app/')({
  staticData: { permission: PERMISSIONS.viewDashboard },
  component: HomeDashboard,
})
