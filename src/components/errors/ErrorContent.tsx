import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'
import { ButtonLink } from '../links.tsx'
import { Trans } from '@lingui/react/macro'
import { useLocale } from '../../app/useLocale.ts'
import { HomeIcon } from '../icons/icons.tsx'

type Props = { code?: string; icon: ReactNode; title: ReactNode; text?: ReactNode; action?: ReactNode; color?: 'primary' | 'danger' | 'warning' | 'neutral' }

/** Icon, code, title, text and a way home: the body of every error and guard page. */
export function ErrorContent({ code, icon, title, text, action, color = 'primary' }: Props) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5 }}>
      <Box
        sx={{
          width: 72,
          height: 72,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          fontSize: 36,
          bgcolor: `${color}.softBg`,
          color: `${color}.softColor`,
          '& svg': { fontSize: 36 },
        }}
      >
        {icon}
      </Box>
      {code && (
        <Typography level="body-sm" fontWeight="lg" textColor="text.tertiary" letterSpacing="0.2em">
          {code}
        </Typography>
      )}
      <Typography level="h3" component="h1">
        {title}
      </Typography>
      {text && (
        <Typography level="body-md" textColor="text.secondary">
          {text}
        </Typography>
      )}
      <Box sx={{ mt: 1.5 }}>{action ?? <HomeButton />}</Box>
    </Box>
  )
}

export function HomeButton({ children, variant = 'solid' }: { children?: ReactNode; variant?: 'solid' | 'outlined' }) {
  const { params } = useLocale()
  return (
    <ButtonLink to="/{-$locale}" params={params} startDecorator={<HomeIcon />} size="lg" variant={variant} color={variant === 'solid' ? 'primary' : 'neutral'}>
      {children ?? <Trans>Voltar para a página inicial</Trans>}
    </ButtonLink>
  )
}
