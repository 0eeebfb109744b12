import Sheet from '@mui/joy/Sheet'
import Table from '@mui/joy/Table'
import { Trans } from '@lingui/react/macro'
import type { LastEvent } from '../../app/agentSystem.ts'
import { tookTransition } from './machineGraph.ts'
import type { GraphTransition } from './machineGraph.ts'

/**
 * Every transition of the machine in one table: the state that handles it, the event (delays and request answers
 * spelled out), the condition, the target and the actions. Rows of active states are bold; the transitions the
 * last event took are marked.
 */
export function TransitionTable({
  transitions,
  active,
  lastEvent,
}: {
  transitions: readonly GraphTransition[]
  active: ReadonlySet<string>
  lastEvent: LastEvent | null
}) {
  return (
    <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'auto', maxHeight: 640 }}>
      <Table
        size="sm"
        stickyHeader
        hoverRow
        data-testid="transition-table"
        sx={{ '& td, & th': { fontFamily: 'code', fontSize: 'xs', verticalAlign: 'top', whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
      >
        <thead>
          <tr>
            <th style={{ width: '24%' }}>
              <Trans>De</Trans>
            </th>
            <th style={{ width: '24%' }}>
              <Trans>Evento</Trans>
            </th>
            <th style={{ width: '16%' }}>
              <Trans>Condição</Trans>
            </th>
            <th style={{ width: '16%' }}>
              <Trans>Para</Trans>
            </th>
            <th>
              <Trans>Ações</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {transitions.map((transition, index) => {
            const live = active.has(transition.source)
            const last = tookTransition(transition, lastEvent)
            return (
              <tr
                key={index}
                data-live={live ? 'true' : undefined}
                data-last={last ? 'true' : undefined}
                style={{ fontWeight: live ? 600 : undefined, background: last ? 'var(--joy-palette-warning-softBg)' : undefined }}
              >
                <td>{transition.source || '(root)'}</td>
                <td>{transition.label}</td>
                <td>{transition.guard ?? ''}</td>
                <td>{transition.targets.join(', ') || (transition.reenter ? '⟲' : '—')}</td>
                <td>{transition.actions.join(', ')}</td>
              </tr>
            )
          })}
        </tbody>
      </Table>
    </Sheet>
  )
}
