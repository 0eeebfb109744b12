import { createFileRoute, notFound } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../../contract/permissions.ts'
import { LeadShowPage } from '../../../../../features/crm/LeadShowPage.tsx'

// /leads/{id}/show (spec 000 §2): a lead with its calls; the generic list and form stay at /leads/$.
export const Route = createFileRoute('/{-$locale}/_app/leads/$id/show')({
  staticData: { permission: PERMISSIONS.viewMailingClient },
  beforeLoad: ({ params }) => {
    if (!/^\d{1,10}$/.test(params.id)) throw notFound()
  },
  component: function LeadShow() {
    const { id } = Route.useParams()
    return <LeadShowPage id={Number(id)} />
  },
})
