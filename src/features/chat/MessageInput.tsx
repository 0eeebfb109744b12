import { useEffect, useRef, useState } from 'react'
import Box from '@mui/joy/Box'
import Dropdown from '@mui/joy/Dropdown'
import IconButton from '@mui/joy/IconButton'
import Menu from '@mui/joy/Menu'
import MenuButton from '@mui/joy/MenuButton'
import Textarea from '@mui/joy/Textarea'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import type { ChatMessage } from '../../../contract/api/chat.ts'
import { isBlank, sendsOnKey } from './chatText.ts'
import { AttachIcon, CloseIcon, EmojiIcon, MicIcon, PlaceIcon, SendIcon, StopIcon } from './icons.tsx'

const EMOJIS = ['😀', '😂', '😊', '😍', '😉', '🙂', '😢', '😮', '🙏', '👍', '👎', '👏', '🎉', '❤️', '✅', '❌', '⏰', '📞', '📎', '🚀']

export type MessageInputProps = {
  /** The draft, kept by the room between visits. */
  draft: string
  onDraft: (text: string) => void
  onSend: (text: string) => void
  /** The room allows attachments / emoji / voice (its compatibility). */
  attachments: boolean
  emoji: boolean
  voice: boolean
  onAttach?: (file: File) => void
  onVoice?: (recording: Blob) => void
  /** Opens the location dialog (shares a place). */
  onLocation?: () => void
  replyTo?: ChatMessage | null
  onCancelReply?: () => void
  disabled?: boolean
}

const OGG_OPUS = 'audio/ogg;codecs=opus'

/** Whether this browser can record a voice note. */
export function canRecordVoice(): boolean {
  return typeof window !== 'undefined' && typeof window.MediaRecorder !== 'undefined' && !!navigator.mediaDevices?.getUserMedia
}

/**
 * The input (spec 001 §5): Enter sends, with ctrl, shift, alt or meta it does not (a new line); blank never sends.
 * The send button shows when there is text or voice cannot be recorded; otherwise the record button.
 */
export function MessageInput({
  draft,
  onDraft,
  onSend,
  attachments,
  emoji,
  voice,
  onAttach,
  onVoice,
  onLocation,
  replyTo,
  onCancelReply,
  disabled,
}: MessageInputProps) {
  const { t } = useLingui()
  const file = useRef<HTMLInputElement>(null)
  const recorder = useRef<MediaRecorder | null>(null)
  const [recording, setRecording] = useState(false)
  const [seconds, setSeconds] = useState(0)
  const voiceSupported = voice && !!onVoice && canRecordVoice()
  const showSend = !isBlank(draft) || !voiceSupported

  useEffect(() => () => recorder.current?.stream.getTracks().forEach((track) => track.stop()), [])
  // The recording's length, shown beside the stop button as WhatsApp does.
  useEffect(() => {
    if (!recording) return
    const started = Date.now()
    setSeconds(0)
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 250)
    return () => clearInterval(timer)
  }, [recording])

  const send = () => {
    if (disabled || isBlank(draft)) return
    onSend(draft.trim())
  }

  async function toggleRecording() {
    if (recording) {
      recorder.current?.stop()
      return
    }
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true })
    const chunks: Blob[] = []
    // Ogg Opus where the browser records it (Firefox), else its default (Chromium: WebM/Opus, remuxed by the server).
    const media = new MediaRecorder(stream, MediaRecorder.isTypeSupported(OGG_OPUS) ? { mimeType: OGG_OPUS } : undefined)
    media.ondataavailable = (event) => chunks.push(event.data)
    media.onstop = () => {
      stream.getTracks().forEach((track) => track.stop())
      setRecording(false)
      recorder.current = null
      if (chunks.length) onVoice?.(new Blob(chunks, { type: media.mimeType || 'audio/webm' }))
    }
    recorder.current = media
    media.start()
    setRecording(true)
  }

  return (
    <Box sx={{ borderTop: '1px solid', borderColor: 'divider', p: 1, bgcolor: 'background.level1' }} data-testid="message-input">
      {replyTo && (
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5, pl: 1, borderLeft: '3px solid', borderColor: 'primary.400' }}
          data-testid="replying-to"
        >
          <Typography level="body-xs" sx={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {replyTo.content || replyTo.type}
          </Typography>
          <IconButton size="sm" variant="plain" aria-label={t`Cancelar resposta`} onClick={onCancelReply}>
            <CloseIcon />
          </IconButton>
        </Box>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
        {emoji && (
          <Dropdown>
            <MenuButton slots={{ root: IconButton }} slotProps={{ root: { variant: 'plain', color: 'neutral', 'aria-label': t`Emoji` } }} disabled={disabled}>
              <EmojiIcon />
            </MenuButton>
            <Menu placement="top-start" sx={{ p: 1, display: 'grid', gridTemplateColumns: 'repeat(5, 36px)', gap: 0.5 }}>
              {EMOJIS.map((symbol) => (
                <IconButton key={symbol} size="sm" variant="plain" onClick={() => onDraft(draft + symbol)} aria-label={symbol}>
                  {symbol}
                </IconButton>
              ))}
            </Menu>
          </Dropdown>
        )}
        {attachments && onAttach && (
          <>
            <IconButton variant="plain" color="neutral" aria-label={t`Anexar arquivo`} onClick={() => file.current?.click()} disabled={disabled}>
              <AttachIcon />
            </IconButton>
            <input
              ref={file}
              type="file"
              hidden
              data-testid="attachment-input"
              onChange={(event) => {
                const chosen = event.target.files?.[0]
                if (chosen) onAttach(chosen)
                event.target.value = ''
              }}
            />
          </>
        )}
        {onLocation && (
          <IconButton variant="plain" color="neutral" aria-label={t`Enviar localização`} onClick={onLocation} disabled={disabled} data-testid="location-button">
            <PlaceIcon />
          </IconButton>
        )}
        <Textarea
          value={draft}
          onChange={(event) => onDraft(event.target.value)}
          onKeyDown={(event) => {
            if (!sendsOnKey(event.nativeEvent)) return
            event.preventDefault()
            send()
          }}
          placeholder={t`Digite uma mensagem`}
          minRows={1}
          maxRows={6}
          disabled={disabled || recording}
          sx={{ flex: 1 }}
          slotProps={{ textarea: { 'aria-label': t`Mensagem`, 'data-testid': 'message-text' } }}
        />
        {showSend ? (
          <IconButton variant="solid" color="primary" aria-label={t`Enviar`} onClick={send} disabled={disabled || isBlank(draft)} data-testid="send-button">
            <SendIcon />
          </IconButton>
        ) : (
          <>
            {recording && (
              <Typography
                level="body-sm"
                textColor="danger.plainColor"
                sx={{ alignSelf: 'center', fontVariantNumeric: 'tabular-nums' }}
                data-testid="recording-time"
                role="timer"
                aria-label={t`Gravando`}
              >
                {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')}
              </Typography>
            )}
            <IconButton
              variant={recording ? 'solid' : 'soft'}
              color={recording ? 'danger' : 'primary'}
              aria-label={recording ? t`Parar gravação` : t`Gravar áudio`}
              onClick={() => void toggleRecording().catch(() => setRecording(false))}
              disabled={disabled}
              data-testid="record-button"
            >
              {recording ? <StopIcon /> : <MicIcon />}
            </IconButton>
          </>
        )}
      </Box>
    </Box>
  )
}
