import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { WallboardPage } from '../../../../features/dashboards/WallboardPage.tsx'

/** Supervisor dashboards (spec 000 §2 /dashboards, §6): the live wallboard of every agent and queue of the site. */
export const Route = createFileRoute('/{-$locale}/_app/dashboards/')({
  staticData: { permission: PERMISSIONS.viewDashboardSupervisor },
  component: WallboardPage,
})
