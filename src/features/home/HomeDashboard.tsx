import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Card from '@mui/joy/Card'
import Chip from '@mui/joy/Chip'
import Grid from '@mui/joy/Grid'
import Typography from '@mui/joy/Typography'
import { CardLink } from '../../components/links.tsx'
import { Trans, useLingui } from '@lingui/react/macro'
import { displayName, useProfile } from '../../api/useProfile.ts'
import { formatDateTime } from '../../app/dates.ts'
import { useLocale } from '../../app/useLocale.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { MyDay } from './MyDay.tsx'
import { CalendarIcon, GroupIcon, LockIcon, PhoneIcon, PhotoIcon, EditIcon, ChevronRightIcon } from '../../components/icons/icons.tsx'

function StatCard({
  icon,
  label,
  value,
  color,
}: {
  icon: ReactNode
  label: ReactNode
  value: ReactNode
  color: 'primary' | 'secondary' | 'success' | 'warning'
}) {
  return (
    <Card variant="outlined" sx={{ flexDirection: 'row', alignItems: 'center', gap: 1.5, boxShadow: 'xs', height: '100%' }}>
      <Box
        sx={{
          width: 40,
          height: 40,
          borderRadius: 'lg',
          display: 'grid',
          placeItems: 'center',
          bgcolor: `${color}.softBg`,
          color: `${color}.softColor`,
          flexShrink: 0,
        }}
      >
        {icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography level="body-sm" textColor="text.tertiary">
          {label}
        </Typography>
        <Typography level="title-md" sx={{ overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
      </Box>
    </Card>
  )
}

/** The home dashboard: the user's day (MyDay), who you are, your extension and team, shortcuts to your profile. */
export function HomeDashboard() {
  const { t } = useLingui()
  const profile = useProfile()
  const { params } = useLocale()
  const name = displayName(profile)
  const shortcuts = [
    {
      to: '/{-$locale}/profile/change-avatar' as const,
      icon: <PhotoIcon />,
      label: t`Alterar avatar`,
      text: t`Envie uma foto para seus colegas reconhecerem você.`,
    },
    { to: '/{-$locale}/profile/change-password' as const, icon: <LockIcon />, label: t`Alterar senha`, text: t`Troque sua senha periodicamente.` },
    {
      to: '/{-$locale}/profile/change-personal-data' as const,
      icon: <EditIcon />,
      label: t`Alterar dados pessoais`,
      text: t`Nome, e-mail e mensagem do avatar.`,
    },
  ]
  return (
    <>
      <PageHeader title={<Trans>Olá, {name}</Trans>} subtitle={<Trans>Bem-vindo ao seu console de atendimento.</Trans>} />
      <MyDay />
      <Grid container spacing={2} sx={{ mb: 3 }}>
        <Grid xs={12} sm={6} lg={3}>
          <StatCard color="primary" icon={<PhoneIcon />} label={<Trans>Ramal</Trans>} value={profile.voip?.endpoint || '—'} />
        </Grid>
        <Grid xs={12} sm={6} lg={3}>
          <StatCard color="secondary" icon={<GroupIcon />} label={<Trans>Equipe</Trans>} value={profile.team?.name || '—'} />
        </Grid>
        <Grid xs={12} sm={6} lg={3}>
          <StatCard color="success" icon={<CalendarIcon />} label={<Trans>Último acesso</Trans>} value={formatDateTime(profile.last_login) || '—'} />
        </Grid>
        <Grid xs={12} sm={6} lg={3}>
          <StatCard
            color="warning"
            icon={<LockIcon />}
            label={<Trans>Senha expira em</Trans>}
            value={formatDateTime(profile.userextra?.password_expire_date) || '—'}
          />
        </Grid>
      </Grid>
      <Card variant="outlined" sx={{ boxShadow: 'xs' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography level="title-lg">
            <Trans>Atalhos</Trans>
          </Typography>
          <Chip size="sm" variant="soft">
            {profile.site?.name || profile.site?.domain}
          </Chip>
        </Box>
        <Grid container spacing={1.5}>
          {shortcuts.map((s) => (
            <Grid key={s.to} xs={12} md={4}>
              <CardLink
                to={s.to}
                params={params}
                variant="soft"
                color="neutral"
                sx={{
                  textDecoration: 'none',
                  flexDirection: 'row',
                  alignItems: 'center',
                  gap: 1.5,
                  height: '100%',
                  transition: 'background 120ms',
                  '&:hover': { bgcolor: 'primary.softBg' },
                }}
              >
                <Box sx={{ color: 'primary.500', display: 'flex' }}>{s.icon}</Box>
                <Box sx={{ flex: 1 }}>
                  <Typography level="title-sm">{s.label}</Typography>
                  <Typography level="body-xs" textColor="text.tertiary">
                    {s.text}
                  </Typography>
                </Box>
                <ChevronRightIcon sx={{ color: 'text.tertiary' }} />
              </CardLink>
            </Grid>
          ))}
        </Grid>
      </Card>
    </>
  )
}
