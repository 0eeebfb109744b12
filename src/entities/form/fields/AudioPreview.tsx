import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { audioPlayerPath } from '../../../../contract/api/sounds.ts'
import type { FormContext } from '../types.ts'

// The player under a prompt's or a music track's file (contract/api/sounds.ts): the saved file as callers hear it
// (the server's mp3 of the converted 8 kHz audio, through the authenticated audio path), or a file just chosen, played
// from the browser before it is uploaded.

type Props = { field: string; value: unknown; context: FormContext }

/** An object URL for a chosen file, revoked when it changes or the player goes. */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!blob) return setUrl(null)
    const made = URL.createObjectURL(blob)
    setUrl(made)
    return () => URL.revokeObjectURL(made)
  }, [blob])
  return url
}

export function AudioPreview({ field, value, context }: Props) {
  const { t } = useLingui()
  const entity = context.entity?.key
  const saved = typeof value === 'string' && value && entity && context.recordId ? audioPlayerPath(entity, field, context.recordId, value) : null
  const local = useObjectUrl(value instanceof Blob ? value : null)
  const src = local ?? saved
  if (!entity || !audioPlayerPath(entity, field, 0, '') || !src) return null
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, mt: 1 }}>
      <audio controls preload="none" src={src} aria-label={local ? t`Ouvir o arquivo escolhido` : t`Ouvir o áudio`} data-testid="audio-preview" style={{ width: '100%', maxWidth: 420 }} />
      <Typography level="body-xs" textColor="text.tertiary">
        {local ? t`Arquivo escolhido: será convertido para telefonia (8 kHz) ao salvar.` : t`Como quem liga ouve (telefonia, 8 kHz).`}
      </Typography>
    </Box>
  )
}
