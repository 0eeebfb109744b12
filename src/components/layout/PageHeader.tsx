import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'

/** Title, optional subtitle and actions at the top of a page. */
export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 2, mb: 3 }}>
      <Box sx={{ flex: 1, minWidth: 240 }}>
        <Typography level="h2" component="h1" sx={{ fontSize: { xs: 'xl2', md: 'xl3' } }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography level="body-md" textColor="text.secondary" sx={{ mt: 0.5 }}>
            {subtitle}
          </Typography>
        )}
      </Box>
      {actions}
    </Box>
  )
}
