import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { MachineVisualizer } from '../../../features/machines/MachineVisualizer.tsx'

/** The machine visualizer; `?machine=` picks the machine shown (the first by default). */
export const Route = createFileRoute('/{-$locale}/_app/machines')({
  staticData: { permission: PERMISSIONS.viewMachines },
  validateSearch: (search: Record<string, unknown>): { machine?: string } => (typeof search.machine === 'string' ? { machine: search.machine } : {}),
  component: MachinesPage,
})

function MachinesPage() {
  const { machine } = Route.useSearch()
  const navigate = Route.useNavigate()
  return <MachineVisualizer selected={machine} onSelect={(name) => void navigate({ search: { machine: name }, replace: true })} />
}
