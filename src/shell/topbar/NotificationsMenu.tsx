import Badge from '@mui/joy/Badge'
import Box from '@mui/joy/Box'
import Dropdown from '@mui/joy/Dropdown'
import IconButton from '@mui/joy/IconButton'
import Menu from '@mui/joy/Menu'
import MenuButton from '@mui/joy/MenuButton'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { useProfile } from '../../api/useProfile.ts'
import { useStore } from '../../app/store.ts'
import { BellIcon, CloseIcon } from '../../components/icons/icons.tsx'
import { unheardVoicemailQuery } from '../../features/voicemail/voicemailApi.ts'
import { closeNotification, notifications } from './notificationStore.ts'
import { VoicemailNotification } from './VoicemailNotifications.tsx'

/** Who may have voicemail: an extension's owner (the softphone) or whoever sees every box. */
const VOICEMAIL_VIEW = 'pabx.view_voicemail'

/** The bell: the unheard voicemails of the user's boxes (player, download, heard, delete), then notification titles. */
export function NotificationsMenu() {
  const { t, i18n } = useLingui()
  const list = useStore(notifications)
  const { roles } = useProfile()
  const voicemail = useQuery({ ...unheardVoicemailQuery(), enabled: has(roles, PERMISSIONS.viewSoftphone) || roles.includes(VOICEMAIL_VIEW) })
  const unheard = voicemail.data?.results ?? []
  const total = list.length + (voicemail.data?.unheard ?? 0)
  return (
    <Dropdown>
      <MenuButton
        slots={{ root: IconButton }}
        slotProps={{ root: { variant: 'plain', color: 'neutral', size: 'md' } }}
        aria-label={t`Notificações`}
        data-testid="notifications"
      >
        <Badge badgeContent={total} color="danger" size="sm" invisible={!total}>
          <BellIcon />
        </Badge>
      </MenuButton>
      <Menu placement="bottom-end" sx={{ width: 340, maxWidth: '92vw', p: 0, zIndex: 'var(--joy-zIndex-popup)' }}>
        <Box sx={{ px: 2, py: 1.25, borderBottom: '1px solid', borderColor: 'divider' }}>
          <Typography level="title-sm">{t`Notificações`}</Typography>
        </Box>
        {unheard.map((message) => (
          <VoicemailNotification key={`vm-${message.id}`} message={message} />
        ))}
        {list.length === 0 && unheard.length === 0 && (
          <Typography level="body-sm" textColor="text.tertiary" sx={{ px: 2, py: 2 }}>
            {t`Nenhuma notificação`}
          </Typography>
        )}
        {list.map((n) => (
          <Box
            key={n.id}
            data-notification={n.id}
            sx={{
              display: 'flex',
              alignItems: 'flex-start',
              gap: 1,
              px: 2,
              py: 1.25,
              '&:not(:last-child)': { borderBottom: '1px solid', borderColor: 'divider' },
            }}
          >
            <Box sx={{ width: 8, height: 8, mt: 0.9, borderRadius: '50%', bgcolor: 'primary.500', flexShrink: 0 }} />
            <Typography level="body-sm" sx={{ flex: 1 }}>
              {typeof n.title === 'string' ? n.title : i18n._(n.title)}
            </Typography>
            <IconButton size="sm" variant="plain" color="neutral" aria-label={t`Fechar`} onClick={() => closeNotification(n.id)}>
              <CloseIcon />
            </IconButton>
          </Box>
        ))}
      </Menu>
    </Dropdown>
  )
}
