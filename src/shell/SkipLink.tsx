import Link from '@mui/joy/Link'
import { Trans } from '@lingui/react/macro'

export const MAIN_ID = 'main-content'

/**
 * 'Pular para o conteúdo': the first stop of the keyboard on every signed-in page, hidden until focused, so a keyboard
 * or screen-reader user skips the menu and the top bar (WCAG 2.4.1). The main element takes the focus (tabIndex -1).
 */
export function SkipLink() {
  return (
    <Link
      href={`#${MAIN_ID}`}
      level="title-sm"
      variant="solid"
      data-testid="skip-link"
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: 'var(--joy-zIndex-snackbar)',
        px: 2,
        py: 1,
        borderRadius: 'md',
        transform: 'translateY(-200%)',
        '&:focus-visible, &:focus': { transform: 'none' },
      }}
    >
      <Trans>Pular para o conteúdo</Trans>
    </Link>
  )
}
