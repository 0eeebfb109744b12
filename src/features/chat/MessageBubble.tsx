import { useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import IconButton from '@mui/joy/IconButton'
import Link from '@mui/joy/Link'
import Tooltip from '@mui/joy/Tooltip'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import type { ChatContact, ChatMessage } from '../../../contract/api/chat.ts'
import { dayjs } from '../../app/dates.ts'
import { attachmentUrl } from './chatApi.ts'
import { STATUS_LABELS, cutDocumentName, failureText, mapUrl } from './chatText.ts'
import { ConfirmDialog } from './ConfirmDialog.tsx'
import { ClockIcon, DocumentIcon, DoubleTickIcon, ErrorIcon, PlaceIcon, PlayIcon, ReplyIcon, TickIcon } from './icons.tsx'

export type BubbleProps = {
  message: ChatMessage
  /** The room shows delivery statuses (compatibility.show_message_status). */
  showStatus: boolean
  /** Voice and audio are asked for as mp3 (the browser cannot play OGG). */
  mp3: boolean
  onResend?: (message: ChatMessage) => void
  onReply?: (message: ChatMessage) => void
  onPreview?: (media: { url: string; type: 'photo' | 'video' }) => void
  onContacts?: (contacts: ChatContact[]) => void
}

function timeOf(iso: string): string {
  const date = dayjs(iso)
  return date.isValid() ? date.format('HH:mm') : ''
}

/** The delivery tick of an agent's visible message: clock, one tick, two ticks, two blue ticks, or the failure. */
export function DeliveryTick({ message, onResend }: { message: ChatMessage; onResend?: (message: ChatMessage) => void }) {
  const { t, i18n } = useLingui()
  const [confirm, setConfirm] = useState(false)
  const status = message.status
  if (!status) return null
  const label = i18n._(STATUS_LABELS[status])
  if (status === 'failed') {
    const tooltip = failureText(message, t`Erro externo`) || label
    return (
      <>
        <Tooltip title={tooltip} variant="soft" color="danger">
          <Button
            size="sm"
            variant="plain"
            color="danger"
            startDecorator={<ErrorIcon sx={{ fontSize: 16 }} />}
            onClick={() => onResend && setConfirm(true)}
            sx={{ minHeight: 0, py: 0, px: 0.5, fontSize: 'xs' }}
            data-testid="message-failed"
          >
            {label}
          </Button>
        </Tooltip>
        {confirm && (
          <ConfirmDialog
            text={t`Deseja reenviar esta mensagem?`}
            onNo={() => setConfirm(false)}
            onYes={() => {
              setConfirm(false)
              onResend?.(message)
            }}
          />
        )}
      </>
    )
  }
  const Icon = status === 'sending' ? ClockIcon : status === 'received' || status === 'consumed' ? DoubleTickIcon : TickIcon
  return (
    <Icon
      aria-label={label}
      data-testid={`tick-${status}`}
      data-status={status}
      sx={{ fontSize: 16, color: status === 'consumed' ? '#34B7F1' : 'text.tertiary', opacity: status === 'accepted' ? 0.6 : 1 }}
    />
  )
}

function MessageBody({ message, mp3, onPreview, onContacts }: Pick<BubbleProps, 'message' | 'mp3' | 'onPreview' | 'onContacts'>) {
  const { t } = useLingui()
  const url = message.attachment ?? (message.template_type ? message.template : null)
  const text = message.content ? (
    <Typography level="body-sm" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {message.content}
    </Typography>
  ) : null
  const kind = message.template_type === 'IMAGE' ? 'photo' : message.template_type === 'VIDEO' ? 'video' : message.type
  switch (kind) {
    case 'photo':
    case 'video':
      return (
        <>
          {url && (
            <Box
              component="button"
              type="button"
              onClick={() => onPreview?.({ url, type: kind })}
              aria-label={kind === 'photo' ? t`Ver imagem` : t`Ver vídeo`}
              sx={{ p: 0, border: 0, bgcolor: 'transparent', cursor: 'zoom-in', position: 'relative', display: 'block', width: 200, maxWidth: '100%' }}
              data-testid="media-thumbnail"
            >
              {kind === 'photo' ? (
                <img
                  src={url}
                  alt={message.attachment_name || t`Imagem`}
                  width={200}
                  style={{ width: 200, maxWidth: '100%', borderRadius: 8, display: 'block' }}
                  loading="lazy"
                />
              ) : (
                <>
                  <video src={url} width={200} preload="metadata" muted style={{ width: 200, maxWidth: '100%', borderRadius: 8, display: 'block' }} />
                  <PlayIcon sx={{ position: 'absolute', inset: 0, m: 'auto', fontSize: 40, color: '#fff', filter: 'drop-shadow(0 0 4px #0008)' }} />
                </>
              )}
            </Box>
          )}
          {text}
        </>
      )
    case 'audio':
    case 'voice':
      return url ? (
        <audio
          controls
          preload="none"
          src={mp3 ? attachmentUrl(url, { convert_to: 'mp3' }) : url}
          style={{ width: 260, maxWidth: '100%' }}
          data-testid="audio-player"
        />
      ) : (
        text
      )
    case 'document':
      return (
        <>
          {url && (
            <Link
              href={attachmentUrl(url, { download: '1' })}
              startDecorator={<DocumentIcon />}
              title={message.attachment_name}
              level="body-sm"
              data-testid="document-link"
            >
              {cutDocumentName(message.attachment_name || t`Documento`)}
            </Link>
          )}
          {text}
        </>
      )
    case 'location': {
      const location = message.location
      if (!location) return text
      // No map tiles from a third party: a 300 px panel with the place and a link that opens the map.
      return (
        <Box
          sx={{
            height: 300,
            width: 260,
            maxWidth: '100%',
            borderRadius: 8,
            bgcolor: 'neutral.softBg',
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 1,
            p: 2,
            textAlign: 'center',
          }}
          data-testid="location"
        >
          <PlaceIcon sx={{ fontSize: 48, color: 'danger.500' }} />
          {location.name && <Typography level="title-sm">{location.name}</Typography>}
          {location.address && <Typography level="body-xs">{location.address}</Typography>}
          <Typography level="body-xs" textColor="text.tertiary">
            {location.latitude.toFixed(5)}, {location.longitude.toFixed(5)}
          </Typography>
          <Link href={mapUrl(location.latitude, location.longitude)} target="_blank" rel="noopener noreferrer" level="body-sm">
            {t`Abrir no mapa`}
          </Link>
        </Box>
      )
    }
    case 'contact':
      return (
        <Box>
          {message.contacts.map((contact, index) => (
            <Typography key={index} level="body-sm">
              {contact.full_name} · {contact.phone}
            </Typography>
          ))}
          <Button size="sm" variant="soft" sx={{ mt: 0.5 }} onClick={() => onContacts?.(message.contacts)} data-testid="contact-card">
            {t`Ver contato`}
          </Button>
        </Box>
      )
    default:
      return text
  }
}

/** One message (spec 001 §2 "Message bubble", §4 "Message delivery"): 70 % wide at most, the agent's on the right. */
export function MessageBubble({ message, showStatus, mp3, onResend, onReply, onPreview, onContacts }: BubbleProps) {
  const { t } = useLingui()
  if (message.type === 'system' || message.sent_by === 'system') {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', my: 0.5 }} data-testid="message-system">
        <Typography level="body-xs" variant="soft" sx={{ px: 1.5, py: 0.5, borderRadius: 12, maxWidth: '70%', textAlign: 'center' }}>
          {message.content}
        </Typography>
      </Box>
    )
  }
  const mine = message.sent_by === 'agent'
  const replied = message.is_reply ? message.replied_message : null
  return (
    <Box sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', my: 0.5 }} data-testid="message" data-message-id={message.id}>
      <Box
        sx={{
          maxWidth: '70%',
          px: 1.25,
          py: 0.75,
          borderRadius: 10,
          borderTopRightRadius: mine ? 2 : 10,
          borderTopLeftRadius: mine ? 10 : 2,
          bgcolor: mine ? 'primary.softBg' : 'background.surface',
          border: '1px solid',
          borderColor: mine ? 'primary.outlinedBorder' : 'divider',
          boxShadow: 'xs',
          opacity: message.visible ? 1 : 0.85,
          position: 'relative',
          '&:hover .reply-button': { opacity: 1 },
        }}
        style={{ width: 'fit-content' }}
        data-sent-by={message.sent_by}
      >
        {message.name && (
          <Typography level="body-xs" fontWeight="lg" textColor={mine ? 'primary.plainColor' : 'success.plainColor'}>
            {message.name}
          </Typography>
        )}
        {replied && (
          <Box
            sx={{ borderLeft: '3px solid', borderColor: 'primary.400', pl: 1, mb: 0.5, bgcolor: 'background.level1', borderRadius: 4 }}
            data-testid="reply-quote"
          >
            <Typography
              level="body-xs"
              sx={{ overflow: 'hidden', textOverflow: 'ellipsis', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical' }}
            >
              {replied.content || replied.type}
            </Typography>
          </Box>
        )}
        <MessageBody message={message} mp3={mp3} onPreview={onPreview} onContacts={onContacts} />
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 0.5, mt: 0.25, whiteSpace: 'nowrap', flexWrap: 'wrap' }}>
          {!message.visible && (
            <Typography level="body-xs" color="warning" data-testid="not-visible">
              {t`Não visível para o cliente`}
            </Typography>
          )}
          <Typography level="body-xs" textColor="text.tertiary">
            {timeOf(message.datetime)}
          </Typography>
          {mine && message.visible && showStatus && <DeliveryTick message={message} onResend={onResend} />}
        </Box>
        {onReply && message.can_reply && message.id > 0 && (
          <IconButton
            className="reply-button"
            size="sm"
            variant="soft"
            aria-label={t`Responder`}
            onClick={() => onReply(message)}
            sx={{ position: 'absolute', top: 2, [mine ? 'left' : 'right']: -36, opacity: 0, transition: 'opacity .15s', '&:focus-visible': { opacity: 1 } }}
          >
            <ReplyIcon />
          </IconButton>
        )}
      </Box>
    </Box>
  )
}
