import type React from 'react'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import Typography from '@mui/joy/Typography'
import { Trans } from '@lingui/react/macro'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import { CallerClientCard } from '../crm/CallerClientCard.tsx'
import { CallEndIcon } from './icons.tsx'
import type { CallView, WebphoneEvent } from './useWebphone.ts'

/** Keyboard shortcuts of the ringing dialog (its 'Atender' also has the focus: Enter answers). */
export const RINGING_SHORTCUTS = { answer: 'Alt+A', hangup: 'Alt+D' } as const

/**
 * Spec 000 §2: the first queued incoming call's phone and name, with answer and hang-up. 'Atender' takes the focus
 * (Enter answers); Alt+A answers and Alt+D hangs up from anywhere in the dialog.
 */
export function RingingDialog({ call, send }: { call: CallView; send: (event: WebphoneEvent) => void }) {
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (!event.altKey) return
    const key = event.key.toLowerCase()
    if (key === 'a') {
      event.preventDefault()
      send({ type: 'ANSWER', callId: call.id })
    } else if (key === 'd') {
      event.preventDefault()
      send({ type: 'HANGUP', callId: call.id })
    }
  }
  return (
    <Modal open disableEscapeKeyDown>
      <ModalDialog
        role="alertdialog"
        aria-labelledby="webphone-ringing-title"
        data-testid="webphone-ringing"
        sx={{ minWidth: 300, maxWidth: 400 }}
        onKeyDown={onKeyDown}
      >
        <DialogTitle id="webphone-ringing-title">
          <PhoneIcon />
          <Trans>Chamada recebida</Trans>
        </DialogTitle>
        <DialogContent>
          <Typography level="h3" data-testid="webphone-ringing-phone" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {call.phone}
          </Typography>
          {call.name && <Typography data-testid="webphone-ringing-name">{call.name}</Typography>}
          <CallerClientCard phone={call.phone} />
        </DialogContent>
        <DialogActions>
          <Button
            color="success"
            startDecorator={<PhoneIcon />}
            onClick={() => send({ type: 'ANSWER', callId: call.id })}
            data-testid="webphone-ringing-answer"
            autoFocus
            aria-keyshortcuts={RINGING_SHORTCUTS.answer}
            title={RINGING_SHORTCUTS.answer}
          >
            <Trans>Atender</Trans>
          </Button>
          <Button
            color="danger"
            variant="soft"
            startDecorator={<CallEndIcon />}
            onClick={() => send({ type: 'HANGUP', callId: call.id })}
            data-testid="webphone-ringing-hangup"
            aria-keyshortcuts={RINGING_SHORTCUTS.hangup}
            title={RINGING_SHORTCUTS.hangup}
          >
            <Trans>Desligar</Trans>
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
