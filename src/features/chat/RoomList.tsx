import { useMemo } from 'react'
import Avatar from '@mui/joy/Avatar'
import Badge from '@mui/joy/Badge'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import Input from '@mui/joy/Input'
import Typography from '@mui/joy/Typography'
import { useMachine } from '@xstate/react'
import { useLingui } from '@lingui/react/macro'
import type { ChatRoom } from '../../../contract/api/chat.ts'
import { chatSearchMachine } from '../../../machines/chatSearch.machine.ts'
import { dayjs, formatDate, formatDateTime } from '../../app/dates.ts'
import { SearchIcon } from '../../entities/icons.tsx'
import { HistoryIcon } from '../../components/icons/icons.tsx'
import { matchesRoom, orderRooms } from './chatLive.ts'
import { cutLastMessage, cutTitle } from './chatText.ts'
import { ArchiveIcon, EyeIcon, PersonAddIcon } from './icons.tsx'

/** Row height of the list (spec 001 §2). */
export const ROOM_ROW_HEIGHT = 100

export type RoomListProps = {
  rooms: readonly ChatRoom[]
  selected: number | null
  onSelect: (id: number) => void
  ringing: readonly number[]
  countdown: Readonly<Record<number, number>>
  /** Rooms whose customer is typing now. */
  typing?: readonly number[]
  /** Why the webchat cannot run here, if it cannot: off, or in another tab. */
  prompt: 'off' | 'otherTab' | null
  onOpen: (dialog: 'history' | 'archived' | 'live' | 'newContact') => void
  /** A supervisor: the Live button lists the site's rooms to watch and transfer. */
  supervisor?: boolean
  /** Signs the agent in to the chat channel (the prompt's button when the webchat is off). */
  onSignIn?: () => void
}

/** The left column (spec 001 §2): search, History / Archived / New contact, the rooms newest client response first. */
export function RoomList({ rooms, selected, onSelect, ringing, countdown, typing = [], prompt, onOpen, onSignIn, supervisor }: RoomListProps) {
  const { t } = useLingui()
  const [search, sendSearch] = useMachine(chatSearchMachine, { input: {} })
  const query = search.context.committed
  const visible = useMemo(() => orderRooms(rooms).filter((room) => matchesRoom(room, query, (iso) => formatDateTime(iso))), [rooms, query])
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }} data-testid="room-list">
      <Box sx={{ p: 1, display: 'flex', flexDirection: 'column', gap: 1, borderBottom: '1px solid', borderColor: 'divider' }}>
        <Input
          size="sm"
          startDecorator={<SearchIcon />}
          placeholder={t`Buscar por nome, telefone ou data`}
          value={search.context.typed}
          onChange={(event) => sendSearch({ type: 'TYPE', value: event.target.value })}
          slotProps={{ input: { 'aria-label': t`Buscar chats`, 'data-testid': 'room-search' } }}
        />
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
          <Button size="sm" variant="soft" color="neutral" startDecorator={<HistoryIcon />} onClick={() => onOpen('history')} data-testid="open-history">
            {t`Histórico`}
          </Button>
          <Button size="sm" variant="soft" color="neutral" startDecorator={<ArchiveIcon />} onClick={() => onOpen('archived')} data-testid="open-archived">
            {t`Arquivados`}
          </Button>
          {supervisor && (
            <Button size="sm" variant="soft" color="neutral" startDecorator={<EyeIcon />} onClick={() => onOpen('live')} data-testid="open-live">
              {t`Em andamento`}
            </Button>
          )}
          <Button
            size="sm"
            variant="soft"
            color="primary"
            startDecorator={<PersonAddIcon />}
            onClick={() => onOpen('newContact')}
            data-testid="open-new-contact"
          >
            {t`Novo contato`}
          </Button>
        </Box>
      </Box>
      {prompt && (
        <Box sx={{ m: 1, p: 1, borderRadius: 'sm', bgcolor: 'warning.softBg', display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography level="body-sm" color="warning" sx={{ flex: 1 }} data-testid="webchat-prompt">
            {prompt === 'off' ? t`No momento o webchat esta desativado.` : t`Webchat esta em execução em outra aba ou janela.`}
          </Typography>
          {prompt === 'off' && onSignIn && (
            <Button size="sm" color="warning" onClick={onSignIn} data-testid="webchat-sign-in">
              {t`Entrar`}
            </Button>
          )}
        </Box>
      )}
      <Box component="ul" role="listbox" aria-label={t`Chats`} sx={{ listStyle: 'none', m: 0, p: 0, overflowY: 'auto', flex: 1, minHeight: 0 }}>
        {visible.map((room) => (
          <RoomRow
            key={room.id}
            room={room}
            active={room.id === selected}
            ringing={ringing.includes(room.id)}
            secondsLeft={countdown[room.id]}
            typing={typing.includes(room.id)}
            onSelect={() => onSelect(room.id)}
          />
        ))}
      </Box>
    </Box>
  )
}

function RoomRow({
  room,
  active,
  ringing,
  secondsLeft,
  typing,
  onSelect,
}: {
  room: ChatRoom
  active: boolean
  ringing: boolean
  secondsLeft?: number
  typing?: boolean
  onSelect: () => void
}) {
  const { t } = useLingui()
  const unread = room.unread_messages.length
  const when = room.last_client_response_ts ?? room.datetime
  const last = room.last_client_message_content || room.last_message?.content || ''
  const ended = !!room.end || room.status === 'ended'
  return (
    <Box
      component="li"
      role="option"
      aria-selected={active}
      tabIndex={0}
      onClick={onSelect}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault()
          onSelect()
        }
      }}
      data-testid="room-row"
      data-room-id={room.id}
      sx={{
        height: ROOM_ROW_HEIGHT,
        boxSizing: 'border-box',
        display: 'flex',
        gap: 1.25,
        alignItems: 'center',
        px: 1.5,
        cursor: 'pointer',
        borderBottom: '1px solid',
        borderColor: 'divider',
        bgcolor: active ? 'primary.softBg' : ringing ? 'warning.softBg' : undefined,
        '&:hover': { bgcolor: active ? 'primary.softBg' : 'background.level1' },
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.500', outlineOffset: -2 },
      }}
    >
      <Badge badgeContent={unread} color="success" invisible={!unread} size="sm">
        <Avatar src={room.avatar ?? undefined} alt={room.title} />
      </Badge>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography level="title-sm" sx={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={room.title}>
            {cutTitle(room.title || room.phone)}
          </Typography>
          <Typography level="body-xs" textColor="text.tertiary" sx={{ flexShrink: 0 }} title={formatDateTime(when)}>
            {shortWhen(when)}
          </Typography>
        </Box>
        {typing && !ended ? (
          <Typography level="body-xs" color="success" sx={{ whiteSpace: 'nowrap' }}>
            {t`digitando…`}
          </Typography>
        ) : (
          <Typography level="body-xs" textColor="text.secondary" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {cutLastMessage(last)}
          </Typography>
        )}
        <Box sx={{ display: 'flex', gap: 0.5, mt: 0.5, flexWrap: 'nowrap', overflow: 'hidden' }}>
          <Chip size="sm" variant="soft">
            {room.channel.description}
          </Chip>
          {ringing && (
            <Chip size="sm" color="warning" variant="solid">
              {t`Na fila`}
            </Chip>
          )}
          {ended && (
            <Chip size="sm" color="danger" variant="soft">
              {secondsLeft !== undefined ? t`Encerrado (${secondsLeft} s)` : t`Encerrado`}
            </Chip>
          )}
          {room.has_expired && !ended && (
            <Chip size="sm" color="neutral" variant="outlined">
              {t`Expirado`}
            </Chip>
          )}
        </Box>
      </Box>
    </Box>
  )
}

/** The row's time as a chat list shows it: today's as HH:mm, older ones as the date (the full date-time on hover). */
export function shortWhen(iso: string | null | undefined, now = dayjs()): string {
  if (!iso) return ''
  const date = dayjs(iso)
  if (!date.isValid()) return ''
  return date.isSame(now, 'day') ? date.format('HH:mm') : formatDate(iso)
}
