import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import Avatar from '@mui/joy/Avatar'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import Typography from '@mui/joy/Typography'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import type { ChatContact, ChatMessage, ChatRoom } from '../../../contract/api/chat.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useLocale } from '../../app/useLocale.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { ChevronLeftIcon, PhoneIcon } from '../../components/icons/icons.tsx'
import IconButton from '@mui/joy/IconButton'
import { chatFormsQuery } from './chatOutcomes.ts'
import { hasMoreOf, messagesOf, olderMessages, roomMessagesQuery } from './chatApi.ts'
import { applyChatFrame, chatLive, withHistory } from './chatLive.ts'
import { canPlayOgg } from './chatText.ts'
import { ConfirmDialog } from './ConfirmDialog.tsx'
import { CloseIcon, ChatBubbleIcon } from './icons.tsx'
import { MessageInput } from './MessageInput.tsx'
import { MessageList } from './MessageList.tsx'
import { ContactsDialog, MediaPreviewDialog } from './SmallDialogs.tsx'
import { ChatClientBar } from '../crm/ChatClientBar.tsx'
import { resend, sendAttachment, sendLocation, sendText, useChatActors, useUnreadBar } from './useChat.ts'

const LocationDialog = lazy(() => import('./LocationDialog.tsx').then((module) => ({ default: module.LocationDialog })))
const TemplateDialog = lazy(() => import('./TemplateDialog.tsx').then((module) => ({ default: module.TemplateDialog })))

export type RoomPaneProps = {
  room: ChatRoom
  messages: readonly ChatMessage[]
  userId: number | null
  ringing: boolean
  secondsLeft?: number
  unreadRetry?: number
  /** The customer is typing (webchat; the room actor times it). */
  typing?: boolean
  /** Back to the list (phones, where the list and the room take turns). */
  onBack?: () => void
}

const drafts = new Map<number, string>()

/** On a phone the header's buttons are their icons (named for screen readers), so the header keeps one row. */
const LABEL_FROM_SM = { display: { xs: 'none', sm: 'inline' } } as const
const HEADER_BUTTON = { '& .MuiButton-startDecorator': { mr: { xs: 0, sm: 0.75 } } } as const

/** Whether the agent may write: the room allows it, or a client message exists (spec 001 §4). */
export function canWrite(room: ChatRoom, messages: readonly ChatMessage[]): boolean {
  return room.can_agent_send_message || messages.some((message) => message.sent_by === 'client')
}

/**
 * The room's older pages: the first load says whether older messages exist (`has_more`); scrolling near the top asks
 * for the page before the oldest one shown, until the server has none left. One request at a time.
 */
function useOlderMessages(stepId: number, messages: readonly ChatMessage[], firstPage: unknown) {
  const { t } = useLingui()
  const [state, setState] = useState({ hasOlder: true, loading: false })
  const busy = useRef(false)
  useEffect(() => {
    if (firstPage !== undefined) setState((current) => ({ ...current, hasOlder: hasMoreOf(firstPage) }))
  }, [firstPage])
  const oldest = messages.find((message) => message.id > 0)?.id
  const load = useCallback(() => {
    if (busy.current || oldest === undefined) return
    busy.current = true
    setState((current) => ({ ...current, loading: true }))
    olderMessages(stepId, oldest)
      .then((answer) => {
        const rows = messagesOf(answer)
        chatLive.set((live) => applyChatFrame(live, { action: 'messages', step_id: stepId, messages: rows }))
        setState({ hasOlder: hasMoreOf(answer) && rows.length > 0, loading: false })
      })
      .catch(() => {
        toast(t`Não foi possível obter as informações do chat ${stepId}`, 'danger')
        setState({ hasOlder: false, loading: false })
      })
      .finally(() => {
        busy.current = false
      })
  }, [stepId, oldest, t])
  return { ...state, load }
}

/** The centre column (spec 001 §2): header, buttons by compatibility, the messages and the input or its bar. */
export function RoomPane({ room, messages, userId, ringing, secondsLeft, unreadRetry, typing, onBack }: RoomPaneProps) {
  const { t } = useLingui()
  const { room: tell, socket } = useChatActors()
  const system = useAgentSystem()
  const navigate = useNavigate()
  const { params } = useLocale()
  const [draft, setDraft] = useState(() => drafts.get(room.id) ?? '')
  const [reply, setReply] = useState<ChatMessage | null>(null)
  const [dialog, setDialog] = useState<'close' | 'template' | 'location' | null>(null)
  const [preview, setPreview] = useState<{ url: string; type: 'photo' | 'video' } | null>(null)
  const [contacts, setContacts] = useState<ChatContact[] | null>(null)
  const unreadBar = useUnreadBar(room.id)
  const mp3 = useMemo(() => !canPlayOgg(), [])
  const ended = !!room.end || room.status === 'ended'
  // A classification form moves the close into the Classification tab (spec 001 §2).
  const forms = useQuery(chatFormsQuery(room.id))

  // The room's first page, each time it opens: the live data may hold none of it (a reload) or only part (a room
  // transferred to this agent arrives with the messages after the transfer); what the console lacks is added.
  const loaded = useQuery(roomMessagesQuery(room.id))
  useEffect(() => {
    const rows = messagesOf(loaded.data)
    if (rows.length) chatLive.set((state) => withHistory(state, room.id, rows))
  }, [loaded.data, room.id])
  const older = useOlderMessages(room.id, messages, loaded.data)
  useEffect(() => {
    if (loaded.error) toast(t`Não foi possível obter as informações do chat ${room.id}`, 'danger')
  }, [loaded.error, room.id, t])

  // Opening the room reads its unread messages.
  const unread = room.unread_messages
  useEffect(() => {
    if (!unread.length || ringing) return
    socket({ action: 'read_message', step_id: room.id, ids: [...unread] })
    chatLive.set((state) =>
      state.rooms[room.id] ? { ...state, rooms: { ...state.rooms, [room.id]: { ...state.rooms[room.id], unread_messages: [] } } } : state,
    )
  }, [room.id, unread, ringing, socket])

  const onResend = useCallback(
    (message: ChatMessage) => void resend(room, message, userId).catch(() => toast(t`Mensagem não enviada`, 'danger')),
    [room, userId, t],
  )

  const updateDraft = (text: string) => {
    // The website visitor sees the agent typing (the room actor sends it at most every 3 s; WhatsApp has no typing).
    if (room.channel.type === 'webchat' && text.length > draft.length && text.trim()) tell(room.id, { type: 'TYPED' })
    setDraft(text)
    drafts.set(room.id, text)
  }

  const dial = (phone: string) => {
    system?.get('webphone').send({ type: 'DIAL', number: phone })
    void navigate({ to: '/{-$locale}/phonecalls', params })
  }

  const compat = room.compatibility
  const writable = canWrite(room, messages)
  let footer
  if (ringing) {
    footer = (
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'center', p: 1.5, borderTop: '1px solid', borderColor: 'divider' }}>
        <Button color="success" onClick={() => tell(room.id, { type: 'ANSWER' })} data-testid="answer-chat">
          {t`Atender`}
        </Button>
        <Button color="danger" variant="soft" onClick={() => tell(room.id, { type: 'HANGUP' })} data-testid="reject-chat">
          {t`Desligar`}
        </Button>
      </Box>
    )
  } else if (ended) {
    footer = (
      <Box sx={{ bgcolor: 'danger.solidBg', color: 'danger.solidColor', p: 1.5, textAlign: 'center' }} data-testid="ended-bar">
        <Typography textColor="inherit" level="title-sm">
          {t`Este chat foi encerrado`}
          {secondsLeft !== undefined ? ` (${secondsLeft} s)` : ''}
        </Typography>
      </Box>
    )
  } else if (room.has_expired) {
    footer = (
      <Box sx={{ p: 1.5, textAlign: 'center', borderTop: '1px solid', borderColor: 'divider' }}>
        <Button color="warning" onClick={() => setDialog('template')} data-testid="expired-template">
          {t`Chat expirado envie um template para retornar o contato`}
        </Button>
      </Box>
    )
  } else if (!writable) {
    footer = (
      <Box sx={{ bgcolor: 'success.softBg', color: 'success.softColor', p: 1.5, textAlign: 'center' }} data-testid="waiting-bar">
        <Typography textColor="inherit" level="title-sm">
          {t`Aguardando resposta do template pelo cliente`}
        </Typography>
      </Box>
    )
  } else {
    footer = (
      <MessageInput
        draft={draft}
        onDraft={updateDraft}
        onSend={(text) => {
          updateDraft('')
          setReply(null)
          void sendText(room, text, reply, userId)
        }}
        attachments={compat.send_attachment}
        emoji={compat.emoji}
        voice={compat.send_voice}
        onAttach={(file) => void sendAttachment(room, file, file.name, false, userId)}
        onVoice={(recording) => void sendAttachment(room, recording, `voice-${Date.now()}.${recording.type.includes('ogg') ? 'ogg' : 'webm'}`, true, userId)}
        onLocation={() => setDialog('location')}
        replyTo={reply}
        onCancelReply={() => setReply(null)}
      />
    )
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="room-pane" data-room-id={room.id}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1, borderBottom: '1px solid', borderColor: 'divider', flexWrap: 'wrap' }}>
        {onBack && (
          <IconButton size="sm" variant="plain" aria-label={t`Voltar`} onClick={onBack} sx={{ display: { md: 'none' } }}>
            <ChevronLeftIcon />
          </IconButton>
        )}
        <Avatar src={room.avatar ?? undefined} alt={room.title} />
        <Box sx={{ flex: 1, minWidth: 160 }}>
          <Typography level="title-md" data-testid="room-title">
            {room.title || room.phone}
          </Typography>
          {typing && !ended && (
            <Typography level="body-xs" color="success" aria-live="polite" data-testid="room-typing">
              {t`digitando…`}
            </Typography>
          )}
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.25 }}>
            <Chip size="sm" variant="soft" color="primary">
              {room.channel.description}
            </Chip>
            {room.queue && (
              <Chip size="sm" variant="soft">
                {room.queue.description}
              </Chip>
            )}
            {room.subtitle && room.subtitle !== room.channel.description && (
              <Chip size="sm" variant="soft" sx={room.badge_color ? { bgcolor: room.badge_color, color: '#fff' } : undefined}>
                {room.subtitle}
              </Chip>
            )}
            {ended && (
              <Chip size="sm" color="danger">
                {t`Encerrado`}
              </Chip>
            )}
          </Box>
        </Box>
        <Box sx={{ display: 'flex', gap: 0.5 }}>
          {compat.btn_template && (
            <Button
              size="sm"
              variant="soft"
              startDecorator={<ChatBubbleIcon />}
              onClick={() => setDialog('template')}
              aria-label={t`Enviar template`}
              sx={HEADER_BUTTON}
              data-testid="send-template"
            >
              <Box component="span" sx={LABEL_FROM_SM}>
                {t`Enviar template`}
              </Box>
            </Button>
          )}
          {compat.btn_dial && room.phone && (
            <Button
              size="sm"
              variant="soft"
              color="success"
              startDecorator={<PhoneIcon />}
              onClick={() => dial(room.phone)}
              aria-label={t`Ligar`}
              sx={HEADER_BUTTON}
              data-testid="call-room"
            >
              <Box component="span" sx={LABEL_FROM_SM}>
                {t`Ligar`}
              </Box>
            </Button>
          )}
          {!ended && !ringing && !forms.data?.classification && (
            <Button
              size="sm"
              variant="soft"
              color="danger"
              startDecorator={<CloseIcon />}
              onClick={() => setDialog('close')}
              aria-label={t`Encerrar`}
              sx={HEADER_BUTTON}
              data-testid="close-room"
            >
              <Box component="span" sx={LABEL_FROM_SM}>
                {t`Encerrar`}
              </Box>
            </Button>
          )}
        </Box>
      </Box>
      {/* The CRM client of the room's number (features/crm, issue 17). */}
      <ChatClientBar phone={room.phone} />
      <MessageList
        messages={messages}
        showStatus={compat.show_message_status}
        mp3={mp3}
        unreadBar={unreadBar}
        retry={unreadRetry}
        onUnseen={() => tell(room.id, { type: 'CLIENT_MESSAGE_UNSEEN' })}
        onAtBottom={() => tell(room.id, { type: 'SCROLLED_TO_BOTTOM' })}
        hasOlder={older.hasOlder}
        loadingOlder={older.loading}
        onLoadOlder={older.load}
        onResend={onResend}
        onReply={ended ? undefined : setReply}
        onPreview={setPreview}
        onContacts={setContacts}
      />
      {footer}
      {dialog === 'close' && (
        <ConfirmDialog
          text={t`Você tem certeza que deseja encerrar?`}
          onNo={() => setDialog(null)}
          onYes={() => {
            // The room's machine checks the classification and the form (spec 001 §5), then closes.
            tell(room.id, { type: 'CLOSE' })
            setDialog(null)
          }}
        />
      )}
      {dialog === 'template' && (
        <Suspense fallback={null}>
          <TemplateDialog phone={room.phone} stepId={room.id} channelId={room.channel.id} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {dialog === 'location' && (
        <Suspense fallback={null}>
          <LocationDialog
            onClose={() => setDialog(null)}
            onSend={(location) => {
              setDialog(null)
              void sendLocation(room, location, userId)
            }}
          />
        </Suspense>
      )}
      {preview && <MediaPreviewDialog media={preview} onClose={() => setPreview(null)} />}
      {contacts && <ContactsDialog contacts={contacts} onCall={dial} onClose={() => setContacts(null)} />}
    </Box>
  )
}
