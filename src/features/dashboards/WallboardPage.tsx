import { useEffect, useMemo, useState } from 'react'
import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { useNow } from '../webphone/useClock.ts'
import { AgentCard } from './AgentCard.tsx'
import { useAgentActing } from './useAgentActing.tsx'
import { QueueTiles } from './QueueTiles.tsx'
import { useWallboard } from './wallboardStore.ts'
import { agentState, STATE_LABELS, STATE_ORDER, STATE_TONES } from './wallboardView.ts'
import type { AgentState } from './wallboardView.ts'

// /dashboards (spec 000 §2, §6 sites.view_dashboard_supervisor; issue 19 item 1): the live wallboard. The wallboard
// actor subscribes while this page is shown (WATCH / UNWATCH) and the store holds what the feed sent; times tick here
// from the feed's timestamps, so nothing is polled. Agents are ordered by state (available first, offline last), then
// by name, and filtered by team, queue, state and name.

export function WallboardPage() {
  const { t, i18n } = useLingui()
  const system = useAgentSystem()
  useEffect(() => {
    const actor = system?.get('wallboard')
    actor?.send({ type: 'WATCH' })
    return () => actor?.send({ type: 'UNWATCH' })
  }, [system])
  const data = useWallboard()
  const now = useNow()
  const [team, setTeam] = useState<string>('all')
  const [queue, setQueue] = useState<string>('all')
  const [state, setState] = useState<AgentState | 'all'>('all')
  const [search, setSearch] = useState('')

  const agents = useMemo(() => [...data.agents.values()], [data.agents])
  const queues = useMemo(() => [...data.queues.values()], [data.queues])
  const teams = useMemo(() => {
    const seen = new Map<number, string>()
    for (const agent of agents) if (agent.team !== null) seen.set(agent.team, agent.team_name)
    return [...seen].sort((a, b) => a[1].localeCompare(b[1]))
  }, [agents])

  const withState = agents.map((agent) => ({ agent, state: agentState(agent, now).state }))
  const counts = new Map<AgentState, number>()
  for (const { state: s } of withState) counts.set(s, (counts.get(s) ?? 0) + 1)
  const needle = search.trim().toLowerCase()
  const shown = withState
    .filter(({ agent, state: s }) => {
      if (team !== 'all' && String(agent.team) !== team) return false
      if (queue !== 'all' && !agent.queues.includes(queue)) return false
      if (state !== 'all' && s !== state) return false
      return !needle || agent.name.toLowerCase().includes(needle) || agent.username.toLowerCase().includes(needle)
    })
    .sort((a, b) => STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state) || a.agent.name.localeCompare(b.agent.name))
  const { onAction, bar, dialog } = useAgentActing()

  return (
    <>
      <PageHeader title={t`Painel de supervisão`} subtitle={t`Agentes e filas ao vivo.`} />
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="wallboard" data-stale={data.stale ? 'true' : 'false'}>
        {data.stale && (
          <Chip color="warning" variant="soft" data-testid="wallboard-stale" sx={{ alignSelf: 'flex-start' }}>
            {data.empty ? t`Conectando…` : t`Reconectando… os dados podem estar desatualizados.`}
          </Chip>
        )}
        {bar}
        <QueueTiles queues={queues} callers={data.callers} now={now} />
        <Box role="group" aria-label={t`Resumo por estado`} sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
          {STATE_ORDER.filter((s) => counts.get(s)).map((s) => (
            <Chip
              key={s}
              size="sm"
              variant={state === s ? 'solid' : 'soft'}
              onClick={() => setState(state === s ? 'all' : s)}
              slotProps={{ action: { 'aria-pressed': state === s } }}
              sx={{ bgcolor: state === s ? STATE_TONES[s].bg : undefined, color: state === s ? STATE_TONES[s].fg : undefined }}
              startDecorator={<Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: STATE_TONES[s].bg, border: '1px solid rgba(0,0,0,.2)' }} />}
            >
              {i18n._(STATE_LABELS[s])}: {counts.get(s)}
            </Chip>
          ))}
        </Box>
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 220px))' } }}>
          <FormControl size="sm">
            <FormLabel id="wallboard-team-label">{t`Equipe`}</FormLabel>
            <Select value={team} onChange={(_, value) => setTeam(value ?? 'all')} slotProps={{ button: { 'aria-labelledby': 'wallboard-team-label' } }}>
              <Option value="all">{t`Todas`}</Option>
              {teams.map(([id, name]) => (
                <Option key={id} value={String(id)}>
                  {name}
                </Option>
              ))}
            </Select>
          </FormControl>
          <FormControl size="sm">
            <FormLabel id="wallboard-queue-label">{t`Fila`}</FormLabel>
            <Select value={queue} onChange={(_, value) => setQueue(value ?? 'all')} slotProps={{ button: { 'aria-labelledby': 'wallboard-queue-label' } }}>
              <Option value="all">{t`Todas`}</Option>
              {queues.map((q) => (
                <Option key={q.key} value={q.key}>
                  {q.name} ({q.kind === 'calls' ? t`ligações` : t`chats`})
                </Option>
              ))}
            </Select>
          </FormControl>
          <FormControl size="sm">
            <FormLabel id="wallboard-state-label">{t`Estado`}</FormLabel>
            <Select value={state} onChange={(_, value) => setState(value ?? 'all')} slotProps={{ button: { 'aria-labelledby': 'wallboard-state-label' } }}>
              <Option value="all">{t`Todos`}</Option>
              {STATE_ORDER.map((s) => (
                <Option key={s} value={s}>
                  {i18n._(STATE_LABELS[s])}
                </Option>
              ))}
            </Select>
          </FormControl>
          <FormControl size="sm">
            <FormLabel htmlFor="wallboard-search">{t`Agente`}</FormLabel>
            <Input id="wallboard-search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t`Buscar por nome`} />
          </FormControl>
        </Box>
        <Typography level="body-sm" textColor="text.secondary" aria-live="polite">
          {t`${shown.length} de ${agents.length} agentes`}
        </Typography>
        <Box
          component="section"
          aria-label={t`Agentes`}
          data-testid="wallboard-agents"
          sx={{ display: 'grid', gap: 0.75, gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))' }}
        >
          {shown.map(({ agent }) => (
            <AgentCard key={agent.id} agent={agent} now={now} onAction={onAction} />
          ))}
        </Box>
      </Box>
      {dialog}
    </>
  )
}
