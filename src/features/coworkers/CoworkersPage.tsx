import { useEffect, useMemo, useState } from 'react'
import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import type { ColorPaletteProp } from '@mui/joy/styles'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import Sheet from '@mui/joy/Sheet'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import type { Coworker, CoworkerListResponse } from '../../../contract/api/coworkers.ts'
import { COWORKER_PATHS } from '../../../contract/api/coworkers.ts'
import { ENDPOINT_STATUS_LABELS } from '../../../contract/codes/states.ts'
import type { EndpointStatus } from '../../../contract/codes/states.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { api } from '../../api/client.ts'
import { useProfile } from '../../api/useProfile.ts'
import { useAgentSelector, useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useLocale } from '../../app/useLocale.ts'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { useText } from '../../entities/text.ts'
import { coworkerPresence } from './coworkerPresence.ts'

// /coworkers (spec 000 §2; issue 17 item 4): the directory of the site's users — name, extension, the status each
// reported on the service socket (telephony and chat), live: the page subscribes on the service socket
// (coworkers_subscribe) and patches its list with every agentStatus frame; it subscribes again after a reconnect and
// reloads the list then (changes missed while down). A click on the phone dials the colleague's extension and opens
// /phonecalls. Internal chat between users does not exist in the product yet, so there is no chat button.

const QUERY_KEY = ['crm', 'coworkers'] as const

const TONE: Partial<Record<EndpointStatus, ColorPaletteProp>> = {
  not_inuse: 'success',
  ringing: 'warning',
  inuse: 'primary',
  busy: 'primary',
  onhold: 'primary',
  onmute: 'primary',
  inconference: 'primary',
  ringinuse: 'primary',
  click_to_call: 'primary',
  in_activity: 'primary',
  after_service: 'warning',
  paused: 'neutral',
  do_not_disturb: 'danger',
}

/** One status as a chip; no status (never signed in to that channel) reads 'Indisponível'. */
function StatusChip({ status, testId }: { status: EndpointStatus | null; testId: string }) {
  const text = useText()
  const shown = status ?? 'unavailable'
  return (
    <Chip size="sm" variant="soft" color={TONE[shown] ?? 'neutral'} data-testid={testId} data-status={shown}>
      {text(ENDPOINT_STATUS_LABELS[shown])}
    </Chip>
  )
}

export function CoworkersPage() {
  const { t } = useLingui()
  const profile = useProfile()
  const system = useAgentSystem()
  const navigate = useNavigate()
  const { params } = useLocale()
  const queryClient = useQueryClient()
  const [search, setSearch] = useState('')
  const list = useQuery({ queryKey: QUERY_KEY, queryFn: () => api.get<CoworkerListResponse>(COWORKER_PATHS.list) })
  const connected = useAgentSelector('serviceSocket', (snapshot) => snapshot.matches({ connection: { socket: 'connected' } }))

  // Subscribe while shown and the socket is up; a reconnect subscribes again and reloads what may have been missed.
  useEffect(() => {
    if (!connected || !system) return
    const socket = system.get('serviceSocket')
    socket.send({ type: 'SEND', message: { action: 'coworkers_subscribe' } })
    void queryClient.invalidateQueries({ queryKey: QUERY_KEY })
    return () => socket.send({ type: 'SEND', message: { action: 'coworkers_unsubscribe' } })
  }, [connected, system, queryClient])

  useEffect(
    () =>
      coworkerPresence.listen((change) => {
        queryClient.setQueryData<CoworkerListResponse>(QUERY_KEY, (data) => {
          if (!data) return data
          const results = data.results.map((row): Coworker => {
            if (row.user !== change.user) return row
            return change.channel === 'telephony'
              ? { ...row, telephony_status: change.status, telephony_changed_at: change.changed_at }
              : { ...row, chat_status: change.status, chat_changed_at: change.changed_at }
          })
          return { ...data, results }
        })
      }),
    [queryClient],
  )

  const canCall = has(profile.roles, PERMISSIONS.viewSoftphone)
  const term = search.trim().toLowerCase()
  const rows = useMemo(
    () =>
      (list.data?.results ?? []).filter(
        (row) => !term || row.name.toLowerCase().includes(term) || row.username.toLowerCase().includes(term) || (row.extension ?? '').includes(term),
      ),
    [list.data, term],
  )

  const call = (extension: string) => {
    system?.get('webphone').send({ type: 'DIAL', number: extension })
    void navigate({ to: '/{-$locale}/phonecalls', params })
  }

  return (
    <Box>
      <PageHeader
        title={t`Colegas`}
        subtitle={t`Quem está disponível agora, o ramal de cada um e uma chamada a um clique.`}
        actions={
          <Input
            size="sm"
            placeholder={t`Buscar por nome ou ramal`}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            slotProps={{ input: { 'aria-label': t`Buscar por nome ou ramal` } }}
            sx={{ minWidth: 260 }}
          />
        }
      />
      <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'auto' }}>
        <Table stickyHeader hoverRow aria-label={t`Colegas`} sx={{ '& td, & th': { verticalAlign: 'middle' } }}>
          <thead>
            <tr>
              <th>{t`Nome`}</th>
              <th style={{ width: 120 }}>{t`Ramal`}</th>
              <th style={{ width: 190 }}>{t`Telefonia`}</th>
              <th style={{ width: 190 }}>{t`Chat`}</th>
              <th style={{ width: 80 }} aria-label={t`Ações`} />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.user} data-testid={`coworker-${row.username}`}>
                <td>
                  <Typography level="title-sm">{row.name}</Typography>
                  <Typography level="body-xs" textColor="text.tertiary">
                    {row.username}
                    {row.paused ? ` · ${t`Em pausa`}` : ''}
                  </Typography>
                </td>
                <td style={{ fontVariantNumeric: 'tabular-nums' }}>{row.extension ?? '—'}</td>
                <td>
                  <StatusChip status={row.telephony_status} testId="coworker-telephony" />
                </td>
                <td>
                  <StatusChip status={row.chat_status} testId="coworker-chat" />
                </td>
                <td>
                  {canCall && row.extension && row.user !== profile.id && (
                    <IconButton
                      size="sm"
                      variant="soft"
                      color="success"
                      onClick={() => call(row.extension!)}
                      aria-label={t`Ligar para ${row.name}`}
                      title={t`Ligar para ${row.name}`}
                      data-testid="coworker-call"
                    >
                      <PhoneIcon />
                    </IconButton>
                  )}
                </td>
              </tr>
            ))}
            {!list.isPending && rows.length === 0 && (
              <tr>
                <td colSpan={5}>
                  <Typography level="body-sm" sx={{ textAlign: 'center', py: 2 }}>
                    {t`Sem resultados`}
                  </Typography>
                </td>
              </tr>
            )}
          </tbody>
        </Table>
      </Sheet>
    </Box>
  )
}
