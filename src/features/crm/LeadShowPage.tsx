import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { Sheet, Stack, Table, Typography } from '@mui/joy'
import { CRM_PATHS } from '../../../contract/api/crm.ts'
import type { LeadCallsResponse } from '../../../contract/api/crm.ts'
import { formatDateTime } from '../../../contract/format/dates.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { api } from '../../api/client.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'

type Lead = { id: number; name: string; surname: string; phones: string; attempts: number; status: string; mailing_description?: string; client_description?: string }

/** /leads/{id}/show (spec 000 §2): the lead (spec 000 §3: name, surname, client, mailing, attempts) and its calls. */
export function LeadShowPage({ id }: { id: number }) {
  const { t } = useLingui()
  const lead = useQuery({ queryKey: ['crm', 'lead', id], queryFn: () => api.get<Lead>(`/v1/crm/leads/${id}/`) })
  const calls = useQuery({ queryKey: ['crm', 'lead-calls', id], queryFn: () => api.get<LeadCallsResponse>(CRM_PATHS.leadCalls.replace(':id', String(id))) })
  const data = lead.data
  return (
    <Stack spacing={2}>
      <PageHeader title={data ? `${data.name} ${data.surname}`.trim() : t`Lead #${id}`} subtitle={data?.mailing_description} />
      {data ? (
        <Sheet variant="outlined" sx={{ p: 2, borderRadius: 'sm' }} data-testid="lead-detail">
          <Typography level="body-sm">{t`Cliente: ${data.client_description ?? '—'}`}</Typography>
          <Typography level="body-sm">{t`Telefones: ${data.phones}`}</Typography>
          <Typography level="body-sm">{t`Tentativas: ${data.attempts}`}</Typography>
        </Sheet>
      ) : null}
      <Typography level="title-md">{t`Chamadas`}</Typography>
      <Table size="sm" data-testid="lead-calls">
        <thead>
          <tr>
            <th>{t`Data`}</th>
            <th>{t`Telefone`}</th>
            <th>{t`Status`}</th>
            <th>{t`Duração`}</th>
          </tr>
        </thead>
        <tbody>
          {(calls.data?.results ?? []).map((call) => (
            <tr key={call.id}>
              <td>{formatDateTime(call.started_at)}</td>
              <td>{call.phone}</td>
              <td>{call.dial_status ?? ''}</td>
              <td>{formatDuration(call.answered_duration ?? 0)}</td>
            </tr>
          ))}
          {calls.isSuccess && calls.data.results.length === 0 ? (
            <tr>
              <td colSpan={4}>{t`Sem resultados`}</td>
            </tr>
          ) : null}
        </tbody>
      </Table>
    </Stack>
  )
}
