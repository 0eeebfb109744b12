import { memo } from 'react'
import Box from '@mui/joy/Box'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { WallboardAgent } from '../../../contract/realtime/wallboard.ts'
import { AgentActions } from './AgentActions.tsx'
import type { WallboardAction } from './AgentActions.tsx'
import { agentState, secondsSince, shortDuration, STATE_LABELS, STATE_TONES } from './wallboardView.ts'

// One agent on the wallboard: a coloured band with the state and the time in it (ticking locally from the feed's
// timestamps; "—" when the feed has none), the name, and one line of detail (pause reason, the call's number, the chats, after-service left).

export const AgentCard = memo(function AgentCard({
  agent,
  now,
  onAction,
}: {
  agent: WallboardAgent
  now: number
  onAction: (action: WallboardAction, agent: WallboardAgent) => void
}) {
  const { i18n } = useLingui()
  const { state, since } = agentState(agent, now)
  const tone = STATE_TONES[state]
  const label = i18n._(STATE_LABELS[state])
  const detail = detailOf(agent, now, i18n)
  return (
    <Sheet
      variant="outlined"
      data-testid="wallboard-agent"
      data-agent={agent.username}
      data-state={state}
      aria-label={`${agent.name}: ${label}`}
      sx={{ borderRadius: 'sm', overflow: 'hidden', display: 'flex', flexDirection: 'column', minWidth: 0 }}
    >
      <Box sx={{ bgcolor: tone.bg, color: tone.fg, px: 1, py: 0.25, display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography level="body-sm" fontWeight="lg" sx={{ color: 'inherit', flex: 1, minWidth: 0 }} noWrap data-testid="wallboard-agent-state">
          {label}
        </Typography>
        <Typography
          level="body-sm"
          fontWeight="lg"
          sx={{ color: 'inherit', fontVariantNumeric: 'tabular-nums' }}
          data-testid="wallboard-agent-time"
          // No timestamp for the state (the server never saw this agent's status change): "—", as the queue tiles show
          // a missing time, with the reason on hover rather than a blank band or a made-up 0:00.
          title={since ? undefined : i18n._(msg`Sem mudança de estado registrada`)}
        >
          {since ? shortDuration(secondsSince(since, now)) : '—'}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, pl: 1, pr: 0.25, pt: 0.25 }}>
        <Typography level="title-sm" noWrap sx={{ flex: 1, minWidth: 0 }} title={agent.name}>
          {agent.name}
        </Typography>
        <AgentActions agent={agent} onAction={onAction} />
      </Box>
      <Typography
        level="body-xs"
        textColor="text.secondary"
        noWrap
        sx={{ px: 1, pb: 0.5, minHeight: '1.5em' }}
        title={detail}
        data-testid="wallboard-agent-detail"
      >
        {detail}
      </Typography>
    </Sheet>
  )
})

// The macro translates only in the component's own scope, so the messages here are descriptors (msg) read by i18n.
function detailOf(agent: WallboardAgent, now: number, i18n: ReturnType<typeof useLingui>['i18n']): string {
  const parts: string[] = []
  const description = agent.pause?.description ?? ''
  if (agent.pause) parts.push(agent.pause.pending ? i18n._(msg`Pausa pendente: ${description}`) : description)
  if (agent.call) {
    const arrow = agent.call.direction === 'outbound' ? '↗' : agent.call.direction === 'inbound' ? '↘' : '↔'
    parts.push(`${arrow} ${agent.call.number}`)
  }
  if (agent.after_service?.ends_at) {
    const left = shortDuration(Math.max(0, (Date.parse(agent.after_service.ends_at) - now) / 1000))
    parts.push(i18n._(msg`termina em ${left}`))
  }
  const chats = agent.chats
  if (chats > 0) parts.push(chats === 1 ? i18n._(msg`1 chat`) : i18n._(msg`${chats} chats`))
  if (!parts.length) parts.push(agent.team_name || agent.username)
  return parts.join(' · ')
}
