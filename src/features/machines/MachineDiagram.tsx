import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import type { LastEvent } from '../../app/agentSystem.ts'
import { tookTransition } from './machineGraph.ts'
import type { GraphState, GraphTransition } from './machineGraph.ts'

// The state tree as nested boxes: a compound state holds its children (its initial one marked), a parallel state
// its regions side by side, a final state has a double border. Inside each box: what it does on entry, what it
// invokes, and its outgoing transitions as 'EVENT → target'. The live actor's active states are highlighted.

type Props = { state: GraphState; active: ReadonlySet<string>; transitions: readonly GraphTransition[]; lastEvent: LastEvent | null; isInitial?: boolean }

export function StateBox({ state, active, transitions, lastEvent, isInitial = false }: Props) {
  const { t } = useLingui()
  const isActive = active.has(state.path)
  const isRoot = state.path === ''
  const outgoing = transitions.filter((transition) => transition.source === state.path)
  return (
    <Box
      data-state={state.path || '(root)'}
      data-active={isActive ? 'true' : 'false'}
      sx={{
        position: 'relative',
        flex: state.children.length ? '1 1 320px' : '1 1 180px',
        minWidth: 0,
        p: 1.25,
        borderRadius: 'md',
        border: state.kind === 'final' ? '4px double' : '1px solid',
        borderColor: isActive ? 'primary.500' : 'neutral.outlinedBorder',
        boxShadow: isActive && !state.children.length ? '0 0 0 3px var(--joy-palette-primary-200)' : undefined,
        bgcolor: isActive ? (state.children.length ? 'primary.50' : 'primary.100') : 'background.surface',
        transition: 'background-color 200ms, box-shadow 200ms',
      }}
    >
      {!isRoot && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, flexWrap: 'wrap', mb: 0.5 }}>
          {isInitial && (
            <Box component="span" title={t`Estado inicial`} sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'neutral.700', flexShrink: 0 }} />
          )}
          <Typography level="title-sm" fontFamily="code" sx={{ wordBreak: 'break-word' }}>
            {state.key}
          </Typography>
          {state.kind === 'parallel' && <Chip size="sm" variant="outlined">{t`paralelo`}</Chip>}
          {state.kind === 'final' && <Chip size="sm" variant="outlined">{t`final`}</Chip>}
          {isActive && !state.children.length && (
            <Chip size="sm" color="primary" variant="solid" data-testid="active-state">
              {t`atual`}
            </Chip>
          )}
        </Box>
      )}
      {state.invokes.map((invoke) => (
        <Typography key={invoke} level="body-xs" fontFamily="code" textColor="text.secondary">
          invoke {invoke}
        </Typography>
      ))}
      {state.entry.length > 0 && (
        <Typography level="body-xs" fontFamily="code" textColor="text.secondary">
          entry / {state.entry.join(', ')}
        </Typography>
      )}
      {outgoing.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5 }}>
          {outgoing.map((transition, index) => (
            <TransitionLine key={index} transition={transition} last={tookTransition(transition, lastEvent)} />
          ))}
        </Box>
      )}
      {state.children.length > 0 && (
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 1,
            mt: 1,
            ...(state.kind === 'parallel' ? { '& > [data-state]': { borderStyle: 'dashed' } } : {}),
          }}
        >
          {state.children.map((child) => (
            <StateBox key={child.path} state={child} active={active} transitions={transitions} lastEvent={lastEvent} isInitial={state.initial === child.key} />
          ))}
        </Box>
      )}
    </Box>
  )
}

function targetName(path: string): string {
  return path.split('.').pop() || path
}

function TransitionLine({ transition, last }: { transition: GraphTransition; last: boolean }) {
  const target = transition.targets.length ? transition.targets.map(targetName).join(', ') : '⟲'
  return (
    <Typography
      component="li"
      level="body-xs"
      fontFamily="code"
      data-last={last ? 'true' : undefined}
      sx={{ px: 0.5, borderRadius: 'xs', bgcolor: last ? 'warning.softBg' : undefined, wordBreak: 'break-word' }}
    >
      <Box component="span" sx={{ fontWeight: 'lg' }}>
        {transition.label}
      </Box>
      {transition.guard && (
        <Box component="span" sx={{ color: 'text.tertiary' }}>
          {' '}
          [{transition.guard}]
        </Box>
      )}
      {' → '}
      {target}
    </Typography>
  )
}
