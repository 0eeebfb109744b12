import { useState } from 'react'
import Avatar from '@mui/joy/Avatar'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import IconButton from '@mui/joy/IconButton'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import { useNavigate } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { useLocale } from '../../app/useLocale.ts'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import { CloseIcon } from './icons.tsx'
import { useChatActors, useChatLive, useChatSignals } from './useChat.ts'

// The bar is full on a laptop (pause, status, webphone, icons): the buttons speak through their icons below 1536 px so
// the customer's name keeps its room; their labels stay for screen readers (aria-label).
const LABEL_FROM_XL = { display: { xs: 'none', xl: 'inline' } } as const

/**
 * Queued web chats as a notification card in the top bar (spec 000 §2): avatar, title, subtitle, accept and reject,
 * in the bar's own row, so it never covers the page under it (the room header's buttons); the next rooms wait behind
 * a "+N". A card can be dismissed (the room keeps ringing in the list). Accepting opens the room in /chats. On a phone
 * the card keeps the avatar and the two buttons as icons.
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
  const id = cards[0]!
  const room = rooms[id]!
  return (
    <Box role="region" aria-label={t`Chats na fila`} sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }} data-testid="queued-chats">
      <Sheet
        variant="outlined"
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          pl: 0.75,
          pr: 0.5,
          py: 0.5,
          borderRadius: 'xl',
          boxShadow: 'sm',
          borderColor: 'success.outlinedBorder',
          minWidth: 0,
          overflow: 'hidden',
        }}
        data-testid="queued-chat"
        data-room-id={id}
      >
        <Avatar size="sm" src={room.avatar ?? undefined} alt={room.title} sx={{ display: { xs: 'none', sm: 'flex' } }} />
        <Box sx={{ minWidth: 0, width: { sm: 120, lg: 200 }, flexShrink: 1, display: { xs: 'none', sm: 'block' } }}>
          <Typography level="title-sm" noWrap>
            {t`Novo Chat`}: {room.title || room.phone}
          </Typography>
          <Typography level="body-xs" noWrap textColor="text.secondary">
            {room.subtitle || room.last_client_message_content || room.channel.description}
          </Typography>
        </Box>
        <Button
          size="sm"
          color="danger"
          variant="soft"
          onClick={() => tell(id, { type: 'HANGUP' })}
          aria-label={t`Desligar`}
          startDecorator={<CloseIcon />}
          sx={{ flexShrink: 0, '& .MuiButton-startDecorator': { mr: { xs: 0, xl: 0.5 } } }}
          data-testid="queued-reject"
        >
          <Box component="span" sx={LABEL_FROM_XL}>
            {t`Desligar`}
          </Box>
        </Button>
        <Button
          size="sm"
          color="success"
          onClick={() => {
            tell(id, { type: 'ANSWER' })
            void navigate({ to: '/{-$locale}/chats', params, search: { room: id } })
          }}
          aria-label={t`Atender`}
          startDecorator={<PhoneIcon />}
          sx={{ flexShrink: 0, '& .MuiButton-startDecorator': { mr: { xs: 0, xl: 0.5 } } }}
          data-testid="queued-accept"
        >
          <Box component="span" sx={LABEL_FROM_XL}>
            {t`Atender`}
          </Box>
        </Button>
        <IconButton size="sm" variant="plain" aria-label={t`Dispensar`} onClick={() => setDismissed([...dismissed, id])} sx={{ display: { xs: 'none', xl: 'flex' } }}>
          <CloseIcon />
        </IconButton>
      </Sheet>
      {cards.length > 1 && (
        <Chip size="sm" color="success" variant="soft" aria-label={t`Mais ${cards.length - 1} chats na fila`} data-testid="queued-more">
          +{cards.length - 1}
        </Chip>
      )}
    </Box>
  )
}
