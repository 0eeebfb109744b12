import { useState } from 'react'
import Box from '@mui/joy/Box'
import Drawer from '@mui/joy/Drawer'
import { Outlet } from '@tanstack/react-router'
import { useProfile } from '../api/useProfile.ts'
import { AgentSystemProvider } from '../app/agentSystemContext.tsx'
import { PresenceOverlays, servesCustomers } from '../features/presence/PresenceOverlays.tsx'
import { ServiceOwnershipPanel } from '../features/presence/ServiceOwnershipPanel.tsx'
import { Footer } from './Footer.tsx'
import { ScrollTopButton } from './ScrollTopButton.tsx'
import { MENU_WIDTH, SideMenu } from './menu/SideMenu.tsx'
import { MAIN_ID, SkipLink } from './SkipLink.tsx'
import { TopBar } from './topbar/TopBar.tsx'

const MINI_KEY = 'atende:menu-mini'

/**
 * The default layout: side menu (mini mode on desktop, a drawer on small screens), top bar, page, footer; the signed-in
 * user's agent system (presence actors) runs while it is mounted.
 */
export function DefaultLayout() {
  const profile = useProfile()
  const [mini, setMini] = useState(() => localStorage.getItem(MINI_KEY) === '1')
  const [drawer, setDrawer] = useState(false)
  const toggleMini = () => {
    localStorage.setItem(MINI_KEY, mini ? '0' : '1')
    setMini(!mini)
  }
  const width = mini ? MENU_WIDTH.mini : MENU_WIDTH.full
  return (
    <AgentSystemProvider>
      <Box sx={{ display: 'flex', minHeight: '100dvh', bgcolor: 'var(--atende-body-bg, var(--joy-palette-background-body))' }}>
        <SkipLink />
        <Box
          component="aside"
          data-mini={mini ? 'true' : 'false'}
          sx={{ display: { xs: 'none', md: 'block' }, width, flexShrink: 0, position: 'sticky', top: 0, height: '100dvh', transition: 'width 180ms ease' }}
        >
          <SideMenu mini={mini} onToggleMini={toggleMini} />
        </Box>
        <Drawer open={drawer} onClose={() => setDrawer(false)} size="sm" slotProps={{ content: { sx: { width: MENU_WIDTH.full } } }}>
          <SideMenu mini={false} onNavigate={() => setDrawer(false)} />
        </Drawer>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <TopBar onOpenDrawer={() => setDrawer(true)} />
          <Box component="main" id={MAIN_ID} tabIndex={-1} sx={{ flex: 1, p: { xs: 2, md: 4 }, width: '100%', maxWidth: 1440, mx: 'auto', outline: 'none' }}>
            {servesCustomers(profile.roles) && <ServiceOwnershipPanel />}
            <Outlet />
          </Box>
          <Footer settings={profile.site?.settings} />
        </Box>
        <ScrollTopButton />
        <PresenceOverlays />
      </Box>
    </AgentSystemProvider>
  )
}
