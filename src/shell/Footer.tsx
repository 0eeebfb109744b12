import Box from '@mui/joy/Box'
import Link from '@mui/joy/Link'
import Typography from '@mui/joy/Typography'
import { dayjs } from '../app/dates.ts'
import { Trans } from '@lingui/react/macro'
import type { SiteSettings } from '../../contract/api/profile.ts'

/** The build date baked in by vite.config.ts, shown as the spec's date format. */
export function buildDate(iso: string = __BUILD_DATE__): { text: string; year: number } {
  const date = dayjs(iso)
  return { text: date.format('DD/MM/YYYY HH:mm:ss'), year: date.year() }
}

export function Footer({ settings }: { settings?: Partial<SiteSettings> }) {
  const { text, year } = buildDate()
  const logo = settings?.logo_footer || '/logo.svg'
  const url = settings?.url_footer || undefined
  const image = <img src={logo} alt="Atende" height={22} style={{ display: 'block', opacity: 0.85 }} />
  return (
    <Box
      component="footer"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: { xs: 1, sm: 2 },
        px: { xs: 2, md: 3 },
        py: 1.5,
        bgcolor: 'var(--atende-footer-bg, transparent)',
        borderTop: '1px solid',
        borderColor: 'divider',
      }}
    >
      {url ? (
        <Link href={url} target="_blank" rel="noopener noreferrer">
          {image}
        </Link>
      ) : (
        image
      )}
      <Typography level="body-xs" textColor="text.tertiary" data-testid="build-date">
        <Trans>Versão de {text}</Trans>
      </Typography>
      <Box sx={{ flex: 1 }} />
      <Typography level="body-xs" textColor="text.tertiary">
        <Trans>© {year} Atende. Todos os direitos reservados.</Trans>
      </Typography>
    </Box>
  )
}
