import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { OperationPage } from '../../../features/operation/OperationPage.tsx'

/** The agent's day (spec 000 §2 /operation, dashboard page id 2): the menu's Operation section opens it. */
export const Route = createFileRoute('/{-$locale}/_app/operation')({
  staticData: { permission: PERMISSIONS.viewDashboard },
  component: OperationPage,
})
