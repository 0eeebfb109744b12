import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'
import { Outlet } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { usePublicSite } from '../app/siteSettings.ts'
import { LanguageLinks } from './LanguageLinks.tsx'
import { buildYear } from './buildYear.ts'

/**
 * The login layout: the site's background colour (or the brand gradient) beside, its login logo and the form as the
 * page's main landmark, the language links as its navigation.
 */
export function LoginLayout() {
  const site = usePublicSite()
  const year = buildYear()
  return (
    <Box
      sx={{
        minHeight: '100dvh',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: '1.1fr 1fr' },
        bgcolor: 'var(--joy-palette-background-body)',
      }}
    >
      <Box
        component="aside"
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: '#fff',
          position: 'relative',
          overflow: 'hidden',
          background:
            'var(--atende-login-bg, linear-gradient(135deg, var(--joy-palette-primary-700) 0%, var(--joy-palette-primary-500) 55%, var(--joy-palette-primary-400) 100%))',
          '&::after': {
            content: '""',
            position: 'absolute',
            inset: 0,
            opacity: 0.16,
            pointerEvents: 'none',
            backgroundImage: 'radial-gradient(circle at 20% 20%, #fff 0 2px, transparent 3px), radial-gradient(circle at 80% 60%, #fff 0 1px, transparent 2px)',
            backgroundSize: '48px 48px, 32px 32px',
          },
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, zIndex: 1 }}>
          <Box sx={{ bgcolor: '#fff', borderRadius: 'md', p: 0.75, display: 'flex', boxShadow: 'md' }}>
            <img src="/logo-mark.svg" alt="" height={32} />
          </Box>
          <Typography level="h3" textColor="inherit">
            {site?.name || 'Atende'}
          </Typography>
        </Box>
        <Box sx={{ zIndex: 1, maxWidth: 460 }}>
          <Typography level="h1" textColor="inherit" sx={{ fontSize: 40, lineHeight: 1.15, mb: 2 }}>
            <Trans>Todos os seus atendimentos em um só lugar.</Trans>
          </Typography>
          <Typography level="body-lg" textColor="rgba(255,255,255,0.85)">
            <Trans>Telefonia, WhatsApp e chat do site, atividades e clientes em um console feito para quem atende.</Trans>
          </Typography>
        </Box>
        <Typography level="body-sm" textColor="rgba(255,255,255,0.7)" sx={{ zIndex: 1 }}>
          <Trans>© {year} Atende. Todos os direitos reservados.</Trans>
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', p: { xs: 2, sm: 4 } }}>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <LanguageLinks />
        </Box>
        <Box component="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', py: 4 }}>
          <Box sx={{ width: 'min(100%, 400px)' }}>
            <Box sx={{ mb: 4, display: 'flex', justifyContent: { xs: 'center', md: 'flex-start' } }}>
              <img
                src={site?.settings.logo_login || '/logo.svg'}
                alt={site?.name || 'Atende'}
                style={{ maxHeight: 48, maxWidth: 220 }}
                data-testid="login-logo"
              />
            </Box>
            <Outlet />
          </Box>
        </Box>
      </Box>
    </Box>
  )
}
