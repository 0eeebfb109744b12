import { useEffect, useState } from 'react'
import IconButton from '@mui/joy/IconButton'
import { useLingui } from '@lingui/react/macro'
import { ArrowUpIcon } from '../components/icons/icons.tsx'

export const SCROLL_TOP_THRESHOLD = 20

/** Floating button that appears after 20 px of scroll and takes the page back to the top. */
export function ScrollTopButton() {
  const { t } = useLingui()
  const [visible, setVisible] = useState(false)
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD)
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])
  if (!visible) return null
  return (
    <IconButton
      variant="solid"
      color="primary"
      size="lg"
      aria-label={t`Voltar ao topo`}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      sx={{ position: 'fixed', right: 24, bottom: 24, borderRadius: '50%', boxShadow: 'lg', zIndex: 20 }}
    >
      <ArrowUpIcon />
    </IconButton>
  )
}
