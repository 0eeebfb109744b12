import { Fragment, type ReactNode } from 'react'
import Box from '@mui/joy/Box'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Divider from '@mui/joy/Divider'
import LinearProgress from '@mui/joy/LinearProgress'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { CallRow } from '../../../contract/api/calls.ts'
import { callTypeLabel } from '../../../contract/codes/index.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { formatDateTime } from '../../app/dates.ts'
import { callStepsQuery } from './callsApi.ts'
import { DIRECTION_LABELS, HUNG_UP_BY_LABELS, PHONE_TYPE_LABELS, STEP_KIND_LABELS, statusText } from './callText.ts'
import { RecordingPlayer } from './RecordingPlayer.tsx'

type Props = { call: CallRow; canPlay: boolean; onClose: () => void }

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box data-testid={testId}>
      <Typography level="body-xs" textColor="text.tertiary">
        {label}
      </Typography>
      <Typography level="body-sm" sx={{ wordBreak: 'break-word' }}>
        {children === '' || children === null || children === undefined ? '—' : children}
      </Typography>
    </Box>
  )
}

/**
 * A call's detail (spec 001 §3 "Call detail", what the report API has), its steps (GET /v1/report/call-steps/{id}/)
 * and, for holders of download_monitor_file, the recording player with its download.
 */
/** One answer of the call form as text (a chosen option's text, a list joined). */
function answerText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(answerText).join(', ')
  if (typeof value === 'object') return String((value as { text?: unknown }).text ?? JSON.stringify(value))
  return String(value)
}

export function CallDetailDialog({ call, canPlay, onClose }: Props) {
  const { t, i18n } = useLingui()
  const locale = i18n.locale
  const steps = useQuery(callStepsQuery(call.call_id))
  const label = (table: Record<string, { id: string }>, value: string | null) => {
    if (!value) return ''
    const descriptor = table[value]
    return descriptor ? i18n._(descriptor) : value
  }
  const rows = steps.data?.results ?? []
  return (
    <Modal open onClose={onClose}>
      <ModalDialog aria-labelledby="call-detail-title" sx={{ width: 'min(960px, 96vw)', maxHeight: '92vh', overflow: 'auto' }} data-testid="call-detail">
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle id="call-detail-title">{t`Detalhes da chamada`}</DialogTitle>
        <DialogContent sx={{ gap: 2 }}>
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
            <Field label="ID">{call.id}</Field>
            <Field label={t`Data/hora`}>{formatDateTime(call.datetime)}</Field>
            <Field label={t`Duração total`}>{formatDuration(call.total_duration)}</Field>
            <Field label={t`Tempo atendido`}>{formatDuration(call.total_answer_duration)}</Field>
            <Field label={t`Telefone`} testId="detail-phone">
              {call.phone}
            </Field>
            <Field label={t`Tipo de telefone`}>{label(PHONE_TYPE_LABELS, call.phone_type)}</Field>
            <Field label={t`Tipo de chamada`} testId="detail-call-type">
              {callTypeLabel(call.call_type, locale)}
            </Field>
            <Field label={t`Direção`}>{label(DIRECTION_LABELS, call.direction)}</Field>
            <Field label={t`Status`} testId="detail-status">
              {call.dial_status === null ? '' : `${call.dial_status} · ${statusText(call.dial_status, call.dial_status_text, locale)}`}
            </Field>
            <Field label={t`Agente`}>{call.user_description}</Field>
            <Field label={t`Ramal`}>{call.endpoint}</Field>
            <Field label={t`Fila`}>{call.queue_description}</Field>
            <Field label={t`Classificação`} testId="detail-classification">
              {call.classification ?? ''}
            </Field>
            <Field label={t`Subclassificação`}>{call.sub_classification ?? ''}</Field>
            <Field label={t`Comentário`}>{call.comment}</Field>
            <Field label={t`Entrada na fila`}>{formatDateTime(call.queue_started_datetime)}</Field>
            <Field label={t`Atendimento na fila`}>{formatDateTime(call.queue_answered_datetime)}</Field>
            <Field label={t`Fila encerrada por`}>{label(HUNG_UP_BY_LABELS, call.queue_ended_by)}</Field>
            <Field label={t`Desligada por`}>{label(HUNG_UP_BY_LABELS, call.hung_up_by)}</Field>
            <Field label="DID">{call.did}</Field>
            <Field label={t`País`}>{call.country}</Field>
            <Field label={t`DDD`}>{call.area_code}</Field>
            <Field label={t`Tronco`}>{call.trunk_description || (call.trunk ?? '')}</Field>
            <Field label={t`Rota de entrada`}>{call.inbound_route_id ?? ''}</Field>
            <Field label={t`Rota de saída`}>{call.outbound_route_id ?? ''}</Field>
            <Field label={t`Atividade agendada`} testId="detail-activity">
              {call.activity === null ? '' : `#${call.activity}`}
            </Field>
          </Box>
          {call.form && (
            <>
              <Divider />
              <Typography level="title-sm">{call.form.description || t`Formulário`}</Typography>
              <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }} data-testid="detail-form">
                {Object.entries(call.form.values).map(([name, value]) => (
                  <Fragment key={name}>
                    <Typography component="dt" level="body-sm" textColor="text.tertiary">
                      {name}
                    </Typography>
                    <Typography component="dd" level="body-sm" sx={{ m: 0 }}>
                      {answerText(value)}
                    </Typography>
                  </Fragment>
                ))}
              </Box>
            </>
          )}
          {canPlay && (
            <>
              <Divider />
              <Typography level="title-sm">{t`Gravação`}</Typography>
              <RecordingPlayer callId={call.call_id} />
            </>
          )}
          <Divider />
          <Typography level="title-sm">{t`Etapas da chamada`}</Typography>
          <Box sx={{ overflowX: 'auto', position: 'relative' }}>
            {steps.isPending && <LinearProgress size="sm" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
            <Table
              size="sm"
              aria-label={t`Etapas da chamada`}
              sx={{ minWidth: 720, '& thead th': { bgcolor: 'background.level1', whiteSpace: 'normal', verticalAlign: 'bottom' } }}
            >
              <thead>
                <tr>
                  <th style={{ width: 56 }}>{t`Etapa`}</th>
                  <th>{t`Tipo`}</th>
                  <th>{t`Origem`}</th>
                  <th>{t`Destino`}</th>
                  <th>{t`Agente/ramal`}</th>
                  <th>{t`Fila`}</th>
                  <th>{t`Status`}</th>
                  <th style={{ width: 150 }}>{t`Hora de início`}</th>
                  <th>{t`Espera na fila`}</th>
                  <th>{t`Tempo atendido`}</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 && !steps.isPending && (
                  <tr>
                    <td colSpan={10}>
                      <Typography level="body-sm" textColor="text.tertiary" sx={{ textAlign: 'center', py: 2 }}>
                        {steps.error ? steps.error.message : t`Sem resultados`}
                      </Typography>
                    </td>
                  </tr>
                )}
                {rows.map((step) => (
                  <tr key={step.id} data-testid="call-step">
                    <td>{step.step}</td>
                    <td>{label(STEP_KIND_LABELS, step.kind)}</td>
                    <td>{step.caller}</td>
                    <td>{step.callee}</td>
                    <td>{[step.user_description, step.endpoint].filter(Boolean).join(' · ')}</td>
                    <td>{step.queue_description}</td>
                    <td>{step.dial_status === null ? '' : statusText(step.dial_status, step.dial_status_text, locale)}</td>
                    <td>{formatDateTime(step.started_at)}</td>
                    <td>{step.queue_wait === null ? '' : formatDuration(step.queue_wait)}</td>
                    <td>{formatDuration(step.answered_duration)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Box>
        </DialogContent>
      </ModalDialog>
    </Modal>
  )
}
