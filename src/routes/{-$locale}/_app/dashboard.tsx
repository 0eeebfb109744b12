import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { HomeDashboard } from '../../../features/home/HomeDashboard.tsx'

// The logo's link target (spec 000 §2); the home dashboard for now.
export const Route = createFileRoute('/{-$locale}/_app/dashboard')({
  staticData: { permission: PERMISSIONS.viewDashboard },
  component: HomeDashboard,
})
