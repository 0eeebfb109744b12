import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import Typography from '@mui/joy/Typography'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { formatDateTime } from '../../../contract/format/dates.ts'
import { profileQuery } from '../../api/session.ts'
import { ButtonLink } from '../../components/links.tsx'
import { PersonIcon } from '../../components/icons/icons.tsx'
import { crmApi } from './crmApi.ts'

/**
 * The chat workspace's strip under a room's header (issue 17): the CRM client the room's number belongs to, its last
 * contacts and one click to the client's page with the timeline; an unknown number offers 'create client' with the
 * number filled in. The same match call and cache as the ringing call's card (CallerClientCard). Only for users who
 * may see clients (sites.view_client); nothing while the room has no phone.
 */
export function ChatClientBar({ phone }: { phone: string | null | undefined }) {
  const { t } = useLingui()
  const { data: profile } = useQuery(profileQuery)
  const allowed = has(profile?.roles ?? [], PERMISSIONS.viewClient)
  const number = (phone ?? '').trim()
  const match = useQuery({ queryKey: ['crm', 'match', number], queryFn: () => crmApi.match(number), enabled: allowed && number !== '', staleTime: 30_000 })
  if (!allowed || !match.data) return null
  const { client, last_contacts: contacts } = match.data
  const bar = { display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', px: 2, py: 0.75, borderBottom: '1px solid', borderColor: 'divider', bgcolor: 'background.level1' } as const
  if (!client)
    return (
      <Box sx={bar} data-testid="chat-client-unknown">
        <PersonIcon />
        <Typography level="body-sm" sx={{ flex: 1 }}>
          {t`Número sem cliente cadastrado`}
        </Typography>
        <ButtonLink size="sm" variant="outlined" to="/{-$locale}/clients/$" params={{ _splat: 'create' }} search={{ phone: match.data.phone }} data-testid="chat-client-create">
          {t`Criar cliente`}
        </ButtonLink>
      </Box>
    )
  return (
    <Box sx={bar} data-testid="chat-client">
      <PersonIcon />
      <Typography level="title-sm" data-testid="chat-client-name">
        {client.name}
      </Typography>
      <Box sx={{ display: 'flex', gap: 0.5, flex: 1, minWidth: 0, overflow: 'hidden' }} aria-label={t`Últimos contatos`}>
        {contacts.slice(0, 3).map((event) => (
          <Chip key={`${event.kind}:${event.id}`} size="sm" variant="outlined" title={event.detail || event.title}>
            {formatDateTime(event.at)} · {event.title}
          </Chip>
        ))}
      </Box>
      <ButtonLink size="sm" variant="outlined" to="/{-$locale}/clients/$" params={{ _splat: `${client.id}/edit` }} data-testid="chat-client-open">
        {t`Abrir linha do tempo`}
      </ButtonLink>
    </Box>
  )
}
