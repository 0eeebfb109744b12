import Box from '@mui/joy/Box'
import IconButton from '@mui/joy/IconButton'
import Link from '@mui/joy/Link'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { VoicemailMessage } from '../../../contract/api/voicemail.ts'
import { DeleteIcon, MailIcon } from '../../components/icons/icons.tsx'
import { deleteVoicemail, markVoicemailHeard, VOICEMAIL_KEY } from '../../features/voicemail/voicemailApi.ts'

const mmss = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`

/** One unheard voicemail in the bell: who left it, when and how long, its player, download, heard and delete. */
export function VoicemailNotification({ message }: { message: VoicemailMessage }) {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const done = () => void queryClient.invalidateQueries({ queryKey: VOICEMAIL_KEY })
  const heard = useMutation({ mutationFn: () => markVoicemailHeard(message.id), onSettled: done })
  const remove = useMutation({ mutationFn: () => deleteVoicemail(message.id), onSettled: done })
  const who = message.phone || message.caller || t`Número desconhecido`
  const when = new Date(message.created).toLocaleString(i18n.locale, { dateStyle: 'short', timeStyle: 'short' })
  return (
    <Box data-voicemail={message.id} sx={{ px: 2, py: 1.25, display: 'grid', gap: 0.75, borderBottom: '1px solid', borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <MailIcon fontSize="md" color="primary" />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography level="body-sm" fontWeight="lg">{t`Recado de ${who}`}</Typography>
          <Typography level="body-xs" textColor="text.tertiary">
            {message.voicemail_name} · {when} · {mmss(message.duration)}
          </Typography>
        </Box>
        <IconButton size="sm" variant="plain" color="danger" aria-label={t`Apagar recado`} disabled={remove.isPending} onClick={() => remove.mutate()}>
          <DeleteIcon />
        </IconButton>
      </Box>
      <audio controls preload="none" src={message.audio} style={{ width: '100%', height: 32 }} onEnded={() => heard.mutate()} aria-label={t`Ouvir recado`} />
      <Box sx={{ display: 'flex', gap: 2 }}>
        <Link level="body-xs" href={`${message.audio}?download=1`} download>
          {t`Baixar (mp3)`}
        </Link>
        <Link level="body-xs" component="button" disabled={heard.isPending} onClick={() => heard.mutate()}>
          {t`Marcar como ouvido`}
        </Link>
      </Box>
    </Box>
  )
}
