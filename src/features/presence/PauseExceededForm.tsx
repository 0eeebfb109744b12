import { useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import Textarea from '@mui/joy/Textarea'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { PAUSE_REASON_MAX } from '../../../contract/api/agent.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { useAgentActor } from '../../app/agentSystemContext.tsx'
import { HourglassIcon } from './icons.tsx'
import { pauseName } from './pauseView.ts'
import { useDescribedPause } from './presenceApi.ts'
import { usePauseTypes } from './usePauseTypes.ts'

// The form of 'Pausa excedente' (PauseExceededDialog.tsx). Its own chunk: Joy's Textarea is for the rare exceeded
// pause, not for every signed-in page (the chunk loads while a pause with a maximum runs).

type Props = { submitting: boolean; seconds: number; pauseId: number | string | null; maximum: number }

export function ExceededForm({ submitting, seconds, pauseId, maximum }: Props) {
  const { t } = useLingui()
  const actor = useAgentActor('pause')
  const types = usePauseTypes()
  const described = useDescribedPause(true)
  const [reason, setReason] = useState('')
  const name = pauseName(pauseId, types, described) ?? t`Pausa`
  const elapsed = formatDuration(seconds)
  const limit = formatDuration(maximum)
  const blank = reason.trim().length === 0
  return (
    <Modal open disableEscapeKeyDown>
      <ModalDialog
        layout="fullscreen"
        role="alertdialog"
        aria-labelledby="pause-exceeded-title"
        data-testid="pause-exceeded"
        sx={{ alignItems: 'center', justifyContent: 'center' }}
      >
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            if (!blank) actor.send({ type: 'JUSTIFY', reason })
          }}
          sx={{ width: '100%', maxWidth: 560, display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          <Typography id="pause-exceeded-title" level="h2" color="danger" startDecorator={<HourglassIcon />}>
            <Trans>Pausa excedente</Trans>
          </Typography>
          <Typography level="body-lg">
            <Trans>
              A pausa {name} passou da duração máxima de {limit} e já dura {elapsed}. Justifique o excesso para sair da pausa.
            </Trans>
          </Typography>
          <FormControl required error={blank}>
            <FormLabel>
              <Trans>Justificativa</Trans>
            </FormLabel>
            <Textarea
              name="reason"
              minRows={4}
              autoFocus
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              slotProps={{ textarea: { maxLength: PAUSE_REASON_MAX } }}
            />
            <FormHelperText>{blank ? t`Este campo é obrigatório` : `${reason.length}/${PAUSE_REASON_MAX}`}</FormHelperText>
          </FormControl>
          <Button type="submit" size="lg" color="danger" loading={submitting} disabled={blank} data-testid="pause-justify">
            <Trans>Confirmar</Trans>
          </Button>
        </Box>
      </ModalDialog>
    </Modal>
  )
}
