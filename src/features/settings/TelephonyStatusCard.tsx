import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Card from '@mui/joy/Card'
import Chip from '@mui/joy/Chip'
import Typography from '@mui/joy/Typography'
import type { ColorPaletteProp } from '@mui/joy/styles'
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { useLingui } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { TELEPHONY_STATUS_PATH } from '../../../contract/api/telephony.ts'
import type { EngineState, EngineStatus, KamailioLoad, TelephonyStatusAnswer } from '../../../contract/api/telephony.ts'
import { api, API_BASE } from '../../api/client.ts'

// The telephone exchange's engines on /settings (admins who see the trunks): whether Kamailio and rtpengine run, and
// when they cannot, the command that installs them (issue: "the log and the admin UI say how to install them"), and
// how full Kamailio's shared memory is (connections once exhausted it, and then no webphone could connect).

const STATE_LABELS: Record<EngineState, MessageDescriptor> = {
  off: msg`Desligado`,
  missing: msg`Não instalado`,
  starting: msg`Iniciando`,
  running: msg`Em execução`,
  restarting: msg`Reiniciando`,
  stopped: msg`Parado`,
  external: msg`Externo`,
  unreachable: msg`Sem resposta`,
}

const STATE_COLORS: Record<EngineState, ColorPaletteProp> = {
  off: 'neutral',
  missing: 'danger',
  starting: 'warning',
  running: 'success',
  restarting: 'warning',
  stopped: 'neutral',
  external: 'success',
  unreachable: 'danger',
}

export const telephonyStatusQuery = {
  queryKey: ['pabx', 'telephony-status'],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<TelephonyStatusAnswer>(TELEPHONY_STATUS_PATH.slice(API_BASE.length), undefined, { signal }),
  refetchInterval: 10_000,
}

function EngineLine({ name, engine }: { name: string; engine: EngineStatus }) {
  const { i18n } = useLingui()
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-engine={name}>
      <Typography level="body-sm" sx={{ minWidth: 90, fontWeight: 600 }}>
        {name}
      </Typography>
      <Chip size="sm" variant="soft" color={STATE_COLORS[engine.state]} data-state={engine.state}>
        {i18n._(STATE_LABELS[engine.state])}
      </Chip>
      {engine.version && (
        <Typography level="body-xs" textColor="text.tertiary">
          {engine.version}
        </Typography>
      )}
      {engine.restarts > 0 && (
        <Typography level="body-xs" textColor="warning.plainColor">
          <Trans>{engine.restarts} reinícios</Trans>
        </Typography>
      )}
    </Box>
  )
}

const LOAD_COLORS: Record<KamailioLoad['level'], ColorPaletteProp> = { ok: 'success', high: 'warning', critical: 'danger' }

function MemoryLine({ load }: { load: KamailioLoad }) {
  const percent = Math.round(load.pressure * 100)
  const total = Math.round(load.shm_total / (1024 * 1024))
  const { websockets, registered, dialogs } = load
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="telephony-memory" data-level={load.level}>
      <Typography level="body-sm" sx={{ minWidth: 90, fontWeight: 600 }}>
        <Trans>Memória</Trans>
      </Typography>
      <Chip size="sm" variant="soft" color={LOAD_COLORS[load.level]}>
        <Trans>
          {percent}% de {total} MB
        </Trans>
      </Chip>
      <Typography level="body-xs" textColor="text.tertiary">
        <Trans>
          {websockets} webphones conectados, {registered} registros, {dialogs} chamadas
        </Trans>
      </Typography>
      {load.level !== 'ok' && (
        <Typography level="body-xs" textColor={load.level === 'critical' ? 'danger.plainColor' : 'warning.plainColor'}>
          <Trans>A memória do Kamailio está quase cheia: novas conexões e chamadas podem falhar. Aumente SIP_SHM_MB.</Trans>
        </Typography>
      )}
    </Box>
  )
}

export function TelephonyStatusCard() {
  const status = useQuery(telephonyStatusQuery)
  if (!status.data) return null
  const { kamailio, rtpengine, install_hint: installHint, mode, evapi, kamailio_load: load } = status.data
  return (
    <Card variant="outlined" sx={{ boxShadow: 'xs', gap: 1, mb: 2 }} data-testid="telephony-status">
      <Typography level="title-md" component="h2">
        <Trans>Motores de telefonia</Trans>
      </Typography>
      {mode === 'off' ? (
        <Typography level="body-sm" textColor="text.tertiary">
          <Trans>A telefonia está desligada neste servidor (TELEPHONY=off).</Trans>
        </Typography>
      ) : (
        <>
          <EngineLine name="Kamailio" engine={kamailio} />
          <EngineLine name="rtpengine" engine={rtpengine} />
          {load && <MemoryLine load={load} />}
          {!installHint && !evapi.connected && (
            <Typography level="body-xs" textColor="warning.plainColor">
              <Trans>O servidor ainda não está conectado ao Kamailio: chamadas não são encaminhadas.</Trans>
            </Typography>
          )}
        </>
      )}
      {installHint && (
        <Alert color="warning" variant="soft" sx={{ flexDirection: 'column', alignItems: 'flex-start' }} data-testid="telephony-install-hint">
          <Trans>Os motores de telefonia não estão instalados. Instale-os como root e reinicie o servidor:</Trans>
          <Box component="code" sx={{ fontSize: 'sm', wordBreak: 'break-all' }}>
            {installHint}
          </Box>
        </Alert>
      )}
    </Card>
  )
}
