import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import { useLingui } from '@lingui/react/macro'
import type { ChatContact, ChatMessage } from '../../../contract/api/chat.ts'
import { MessageBubble } from './MessageBubble.tsx'

type Props = {
  messages: readonly ChatMessage[]
  showStatus: boolean
  mp3: boolean
  /** The room actor's unread bar is up. */
  unreadBar?: boolean
  /** Bumped by the room actor every 10 s while the bar is up: try scrolling again. */
  retry?: number
  /** The last message is the client's and the agent is scrolled up / is at the bottom again. */
  onUnseen?: () => void
  onAtBottom?: () => void
  onResend?: (message: ChatMessage) => void
  onReply?: (message: ChatMessage) => void
  onPreview?: (media: { url: string; type: 'photo' | 'video' }) => void
  onContacts?: (contacts: ChatContact[]) => void
  height?: number | string
}

const NEAR_BOTTOM_PX = 48

/**
 * The conversation (spec 001 §4 "Room viewer and scrolling"): it follows new messages while the agent is at the
 * bottom; when a client message arrives while the agent reads above, the 'unread messages' bar shows (the room actor
 * owns it and retries it after 10 s).
 */
export function MessageList({ messages, showStatus, mp3, unreadBar, retry, onUnseen, onAtBottom, height = '100%', ...bubble }: Props) {
  const { t } = useLingui()
  const box = useRef<HTMLDivElement>(null)
  const [atBottom, setAtBottom] = useState(true)
  const last = messages.at(-1)

  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    if (atBottom || last?.sent_by === 'agent') element.scrollTop = element.scrollHeight
    else if (last?.sent_by === 'client') onUnseen?.()
    // Only a new last message moves the list.
  }, [last?.id, last?.uid]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!retry || !box.current) return
    // The actor's retry: if the agent came back near the bottom meanwhile, follow again.
    const element = box.current
    if (element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX * 3) element.scrollTop = element.scrollHeight
  }, [retry])

  const scrollDown = () => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight
  }

  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 0, height }}>
      <Box
        ref={box}
        role="log"
        aria-live="polite"
        aria-label={t`Mensagens`}
        onScroll={(event) => {
          const element = event.currentTarget
          const bottom = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX
          if (bottom !== atBottom) {
            setAtBottom(bottom)
            if (bottom) onAtBottom?.()
          }
        }}
        sx={{ height: '100%', overflowY: 'auto', px: { xs: 1, md: 5 }, py: 1, bgcolor: 'background.level1' }}
        data-testid="message-list"
      >
        {messages.map((message) => (
          <MessageBubble key={message.uid || message.id} message={message} showStatus={showStatus} mp3={mp3} {...bubble} />
        ))}
      </Box>
      {unreadBar && !atBottom && (
        <Button
          size="sm"
          color="success"
          onClick={scrollDown}
          sx={{ position: 'absolute', bottom: 12, left: '50%', transform: 'translateX(-50%)', borderRadius: 20, boxShadow: 'md' }}
          data-testid="unread-bar"
        >
          {t`Mensagens não lidas`}
        </Button>
      )}
    </Box>
  )
}
