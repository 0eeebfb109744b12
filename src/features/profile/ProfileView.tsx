import type { ReactNode } from 'react'
import Avatar from '@mui/joy/Avatar'
import Box from '@mui/joy/Box'
import Card from '@mui/joy/Card'
import Divider from '@mui/joy/Divider'
import Grid from '@mui/joy/Grid'
import Typography from '@mui/joy/Typography'
import { ButtonLink } from '../../components/links.tsx'
import { Trans } from '@lingui/react/macro'
import { displayName, useProfile } from '../../api/useProfile.ts'
import { formatDateTime } from '../../app/dates.ts'
import { useLocale } from '../../app/useLocale.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { EditIcon, LockIcon, PhotoIcon } from '../../components/icons/icons.tsx'

function Field({ label, value }: { label: ReactNode; value: ReactNode }) {
  return (
    <Grid xs={12} sm={6}>
      <Typography level="body-xs" textColor="text.tertiary" sx={{ textTransform: 'uppercase', letterSpacing: '0.06em', fontWeight: 600 }}>
        {label}
      </Typography>
      <Typography level="body-md" sx={{ wordBreak: 'break-word' }}>
        {value || '—'}
      </Typography>
    </Grid>
  )
}

/** /profile — the signed-in user's data. */
export function ProfileView() {
  const profile = useProfile()
  const { params } = useLocale()
  const name = displayName(profile)
  return (
    <>
      <PageHeader title={<Trans>Meu perfil</Trans>} subtitle={<Trans>Seus dados de acesso e de telefonia.</Trans>} />
      <Grid container spacing={3}>
        <Grid xs={12} md={4}>
          <Card variant="outlined" sx={{ alignItems: 'center', textAlign: 'center', gap: 1.5, py: 4, boxShadow: 'xs' }}>
            <Avatar src={profile.avatar || '/default-avatar.svg'} alt={name} sx={{ '--Avatar-size': '112px', boxShadow: 'md' }} />
            <div>
              <Typography level="title-lg">{name}</Typography>
              <Typography level="body-sm" textColor="text.tertiary">
                @{profile.username}
              </Typography>
            </div>
            {profile.avatar_message && (
              <Typography level="body-sm" sx={{ fontStyle: 'italic', px: 2 }}>
                “{profile.avatar_message}”
              </Typography>
            )}
            <Divider sx={{ my: 1, alignSelf: 'stretch' }} />
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, alignSelf: 'stretch', px: 2 }}>
              <ButtonLink to="/{-$locale}/profile/change-avatar" params={params} variant="soft" startDecorator={<PhotoIcon />}>
                <Trans>Alterar avatar</Trans>
              </ButtonLink>
              <ButtonLink to="/{-$locale}/profile/change-personal-data" params={params} variant="outlined" color="neutral" startDecorator={<EditIcon />}>
                <Trans>Alterar dados pessoais</Trans>
              </ButtonLink>
              <ButtonLink to="/{-$locale}/profile/change-password" params={params} variant="outlined" color="neutral" startDecorator={<LockIcon />}>
                <Trans>Alterar senha</Trans>
              </ButtonLink>
            </Box>
          </Card>
        </Grid>
        <Grid xs={12} md={8}>
          <Card variant="outlined" sx={{ boxShadow: 'xs', gap: 2 }}>
            <Typography level="title-md">
              <Trans>Dados pessoais</Trans>
            </Typography>
            <Grid container spacing={2}>
              <Field label={<Trans>Nome</Trans>} value={profile.first_name} />
              <Field label={<Trans>Sobrenome</Trans>} value={profile.last_name} />
              <Field label={<Trans>Usuário</Trans>} value={profile.username} />
              <Field label={<Trans>E-mail</Trans>} value={profile.email} />
            </Grid>
            <Divider />
            <Typography level="title-md">
              <Trans>Telefonia e equipe</Trans>
            </Typography>
            <Grid container spacing={2}>
              <Field label={<Trans>Ramal</Trans>} value={profile.voip?.endpoint} />
              <Field label={<Trans>Domínio SIP</Trans>} value={profile.voip?.realm} />
              <Field label={<Trans>Equipe</Trans>} value={profile.team?.name} />
              <Field label={<Trans>Empresa</Trans>} value={profile.site?.name || profile.site?.domain} />
            </Grid>
            <Divider />
            <Typography level="title-md">
              <Trans>Acesso</Trans>
            </Typography>
            <Grid container spacing={2}>
              <Field label={<Trans>Último acesso</Trans>} value={formatDateTime(profile.last_login)} />
              <Field label={<Trans>Senha expira em</Trans>} value={formatDateTime(profile.userextra?.password_expire_date)} />
            </Grid>
          </Card>
        </Grid>
      </Grid>
    </>
  )
}
