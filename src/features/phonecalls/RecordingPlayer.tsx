import { useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import CircularProgress from '@mui/joy/CircularProgress'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { recordingUrl } from './callsApi.ts'
import { DownloadIcon } from './icons.tsx'

type State = 'loading' | 'ready' | 'error'

/**
 * The call's recording (spec 001 §7): an <audio> element on the player's media path (`file_response=false`) and the
 * mp3 download (`download=1&extension=mp3`). 'Carregando o arquivo de áudio, aguarde...' until the browser can play
 * it; a failed load (no recording: the call was not answered or not recorded) shows the spec's message instead.
 * The caller renders it only for holders of download_monitor_file.
 */
export function RecordingPlayer({ callId }: { callId: string }) {
  const { t } = useLingui()
  const [state, setState] = useState<State>('loading')
  return (
    <Box data-testid="recording-player" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      {state === 'loading' && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <CircularProgress size="sm" />
          <Typography level="body-sm">{t`Carregando o arquivo de áudio, aguarde...`}</Typography>
        </Box>
      )}
      {state === 'error' && (
        <Typography level="body-sm" color="warning" role="alert" data-testid="recording-error">
          {t`Não foi possível carregar o arquivo de áudio, verifique se a chamada foi atendida.`}
        </Typography>
      )}
      {state !== 'error' && (
        <Box sx={{ display: state === 'ready' ? 'flex' : 'none', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <audio
            controls
            preload="auto"
            src={recordingUrl(callId, 'play')}
            aria-label={t`Gravação da chamada`}
            onCanPlay={() => setState('ready')}
            onLoadedMetadata={() => setState('ready')}
            onError={() => setState('error')}
            style={{ flex: '1 1 280px', minWidth: 0 }}
          />
          <Button component="a" href={recordingUrl(callId, 'download')} download size="sm" variant="outlined" color="neutral" startDecorator={<DownloadIcon />}>
            {t`Baixar gravação`}
          </Button>
        </Box>
      )}
    </Box>
  )
}
