import { lazy, Suspense, useState } from 'react'
import Box from '@mui/joy/Box'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from '../../components/toast/toastStore.ts'
import { chatChannel } from './chatApi.ts'
import { useProfile } from '../../api/useProfile.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { ChatBubbleIcon } from './icons.tsx'
import { RoomList } from './RoomList.tsx'
import { RoomPane } from './RoomPane.tsx'
import { SidePanel } from './SidePanel.tsx'
import { useChatConnection, useChatLive, useChatSignals } from './useChat.ts'

const ChatListDialog = lazy(() => import('./ChatListDialog.tsx').then((module) => ({ default: module.ChatListDialog })))
const NewContactDialog = lazy(() => import('./NewContactDialog.tsx').then((module) => ({ default: module.NewContactDialog })))
const RoomViewerDialog = lazy(() => import('./RoomViewerDialog.tsx').then((module) => ({ default: module.RoomViewerDialog })))

type Dialog = { kind: 'history' | 'archived' | 'live' | 'newContact' } | { kind: 'viewer'; stepId: number } | null

/**
 * /chats (spec 001 §2 "Chat workspace"): the rooms on the left, the open room in the centre, its side tabs on the
 * right — 3/5/4 columns at large sizes, 2/6/4 below, and on a laptop or phone the list and the room alone.
 */
const SCREEN_READER_ONLY = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' } as const

export function ChatsPage({ selected, onSelect }: { selected: number | null; onSelect: (id: number | null) => void }) {
  const { t } = useLingui()
  const profile = useProfile()
  const live = useChatLive()
  const signals = useChatSignals()
  const connection = useChatConnection()
  const [dialog, setDialog] = useState<Dialog>(null)
  const queryClient = useQueryClient()
  const rooms = Object.values(live.rooms)
  const room = selected !== null ? live.rooms[selected] : undefined
  const webchatOff = !!profile.userextra && profile.userextra.login_channel_chat === false
  const prompt = connection.standby ? 'otherTab' : webchatOff ? 'off' : null

  return (
    <>
      {/* The page's name for screen readers and the document outline; the columns say it visually. */}
      <Typography level="h1" sx={SCREEN_READER_ONLY}>
        {t`Chats`}
      </Typography>
      <Sheet
        variant="outlined"
        sx={{
          display: 'grid',
          gridTemplateColumns: {
            xs: '1fr',
            md: room ? 'minmax(260px, 2fr) 6fr' : 'minmax(260px, 2fr) 6fr',
            lg: room ? '2fr 6fr 4fr' : '2fr 10fr',
            xl: room ? '3fr 5fr 4fr' : '3fr 9fr',
          },
          height: { xs: 'calc(100dvh - 140px)', md: 'calc(100dvh - 120px)' },
          minHeight: 480,
          borderRadius: 'md',
          overflow: 'hidden',
        }}
        data-testid="chats-page"
      >
        <Box sx={{ borderRight: '1px solid', borderColor: 'divider', minHeight: 0, display: { xs: room ? 'none' : 'block', md: 'block' } }}>
          <RoomList
            rooms={rooms}
            selected={selected}
            onSelect={onSelect}
            ringing={signals.ringing}
            countdown={signals.countdown}
            typing={signals.typing}
            prompt={prompt}
            onOpen={(kind) => setDialog({ kind })}
            supervisor={has(profile.roles, PERMISSIONS.viewDashboardSupervisor)}
            onSignIn={() =>
              void chatChannel(true, 'user')
                .then(() => queryClient.invalidateQueries({ queryKey: ['profile'] }))
                .catch((error: Error) => toast(error.message, 'danger'))
            }
          />
        </Box>
        <Box sx={{ minHeight: 0, minWidth: 0, display: { xs: room ? 'block' : 'none', md: 'block' } }}>
          {room ? (
            <RoomPane
              key={room.id}
              room={room}
              messages={live.messages[room.id] ?? []}
              userId={profile.id}
              ringing={signals.ringing.includes(room.id)}
              secondsLeft={signals.countdown[room.id]}
              unreadRetry={signals.unreadRetry[room.id]}
              typing={signals.typing.includes(room.id)}
              onBack={() => onSelect(null)}
            />
          ) : (
            <Box
              sx={{
                height: '100%',
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                justifyContent: 'center',
                gap: 1,
                bgcolor: 'background.level1',
              }}
            >
              <ChatBubbleIcon sx={{ fontSize: 64, color: 'neutral.300' }} />
              <Typography level="title-md" textColor="text.tertiary" data-testid="chats-empty">
                {rooms.length ? t`Selecione um chat` : t`Todas as mensagens foram lidas`}
              </Typography>
            </Box>
          )}
        </Box>
        {room && (
          <Box sx={{ borderLeft: '1px solid', borderColor: 'divider', minHeight: 0, display: { xs: 'none', lg: 'block' } }}>
            <SidePanel stepId={room.id} ended={!!room.end || room.status === 'ended'} onOpenRoom={(stepId) => setDialog({ kind: 'viewer', stepId })} />
          </Box>
        )}
        <Suspense fallback={null}>
          {dialog && (dialog.kind === 'history' || dialog.kind === 'archived' || dialog.kind === 'live') && (
            <ChatListDialog
              kind={dialog.kind === 'history' ? 'historic' : dialog.kind === 'archived' ? 'archives' : 'live'}
              onOpenRoom={(row) => setDialog({ kind: 'viewer', stepId: row.id })}
              onClose={() => setDialog(null)}
            />
          )}
          {dialog?.kind === 'newContact' && <NewContactDialog onClose={() => setDialog(null)} />}
          {dialog?.kind === 'viewer' && <RoomViewerDialog stepId={dialog.stepId} onClose={() => setDialog(null)} />}
        </Suspense>
      </Sheet>
    </>
  )
}
