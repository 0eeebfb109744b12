import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { BuilderPageView } from '../../../../features/builder/BuilderPageView.tsx'

/**
 * A dashboard page of the builder (spec 000 §2 /dashboards/:id, issue 19 item 4). The route admits anyone with the
 * home dashboard; each page then says who may see it (the server answers 403 otherwise).
 */
export const Route = createFileRoute('/{-$locale}/_app/dashboards/$id')({
  staticData: { permission: PERMISSIONS.viewDashboard },
  component: function BuilderDashboardRoute() {
    const { id } = Route.useParams()
    return <BuilderPageView key={id} kind="dashboards" id={id} />
  },
})
