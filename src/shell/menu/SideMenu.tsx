import { useMemo, useState } from 'react'
import Avatar from '@mui/joy/Avatar'
import Box from '@mui/joy/Box'
import IconButton from '@mui/joy/IconButton'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import ListItemButton from '@mui/joy/ListItemButton'
import ListItemContent from '@mui/joy/ListItemContent'
import ListItemDecorator from '@mui/joy/ListItemDecorator'
import Sheet from '@mui/joy/Sheet'
import Tooltip from '@mui/joy/Tooltip'
import Typography from '@mui/joy/Typography'
import { BoxLink } from '../../components/links.tsx'
import { useLingui } from '@lingui/react/macro'
import { displayName, useProfile } from '../../api/useProfile.ts'
import { useLocale } from '../../app/useLocale.ts'
import { schemeOn } from '../../app/theme.ts'
import { MENU } from './menuItems.ts'
import { filterMenu } from './filterMenu.ts'
import { useInteractionTypes, withInteractionTypes } from './interactionMenu.ts'
import { useBuilderMenu, withBuilderMenus } from '../../features/builder/builderMenu.ts'
import { SideMenuItems } from './SideMenuItems.tsx'
import { ChevronLeftIcon, ChevronRightIcon, LogoutIcon, PhoneIcon } from '../../components/icons/icons.tsx'
import { LogoutDialog } from './LogoutDialog.tsx'
import { useStore } from '../../app/store.ts'
import { chatLive, unreadCount } from '../../features/chat/chatLive.ts'

export const MENU_WIDTH = { full: 288, mini: 76 } as const

function UserCard({ mini, onNavigate }: { mini: boolean; onNavigate?: () => void }) {
  const profile = useProfile()
  const { params } = useLocale()
  const name = displayName(profile)
  const endpoint = profile.voip?.endpoint
  return (
    <BoxLink
      to="/{-$locale}/profile"
      params={params}
      onClick={onNavigate}
      data-testid="menu-user"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        textDecoration: 'none',
        color: 'inherit',
        borderRadius: 'lg',
        p: mini ? 0.75 : 1.25,
        mx: mini ? 1 : 1.5,
        justifyContent: mini ? 'center' : 'flex-start',
        bgcolor: mini ? 'transparent' : 'background.level1',
        '&:hover': { bgcolor: 'background.level2' },
      }}
    >
      <Avatar src={profile.avatar || '/default-avatar.svg'} alt={name} size={mini ? 'md' : 'lg'} sx={{ boxShadow: 'sm' }} />
      {!mini && (
        <Box sx={{ minWidth: 0 }}>
          <Typography level="title-sm" noWrap title={name}>
            {name}
          </Typography>
          {endpoint && (
            <Typography level="body-xs" noWrap startDecorator={<PhoneIcon sx={{ fontSize: 14 }} />} textColor="text.tertiary">
              {endpoint}
            </Typography>
          )}
        </Box>
      )}
    </BoxLink>
  )
}

type Props = { mini: boolean; onToggleMini?: () => void; onNavigate?: () => void }

/** The side menu: who is signed in, the entries they may see, logout and the mini-mode toggle. */
export function SideMenu({ mini, onToggleMini, onNavigate }: Props) {
  const { t } = useLingui()
  const profile = useProfile()
  const settings = profile.site?.settings
  const [confirmLogout, setConfirmLogout] = useState(false)
  const typeList = useInteractionTypes(profile.roles, profile.site?.modules)
  const builderMenu = useBuilderMenu(profile.roles)
  const items = useMemo(
    () => filterMenu(withBuilderMenus(withInteractionTypes(MENU, typeList), builderMenu), profile.roles, profile.site?.modules),
    [profile.roles, profile.site?.modules, typeList, builderMenu],
  )
  const chatUnread = unreadCount(useStore(chatLive))
  const ctx = { profile, now: Date.now(), chatUnread }
  const logoutLabel = t`Sair`
  const logoutButton = (
    <ListItemButton
      onClick={() => setConfirmLogout(true)}
      aria-label={mini ? logoutLabel : undefined}
      data-menu="logout"
      sx={mini ? { justifyContent: 'center', px: 0 } : undefined}
    >
      <ListItemDecorator sx={mini ? { minInlineSize: 'auto' } : undefined}>
        <LogoutIcon />
      </ListItemDecorator>
      {!mini && <ListItemContent>{logoutLabel}</ListItemContent>}
    </ListItemButton>
  )
  return (
    <Sheet
      component="nav"
      aria-label={t`Menu principal`}
      data-joy-color-scheme={schemeOn(settings?.menu_primary_color)}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
        py: 2,
        overflow: 'hidden',
        bgcolor: 'var(--atende-menu-bg, var(--joy-palette-background-surface))',
        borderRight: '1px solid',
        borderColor: 'divider',
      }}
    >
      <UserCard mini={mini} onNavigate={onNavigate} />
      <Box sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        <SideMenuItems items={items} mini={mini} ctx={ctx} onNavigate={onNavigate} />
      </Box>
      <List
        size="md"
        sx={{
          flexGrow: 0,
          px: mini ? 1 : 1.5,
          '--ListItem-radius': '10px',
          '--ListItemDecorator-size': '34px',
          borderTop: '1px solid',
          borderColor: 'divider',
          pt: 1,
        }}
      >
        <ListItem>
          {mini ? (
            <Tooltip title={logoutLabel} placement="right" arrow>
              {logoutButton}
            </Tooltip>
          ) : (
            logoutButton
          )}
        </ListItem>
      </List>
      {onToggleMini && (
        <Box sx={{ display: 'flex', justifyContent: mini ? 'center' : 'flex-end', px: 1.5 }}>
          <Tooltip title={mini ? t`Expandir menu` : t`Recolher menu`} placement="right">
            <IconButton
              size="sm"
              variant="outlined"
              color="neutral"
              onClick={onToggleMini}
              aria-label={mini ? t`Expandir menu` : t`Recolher menu`}
              data-testid="menu-mini-toggle"
            >
              {mini ? <ChevronRightIcon /> : <ChevronLeftIcon />}
            </IconButton>
          </Tooltip>
        </Box>
      )}
      <LogoutDialog open={confirmLogout} onClose={() => setConfirmLogout(false)} />
    </Sheet>
  )
}
