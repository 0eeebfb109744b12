import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../../contract/permissions.ts'
import { ReportsPage } from '../../../../../features/reports/ReportsPage.tsx'

/** Report pages (spec 000 §2 /reports/pages/:id?, §6 sites.view_reports): the list, or the chosen report. */
export const Route = createFileRoute('/{-$locale}/_app/reports/pages/{-$id}')({
  staticData: { permission: PERMISSIONS.viewReports },
  component: function ReportsRoute() {
    const { id } = Route.useParams()
    return <ReportsPage id={id} />
  },
})
