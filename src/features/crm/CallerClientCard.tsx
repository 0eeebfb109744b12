import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { Card, Stack, Typography } from '@mui/joy'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { formatDateTime } from '../../../contract/format/dates.ts'
import { useProfile } from '../../api/useProfile.ts'
import { ButtonLink } from '../../components/links.tsx'
import { crmApi } from './crmApi.ts'

/**
 * Who is calling (or writing): the CRM client the number belongs to, with the last contacts and one click to the
 * client's page and timeline; an unknown number offers 'create client' with the number filled in. Shown only to
 * users who may see clients (sites.view_client). A "phone" without a digit (a SIP user name, the agent a supervisor's
 * monitoring call names) is nobody's number: nothing is shown.
 */
export function CallerClientCard({ phone }: { phone: string }) {
  const { t } = useLingui()
  const { roles } = useProfile()
  const allowed = has(roles, PERMISSIONS.viewClient)
  const match = useQuery({ queryKey: ['crm', 'match', phone], queryFn: () => crmApi.match(phone), enabled: allowed && /\d/.test(phone), staleTime: 30_000 })
  if (!allowed || !match.data) return null
  const { client, last_contacts: contacts } = match.data
  if (!client)
    return (
      <Card variant="soft" size="sm" data-testid="caller-client-unknown">
        <Typography level="body-sm">{t`Número sem cliente cadastrado`}</Typography>
        <ButtonLink size="sm" variant="outlined" to="/{-$locale}/clients/$" params={{ _splat: 'create' }} search={{ phone: match.data.phone }}>
          {t`Criar cliente`}
        </ButtonLink>
      </Card>
    )
  return (
    <Card variant="soft" size="sm" data-testid="caller-client">
      <Typography level="title-sm" data-testid="caller-client-name">
        {client.name}
      </Typography>
      <Stack spacing={0.25}>
        {contacts.slice(0, 3).map((event) => (
          <Typography key={`${event.kind}:${event.id}`} level="body-xs">
            {formatDateTime(event.at)} · {event.title}
          </Typography>
        ))}
      </Stack>
      <ButtonLink size="sm" variant="outlined" to="/{-$locale}/clients/$" params={{ _splat: `${client.id}/edit` }} data-testid="caller-client-open">
        {t`Abrir linha do tempo`}
      </ButtonLink>
    </Card>
  )
}
