import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { PhoneCallsPage } from '../../../features/phonecalls/PhoneCallsPage.tsx'

/** The calls page (spec 000 §2 /phonecalls): the agent's calls, a supervisor's whole site. */
export const Route = createFileRoute('/{-$locale}/_app/phonecalls')({
  staticData: { permission: PERMISSIONS.viewSoftphone },
  component: PhoneCallsPage,
})
