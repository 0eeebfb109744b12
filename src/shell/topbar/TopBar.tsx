import Box from '@mui/joy/Box'
import IconButton from '@mui/joy/IconButton'
import Sheet from '@mui/joy/Sheet'
import { BoxLink } from '../../components/links.tsx'
import { useLingui } from '@lingui/react/macro'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { moduleOn } from '../../../contract/modules.ts'
import { useProfile } from '../../api/useProfile.ts'
import { useLocale } from '../../app/useLocale.ts'
import { schemeOn } from '../../app/theme.ts'
import { PauseWidget } from '../../features/presence/PauseWidget.tsx'
import { LockScreenButton } from '../../features/presence/PresenceOverlays.tsx'
import { WebphoneWidget } from '../../features/webphone/WebphoneWidget.tsx'
import { MenuIcon } from '../../components/icons/icons.tsx'
import { NotificationsMenu } from './NotificationsMenu.tsx'
import { QueuedChatsGate } from '../../features/chat/QueuedChatsGate.tsx'
import { PreviewLeadCard } from '../../features/dialer/PreviewLeadCard.tsx'
import { FullscreenButton } from './FullscreenButton.tsx'
import { LanguageMenu } from './LanguageMenu.tsx'

/**
 * Logo (→ /dashboard), then the controls the user's permissions allow, then the language menu; on a phone (390 px)
 * the logo is the mark alone and the full-screen toggle is left out, so every control stays on the screen.
 */
export function TopBar({ onOpenDrawer }: { onOpenDrawer: () => void }) {
  const { t } = useLingui()
  const { params } = useLocale()
  const { roles, site } = useProfile()
  // The site's modules (system/base/modules): telephony off takes the webphone away, chat off the queued-chat card.
  const telephony = has(roles, PERMISSIONS.viewSoftphone) && moduleOn(site?.modules, 'telephony')
  const chat = has(roles, PERMISSIONS.viewChat) && moduleOn(site?.modules, 'chat')
  return (
    <Sheet
      component="header"
      data-joy-color-scheme={schemeOn(site?.settings?.header_color)}
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        height: 64,
        px: { xs: 1, sm: 1.5, md: 3 },
        display: 'flex',
        alignItems: 'center',
        gap: { xs: 0.5, sm: 1 },
        bgcolor: 'var(--atende-header-bg, rgba(255,255,255,0.86))',
        backdropFilter: 'saturate(180%) blur(8px)',
        borderBottom: '1px solid',
        borderColor: 'divider',
      }}
    >
      <IconButton variant="plain" color="neutral" onClick={onOpenDrawer} aria-label={t`Abrir menu`} sx={{ display: { md: 'none' } }}>
        <MenuIcon />
      </IconButton>
      <BoxLink to="/{-$locale}/dashboard" params={params} aria-label={t`Painel`} sx={{ display: 'flex', alignItems: 'center' }} data-testid="logo">
        {/* On a phone the mark alone: the name would push the controls off the screen (390 px). */}
        <picture style={{ display: 'flex' }}>
          <source media="(max-width: 599.95px)" srcSet="/logo-mark.svg" />
          <img src="/logo.svg" alt="Atende" height={32} />
        </picture>
      </BoxLink>
      <Box sx={{ flex: 1 }} />
      {/* The queued-chat card sits in the bar's row, left of the controls: it never covers the page. */}
      {chat && <QueuedChatsGate />}
      {telephony && moduleOn(site?.modules, 'dialer') && <PreviewLeadCard />}
      {has(roles, PERMISSIONS.viewTakeBreak) && <PauseWidget />}
      {telephony && <WebphoneWidget />}
      <LockScreenButton />
      {has(roles, PERMISSIONS.viewNotification) && <NotificationsMenu />}
      {has(roles, PERMISSIONS.viewFullscreen) && <FullscreenButton />}
      <LanguageMenu />
    </Sheet>
  )
}
