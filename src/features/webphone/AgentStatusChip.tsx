import { useEffect, useState } from 'react'
import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import type { ColorPaletteProp } from '@mui/joy/styles'
import { useSelector } from '@xstate/react'
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { useLingui } from '@lingui/react/macro'
import { formatDuration } from '../../../contract/format/duration.ts'
import type { AgentSystem } from '../../app/agentSystem.ts'
import { useNow } from './useClock.ts'

// Issue 15 item 5: the agent always sees where they stand — one status read at a glance beside the phone button,
// with the time in it, visible with the panel closed: Disponível, Em ligação, Pós-atendimento, Em pausa.

const LABELS: Record<string, MessageDescriptor> = {
  not_inuse: msg`Disponível`,
  ringing: msg`Em ligação`,
  busy: msg`Em ligação`,
  after_service: msg`Pós-atendimento`,
  paused: msg`Em pausa`,
  do_not_disturb: msg`Não perturbe`,
  unavailable: msg`Indisponível`,
}

const COLORS: Record<string, ColorPaletteProp> = {
  not_inuse: 'success',
  ringing: 'primary',
  busy: 'primary',
  after_service: 'warning',
  paused: 'neutral',
  do_not_disturb: 'danger',
  unavailable: 'neutral',
}

type StatusActor = Parameters<typeof useSelector>[0]

const NARROW_HIDDEN = {
  position: { xs: 'absolute', sm: 'static' },
  width: { xs: '1px', sm: 'auto' },
  height: { xs: '1px', sm: 'auto' },
  overflow: { xs: 'hidden', sm: 'visible' },
  clipPath: { xs: 'inset(50%)', sm: 'none' },
  whiteSpace: 'nowrap',
} as const

export function AgentStatusChip({ system }: { system: AgentSystem | null }) {
  if (!system) return null
  return <StatusChip actor={system.get('agentStatus') as unknown as StatusActor} />
}

function StatusChip({ actor }: { actor: StatusActor }) {
  const { i18n } = useLingui()
  const status = useSelector(
    actor,
    (snapshot) => ((snapshot as { context?: { status?: string | null } } | undefined)?.context?.status ?? null) as string | null,
  )
  const [since, setSince] = useState(() => Date.now())
  useEffect(() => setSince(Date.now()), [status])
  const now = useNow(status !== null)
  if (!status || !LABELS[status]) return null
  const seconds = Math.max(0, Math.floor((now - since) / 1000))
  return (
    <Chip
      size="sm"
      variant="soft"
      color={COLORS[status] ?? 'neutral'}
      data-testid="agent-status"
      data-status={status}
      sx={{ fontVariantNumeric: 'tabular-nums' }}
    >
      {/* On a phone the colour and the time say it; the label stays for screen readers. */}
      <Box component="span" sx={NARROW_HIDDEN}>
        {i18n._(LABELS[status])} ·{' '}
      </Box>
      {formatDuration(seconds)}
    </Chip>
  )
}
