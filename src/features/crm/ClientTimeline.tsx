import { useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { Box, Button, Chip, Link, List, ListItem, Option, Select, Stack, Typography } from '@mui/joy'
import { TIMELINE_KINDS } from '../../../contract/api/crm.ts'
import type { TimelineEvent, TimelineKind } from '../../../contract/api/crm.ts'
import { formatDateTime } from '../../../contract/format/dates.ts'
import type { InteractionAttachment } from '../../../contract/api/crm.ts'
import { AttachmentLinks } from './AttachmentLinks.tsx'
import { crmApi } from './crmApi.ts'

/** One client's calls, chats, activities, interactions, classifications and forms, newest first, by channel. */
export function ClientTimeline({ clientId }: { clientId: number }) {
  const { t } = useLingui()
  const [kinds, setKinds] = useState<TimelineKind[]>([])
  const labels: Record<TimelineKind, string> = {
    call: t`Chamada`,
    chat: t`Conversa`,
    activity: t`Atividade`,
    interaction: t`Interação`,
    classification: t`Classificação`,
    form: t`Formulário enviado`,
    nps: t`Resposta NPS`,
  }
  const query = useInfiniteQuery({
    queryKey: ['crm', 'timeline', clientId, kinds],
    queryFn: ({ pageParam }) => crmApi.timeline(clientId, kinds, pageParam || undefined),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  })
  const events = query.data?.pages.flatMap((page) => page.results) ?? []
  return (
    <Stack spacing={1} aria-label={t`Linha do tempo`} component="section">
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between">
        <Typography level="title-md">{t`Linha do tempo`}</Typography>
        <Select
          multiple
          size="sm"
          placeholder={t`Todos os canais`}
          aria-label={t`Canais`}
          value={kinds}
          onChange={(_, value) => setKinds(value as TimelineKind[])}
          sx={{ minWidth: 180 }}
        >
          {TIMELINE_KINDS.map((kind) => (
            <Option key={kind} value={kind}>
              {labels[kind]}
            </Option>
          ))}
        </Select>
      </Stack>
      {query.isSuccess && events.length === 0 ? <Typography level="body-sm">{t`Nenhum contato registrado`}</Typography> : null}
      <List size="sm" data-testid="client-timeline">
        {events.map((event) => (
          <TimelineItem key={`${event.kind}:${event.id}`} event={event} label={labels[event.kind]} />
        ))}
      </List>
      {query.hasNextPage ? (
        <Button size="sm" variant="outlined" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          {t`Carregar mais`}
        </Button>
      ) : null}
    </Stack>
  )
}

function TimelineItem({ event, label }: { event: TimelineEvent; label: string }) {
  const { t } = useLingui()
  const target = event.kind === 'call' ? t`Ouvir gravação` : event.kind === 'chat' ? t`Ver conversa` : t`Abrir`
  return (
    <ListItem sx={{ alignItems: 'flex-start' }}>
      <Box sx={{ width: '100%' }}>
        <Stack direction="row" spacing={1} alignItems="center">
          <Chip size="sm" variant="soft">
            {label}
          </Chip>
          <Typography level="body-xs">{formatDateTime(event.at)}</Typography>
        </Stack>
        <Typography level="body-sm">{event.title}</Typography>
        {event.detail ? <Typography level="body-xs">{event.detail}</Typography> : null}
        {event.kind === 'interaction' && Array.isArray(event.data.attachments) ? (
          <AttachmentLinks files={event.data.attachments as InteractionAttachment[]} />
        ) : null}
        {event.link ? (
          <Link level="body-xs" href={event.link} target={event.kind === 'call' ? '_blank' : undefined}>
            {target}
          </Link>
        ) : null}
      </Box>
    </ListItem>
  )
}
