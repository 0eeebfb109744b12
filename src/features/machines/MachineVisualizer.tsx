import { useMemo } from 'react'
import Box from '@mui/joy/Box'
import Card from '@mui/joy/Card'
import Chip from '@mui/joy/Chip'
import Tab from '@mui/joy/Tab'
import TabList from '@mui/joy/TabList'
import Tabs from '@mui/joy/Tabs'
import Typography from '@mui/joy/Typography'
import { useSelector } from '@xstate/react'
import type { AnyActorRef, StateValue } from 'xstate'
import { Trans, useLingui } from '@lingui/react/macro'
import { localize } from '../../../contract/codes/localize.ts'
import { MACHINES } from '../../../machines/index.ts'
import type { MachineEntry } from '../../../machines/index.ts'
import { AGENT_ACTOR_NAMES } from '../../app/agentSystem.ts'
import type { AgentActorName, LastEvent } from '../../app/agentSystem.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useStore } from '../../app/store.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { MACHINE_DESCRIPTIONS } from './descriptions.ts'
import { StateBox } from './MachineDiagram.tsx'
import { activePaths, machineGraph } from './machineGraph.ts'
import type { MachineGraph } from './machineGraph.ts'
import { TransitionTable } from './TransitionTable.tsx'

// The machine visualizer (ARCHITECTURE.md): every machine of machines/index.ts drawn from its definition, with the
// signed-in user's live actor of that machine (from the agent system) highlighting its current state and last event.

type Props = { selected: string | undefined; onSelect: (name: string) => void }

export function MachineVisualizer({ selected, onSelect }: Props) {
  const { t } = useLingui()
  const entry = MACHINES.find((machine) => machine.name === selected) ?? MACHINES[0]!
  return (
    <>
      <PageHeader
        title={<Trans>Máquinas de estado</Trans>}
        subtitle={
          <Trans>Os estados e transições que o console executa, lidos da definição de cada máquina. O estado atual do seu ator aparece em destaque.</Trans>
        }
      />
      <Tabs value={entry.name} onChange={(_, value) => typeof value === 'string' && onSelect(value)} sx={{ bgcolor: 'transparent', mb: 2 }}>
        <TabList aria-label={t`Máquinas`} sx={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
          {MACHINES.map((machine) => (
            <Tab key={machine.name} value={machine.name} data-testid={`machine-tab-${machine.name}`} sx={{ fontFamily: 'code', flexShrink: 0 }}>
              {machine.name}
            </Tab>
          ))}
        </TabList>
      </Tabs>
      <MachineView key={entry.name} entry={entry} />
    </>
  )
}

function isAgentActor(name: string): name is AgentActorName {
  return (AGENT_ACTOR_NAMES as readonly string[]).includes(name)
}

/** One machine: the live actor's state when the agent system runs one, else the definition alone. */
export function MachineView({ entry }: { entry: MachineEntry }) {
  const system = useAgentSystem()
  const graph = useMemo(() => machineGraph(entry.machine), [entry.machine])
  if (system && isAgentActor(entry.name)) {
    return <LiveMachine entry={entry} graph={graph} actor={system.get(entry.name)} lastEvents={system.lastEvents} name={entry.name} />
  }
  return <MachineLayout entry={entry} graph={graph} value={null} context={undefined} lastEvent={undefined} />
}

type LiveProps = {
  entry: MachineEntry
  graph: MachineGraph
  actor: AnyActorRef
  name: AgentActorName
  lastEvents: NonNullable<ReturnType<typeof useAgentSystem>>['lastEvents']
}

function LiveMachine({ entry, graph, actor, name, lastEvents }: LiveProps) {
  const value = useSelector(actor, (snapshot) => snapshot.value as StateValue)
  const context = useSelector(actor, (snapshot) => snapshot.context as unknown)
  const lastEvent = useStore(lastEvents)[name]
  return <MachineLayout entry={entry} graph={graph} value={value} context={context} lastEvent={lastEvent} />
}

type LayoutProps = { entry: MachineEntry; graph: MachineGraph; value: StateValue | null; context: unknown; lastEvent: LastEvent | undefined }

function MachineLayout({ entry, graph, value, context, lastEvent }: LayoutProps) {
  const { i18n } = useLingui()
  const description = MACHINE_DESCRIPTIONS[entry.name]
  const active = useMemo(() => new Set(value === null ? [] : activePaths(value)), [value])
  const current = value === null ? null : [...active].filter((path) => path && !graph.states.find((s) => s.path === path)?.children.length).join(' · ')
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="machine-view" data-machine={entry.name}>
      <Card variant="outlined" sx={{ gap: 1 }}>
        <Typography level="title-lg" fontFamily="code">
          {entry.name}
        </Typography>
        <Typography level="body-md" data-testid="machine-description">
          {description ? localize(description, i18n.locale) : entry.description}
        </Typography>
        <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
          {entry.spec.map((section) => (
            <Chip key={section} size="sm" variant="soft">
              {section}
            </Chip>
          ))}
        </Box>
        <LiveSummary current={current} lastEvent={lastEvent} />
      </Card>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 7fr) minmax(0, 5fr)' }, gap: 2, alignItems: 'start' }}>
        <StateBox state={graph.root} active={active} transitions={graph.transitions} lastEvent={lastEvent ?? null} />
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          <TransitionTable transitions={graph.transitions} active={active} lastEvent={lastEvent ?? null} />
          {context !== undefined && (
            <Card variant="soft" size="sm">
              <Typography level="title-sm">
                <Trans>Contexto do ator</Trans>
              </Typography>
              <Box
                component="pre"
                data-testid="machine-context"
                sx={{ m: 0, fontSize: 'xs', fontFamily: 'code', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
              >
                {JSON.stringify(context, null, 2)}
              </Box>
            </Card>
          )}
        </Box>
      </Box>
    </Box>
  )
}

function LiveSummary({ current, lastEvent }: { current: string | null; lastEvent: LastEvent | undefined }) {
  if (current === null) {
    return (
      <Typography level="body-sm" textColor="text.tertiary">
        <Trans>Nenhum ator desta máquina está em execução para você.</Trans>
      </Typography>
    )
  }
  const eventType = lastEvent?.type ?? '—'
  const count = lastEvent?.count ?? 0
  return (
    <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap' }}>
      <Typography level="body-sm">
        <Trans>Estado atual:</Trans>{' '}
        <Typography fontFamily="code" fontWeight="lg" color="primary" data-testid="machine-current">
          {current}
        </Typography>
      </Typography>
      <Typography level="body-sm">
        <Trans>Último evento:</Trans>{' '}
        <Typography fontFamily="code" fontWeight="lg" data-testid="machine-last-event">
          {eventType}
        </Typography>{' '}
        <Typography textColor="text.tertiary">
          <Trans>({count} eventos)</Trans>
        </Typography>
      </Typography>
    </Box>
  )
}
