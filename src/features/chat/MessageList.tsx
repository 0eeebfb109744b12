import { Fragment, memo, useEffect, useLayoutEffect, useRef, useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import CircularProgress from '@mui/joy/CircularProgress'
import { useLingui } from '@lingui/react/macro'
import { useVirtualizer } from '@tanstack/react-virtual'
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
  /** Older messages exist on the server: asked for when the agent scrolls near the top. */
  hasOlder?: boolean
  loadingOlder?: boolean
  onLoadOlder?: () => void
  onResend?: (message: ChatMessage) => void
  onReply?: (message: ChatMessage) => void
  onPreview?: (media: { url: string; type: 'photo' | 'video' }) => void
  onContacts?: (contacts: ChatContact[]) => void
  height?: number | string
  /**
   * Every bubble in the DOM, in flow (the room viewer: a page of the conversation that the PDF export and the screen
   * capture draw whole). The agent's room is virtualised.
   */
  plain?: boolean
}

const NEAR_BOTTOM_PX = 48
/** Older messages are asked for when fewer than this many rows are above the first one drawn. */
const LOAD_OLDER_ROWS = 8
/** A text bubble with its time, before it is measured. */
const ESTIMATED_ROW_PX = 84

const Bubble = memo(MessageBubble)

/**
 * The conversation (spec 001 §4 "Room viewer and scrolling"), virtualised: only the bubbles in view (plus a few) are
 * in the DOM, so a room of thousands of messages opens and scrolls like a short one. The list is anchored to its end
 * (`anchorTo: 'end'`): it follows new messages while the agent is at the bottom, and older pages put above keep the
 * bubble the agent reads where it is. When a client message arrives while the agent reads above, the 'unread
 * messages' bar shows (the room actor owns it and retries it after 10 s).
 */
export function MessageList({
  messages,
  showStatus,
  mp3,
  unreadBar,
  retry,
  onUnseen,
  onAtBottom,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  height = '100%',
  plain = false,
  onResend,
  onReply,
  onPreview,
  onContacts,
}: Props) {
  const { t } = useLingui()
  const box = useRef<HTMLDivElement>(null)
  const [atBottom, setAtBottom] = useState(true)
  const last = messages.at(-1)
  const rows = useRef(messages)
  rows.current = messages

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => box.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => {
      const message = rows.current[index]
      return message ? message.uid || message.id : index
    },
    overscan: 6,
    paddingStart: 8,
    paddingEnd: 8,
    enabled: !plain,
    anchorTo: 'end',
    // Scrolling re-renders in React's own time instead of synchronously on every scroll event.
    useFlushSync: false,
    followOnAppend: true,
    scrollEndThreshold: NEAR_BOTTOM_PX,
  })

  // Opening the room shows its end.
  const opened = useRef(false)
  useLayoutEffect(() => {
    if (opened.current || !messages.length) return
    opened.current = true
    virtualizer.scrollToEnd()
  }, [messages.length, virtualizer])

  useLayoutEffect(() => {
    if (!last || !opened.current) return
    // The agent's own message always brings the list down; a client's while they read above raises the bar.
    if (last.sent_by === 'agent' && !atBottom) virtualizer.scrollToEnd()
    else if (!atBottom && last.sent_by === 'client') onUnseen?.()
    // Only a new last message moves the list.
  }, [last?.id, last?.uid]) // eslint-disable-line react-hooks/exhaustive-deps

  // The plain list (the viewer) follows its end by hand.
  useLayoutEffect(() => {
    const element = box.current
    if (plain && element && atBottom) element.scrollTop = element.scrollHeight
  }, [plain, last?.id, last?.uid]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!retry || !box.current) return
    // The actor's retry: if the agent came back near the bottom meanwhile, follow again.
    if (virtualizer.isAtEnd(NEAR_BOTTOM_PX * 3)) virtualizer.scrollToEnd()
  }, [retry, virtualizer])

  // One bubble, however the list lays it out (in flow for the viewer, positioned rows for the room).
  const bubble = (message: ChatMessage) => (
    <Bubble message={message} showStatus={showStatus} mp3={mp3} onResend={onResend} onReply={onReply} onPreview={onPreview} onContacts={onContacts} />
  )

  const items = virtualizer.getVirtualItems()
  const firstShown = items[0]?.index ?? 0
  useEffect(() => {
    if (hasOlder && !loadingOlder && opened.current && messages.length && firstShown < LOAD_OLDER_ROWS && !virtualizer.isAtEnd(NEAR_BOTTOM_PX)) onLoadOlder?.()
  }, [firstShown, hasOlder, loadingOlder, messages.length, onLoadOlder, virtualizer])

  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 0, height }}>
      <Box
        ref={box}
        role="log"
        aria-live="polite"
        aria-label={t`Mensagens`}
        aria-busy={loadingOlder || undefined}
        onScroll={(event) => {
          const element = event.currentTarget
          const bottom = plain ? element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX : virtualizer.isAtEnd(NEAR_BOTTOM_PX)
          if (bottom !== atBottom) {
            setAtBottom(bottom)
            if (bottom) onAtBottom?.()
          }
        }}
        sx={{ height: '100%', overflowY: 'auto', overflowAnchor: 'none', px: { xs: 1, md: 5 }, bgcolor: 'background.level1', contain: 'strict' }}
        data-testid="message-list"
        data-count={messages.length}
      >
        {plain ? (
          <Box sx={{ py: 1 }} data-export-rows>
            {messages.map((message) => (
              <Fragment key={message.uid || message.id}>{bubble(message)}</Fragment>
            ))}
          </Box>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
            {items.map((item) => {
              const message = messages[item.index]
              if (!message) return null
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)`, display: 'flow-root' }}
                >
                  {bubble(message)}
                </div>
              )
            })}
          </div>
        )}
      </Box>
      {loadingOlder && (
        <CircularProgress
          size="sm"
          sx={{ position: 'absolute', top: 8, left: '50%', transform: 'translateX(-50%)' }}
          aria-label={t`Carregando mensagens anteriores`}
          data-testid="loading-older"
        />
      )}
      {unreadBar && !atBottom && (
        <Button
          size="sm"
          color="success"
          onClick={() => virtualizer.scrollToEnd()}
          sx={{ position: 'absolute', bottom: 12, left: '50%', transform: 'translateX(-50%)', borderRadius: 20, boxShadow: 'md' }}
          data-testid="unread-bar"
        >
          {t`Mensagens não lidas`}
        </Button>
      )}
    </Box>
  )
}
