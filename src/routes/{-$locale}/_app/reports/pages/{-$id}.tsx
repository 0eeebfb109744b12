import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../../contract/permissions.ts'
import { ReportsPage } from '../../../../../features/reports/ReportsPage.tsx'
import { BuilderPageView } from '../../../../../features/builder/BuilderPageView.tsx'

/** Report pages (spec 000 §2 /reports/pages/:id?, §6 sites.view_reports): the list, the chosen report, or a builder page. */
export const Route = createFileRoute('/{-$locale}/_app/reports/pages/{-$id}')({
  staticData: { permission: PERMISSIONS.viewReports },
  component: function ReportsRoute() {
    const { id } = Route.useParams()
    // A number names a report page of the builder (system/builder/reports/pages); a word one of the built-in reports.
    if (id && /^[1-9]\d{0,8}$/.test(id)) return <BuilderPageView key={id} kind="reports" id={id} />
    return <ReportsPage id={id} />
  },
})
