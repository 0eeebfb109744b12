import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { ActivitiesPage } from '../../../features/activities/ActivitiesPage.tsx'

/** The activities page (spec 000 §2 /activities): the agent's scheduled calls; a supervisor schedules new ones. */
export const Route = createFileRoute('/{-$locale}/_app/activities')({
  staticData: { permission: PERMISSIONS.viewActivities },
  component: ActivitiesPage,
})
