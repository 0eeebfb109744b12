import { useState } from 'react'
import Avatar from '@mui/joy/Avatar'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import IconButton from '@mui/joy/IconButton'
import Typography from '@mui/joy/Typography'
import { useNavigate } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { useLocale } from '../../app/useLocale.ts'
import { CloseIcon } from './icons.tsx'
import { useChatActors, useChatLive, useChatSignals } from './useChat.ts'

/**
 * Queued web chats as notification cards under the top bar (spec 000 §2): avatar, title, subtitle, accept and reject;
 * a card can be dismissed (the room keeps ringing in the list). Accepting opens the room in /chats.
 */
export function QueuedChats() {
  const { t } = useLingui()
  const { ringing } = useChatSignals()
  const { rooms } = useChatLive()
  const { room: tell } = useChatActors()
  const navigate = useNavigate()
  const { params } = useLocale()
  const [dismissed, setDismissed] = useState<number[]>([])
  const cards = ringing.filter((id) => !dismissed.includes(id) && rooms[id])
  if (!cards.length) return null
  return (
    <Box
      role="region"
      aria-label={t`Chats na fila`}
      sx={{ position: 'fixed', top: 72, right: 16, zIndex: 1200, display: 'flex', flexDirection: 'column', gap: 1, width: 340, maxWidth: 'calc(100vw - 32px)' }}
      data-testid="queued-chats"
    >
      {cards.slice(0, 4).map((id) => {
        const room = rooms[id]
        return (
          <Card key={id} variant="outlined" sx={{ boxShadow: 'lg', gap: 1, p: 1.5 }} data-testid="queued-chat" data-room-id={id}>
            <Box sx={{ display: 'flex', gap: 1.25, alignItems: 'center' }}>
              <Avatar src={room.avatar ?? undefined} alt={room.title} />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography level="title-sm" noWrap>
                  {t`Novo Chat`}: {room.title || room.phone}
                </Typography>
                <Typography level="body-xs" noWrap textColor="text.secondary">
                  {room.subtitle || room.last_client_message_content || room.channel.description}
                </Typography>
              </Box>
              <IconButton size="sm" variant="plain" aria-label={t`Dispensar`} onClick={() => setDismissed([...dismissed, id])}>
                <CloseIcon />
              </IconButton>
            </Box>
            <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
              <Button size="sm" color="danger" variant="soft" onClick={() => tell(id, { type: 'HANGUP' })} data-testid="queued-reject">
                {t`Desligar`}
              </Button>
              <Button
                size="sm"
                color="success"
                onClick={() => {
                  tell(id, { type: 'ANSWER' })
                  void navigate({ to: '/{-$locale}/chats', params, search: { room: id } })
                }}
                data-testid="queued-accept"
              >
                {t`Atender`}
              </Button>
            </Box>
          </Card>
        )
      })}
    </Box>
  )
}
