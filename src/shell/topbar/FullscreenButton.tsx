import { useEffect, useState } from 'react'
import IconButton from '@mui/joy/IconButton'
import Tooltip from '@mui/joy/Tooltip'
import { useLingui } from '@lingui/react/macro'
import { FullscreenExitIcon, FullscreenIcon } from '../../components/icons/icons.tsx'

/** Full-screen toggle over the Fullscreen API. */
export function FullscreenButton() {
  const { t } = useLingui()
  const [active, setActive] = useState(() => typeof document !== 'undefined' && Boolean(document.fullscreenElement))
  useEffect(() => {
    const onChange = () => setActive(Boolean(document.fullscreenElement))
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])
  if (typeof document !== 'undefined' && !document.fullscreenEnabled) return null
  const label = active ? t`Sair da tela cheia` : t`Tela cheia`
  const toggle = () => (active ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => {})
  return (
    <Tooltip title={label}>
      <IconButton
        variant="plain"
        color="neutral"
        onClick={toggle}
        aria-label={label}
        aria-pressed={active}
        data-testid="fullscreen"
        // Phones have no room for it in the top bar (and most of them no Fullscreen API for pages).
        sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
      >
        {active ? <FullscreenExitIcon /> : <FullscreenIcon />}
      </IconButton>
    </Tooltip>
  )
}
