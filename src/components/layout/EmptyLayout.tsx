import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Sheet from '@mui/joy/Sheet'

/** The empty layout (error and guard pages): one centred card on the body colour. */
export function EmptyLayout({ children }: { children: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'grid',
        placeItems: 'center',
        p: 2,
        background:
          'var(--atende-body-bg, radial-gradient(1200px 600px at 10% -10%, var(--joy-palette-primary-100), transparent 60%), var(--joy-palette-background-body))',
      }}
    >
      <Sheet variant="outlined" sx={{ width: 'min(100%, 520px)', borderRadius: 'xl', p: { xs: 3, sm: 5 }, boxShadow: 'lg', textAlign: 'center' }}>
        {children}
      </Sheet>
    </Box>
  )
}
