import Button from '@mui/joy/Button'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { OTHER_TAB_NOTICE, SERVICE_HERE_LABEL } from '../../../machines/tabOwnership.machine.ts'
import { useAgentActor, useAgentSelector, useAgentSystem } from '../../app/agentSystemContext.tsx'
import { TabsIcon } from './icons.tsx'
import { machineText } from './notices.ts'

// One serving tab (spec 000 §4 "Shared service ownership", 001 §4): the tab that does not serve shows the webphone's
// placeholder 'Webphone esta em execução em outra aba ou janela.' with 'Atender aqui'; the tab that lost the service
// says it will reload. The texts are the states' meta in machines/tabOwnership.machine.ts.

type Meta = { notice?: string; action?: string }
type OwnershipView = { state: string; meta: Meta }

function ownershipView(snapshot: { value: unknown; getMeta: () => Record<string, unknown> }): OwnershipView {
  const meta = Object.values(snapshot.getMeta())[0] as Meta | undefined
  return { state: String(snapshot.value), meta: meta ?? {} }
}
const sameView = (a: OwnershipView, b: OwnershipView) => a.state === b.state

export function ServiceOwnershipPanel() {
  return useAgentSystem() ? <OwnershipNotice /> : null
}

function OwnershipNotice() {
  const { i18n } = useLingui()
  const actor = useAgentActor('tabOwnership')
  const { state, meta } = useAgentSelector('tabOwnership', ownershipView, sameView)
  const hereAgain = state === 'reloadingHere'
  if (!meta.notice && !hereAgain) return null
  const takenOver = state === 'takenOver' || state === 'reloading'
  return (
    <Sheet
      variant="soft"
      color={takenOver ? 'warning' : 'neutral'}
      data-testid="service-ownership"
      data-state={state}
      role="status"
      sx={{ width: '100%', mb: 3, px: 3, py: 2.5, borderRadius: 'lg', display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
    >
      <TabsIcon sx={{ fontSize: 32 }} />
      <Typography level="title-md" sx={{ flex: 1, minWidth: 220 }}>
        {machineText(i18n, meta.notice ?? OTHER_TAB_NOTICE)}
      </Typography>
      {(meta.action || hereAgain) && (
        <Button loading={hereAgain} onClick={() => actor.send({ type: 'SERVICE_HERE' })} data-testid="service-here">
          {machineText(i18n, meta.action ?? SERVICE_HERE_LABEL)}
        </Button>
      )}
    </Sheet>
  )
}
