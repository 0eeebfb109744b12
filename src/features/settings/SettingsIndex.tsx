import Box from '@mui/joy/Box'
import Card from '@mui/joy/Card'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import ListItemDecorator from '@mui/joy/ListItemDecorator'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import { TELEPHONY_STATUS_PERMISSION } from '../../../contract/api/telephony.ts'
import { has } from '../../../contract/permissions.ts'
import { moduleOn, pageEnabled } from '../../../contract/modules.ts'
import { useProfile } from '../../api/useProfile.ts'
import { MODULES_VIEW_PERMISSION } from './modules/modulesPermission.ts'
import { useLocale } from '../../app/useLocale.ts'
import { HistoryIcon, TuneIcon } from '../../components/icons/icons.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { ListItemButtonLink } from '../../components/links.tsx'
import { useRoles } from '../../entities/permissions.ts'
import { useText } from '../../entities/text.ts'
import { TelephonyStatusCard } from './TelephonyStatusCard.tsx'
import { AUDIT_LOG_PERMISSION, SECTIONS, SECTION_ICONS, SECTION_LABELS, sectionEntities } from './sections.ts'

/** /settings — the sections the user may see, each with the entities it holds a view permission for. */
export function SettingsIndex() {
  const { i18n } = useLingui()
  const text = useText()
  const roles = useRoles()
  const { params } = useLocale()
  // An area the site turned off (system/base/modules) shows none of its settings.
  const modules = useProfile().site?.modules
  const sections = SECTIONS.map((section) => {
    const entities = sectionEntities(section).filter((e) => has(roles, e.permission) && pageEnabled(modules, `/settings/${e.path}`))
    const audit = section === 'system' && has(roles, AUDIT_LOG_PERMISSION)
    const modulesPage = section === 'system' && has(roles, MODULES_VIEW_PERMISSION)
    return { section, entities, audit, modulesPage }
  }).filter((s) => s.entities.length > 0 || s.audit || s.modulesPage)
  // The engines' status is for whoever manages the trunks (the status route's permission).
  const telephony = has(roles, TELEPHONY_STATUS_PERMISSION) && moduleOn(modules, 'telephony')
  return (
    <>
      <PageHeader title={<Trans>Configurações</Trans>} subtitle={<Trans>Cadastros da empresa, do atendimento, do PABX e do chat.</Trans>} />
      {telephony && <TelephonyStatusCard />}
      {sections.length === 0 && (
        <Typography level="body-md" textColor="text.tertiary">
          <Trans>Sem resultados</Trans>
        </Typography>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', xl: '1fr 1fr 1fr' }, alignItems: 'start' }}>
        {sections.map(({ section, entities, audit, modulesPage }) => {
          const Icon = SECTION_ICONS[section]
          return (
            <Card key={section} variant="outlined" sx={{ boxShadow: 'xs', gap: 1 }} data-testid={`settings-section-${section}`}>
              <Typography level="title-lg" startDecorator={<Icon />} component="h2">
                {i18n._(SECTION_LABELS[section])}
              </Typography>
              <List size="sm" sx={{ '--ListItem-radius': '8px', '--List-gap': '2px' }}>
                {entities.map((entity) => (
                  <ListItem key={entity.key}>
                    <ListItemButtonLink to="/{-$locale}/settings/$" params={{ ...params, _splat: entity.path }} data-entity={entity.key}>
                      {text(entity.label)}
                    </ListItemButtonLink>
                  </ListItem>
                ))}
                {modulesPage && (
                  <ListItem>
                    <ListItemButtonLink to="/{-$locale}/settings/system/base/modules" params={params}>
                      <ListItemDecorator>
                        <TuneIcon />
                      </ListItemDecorator>
                      <Trans>Módulos</Trans>
                    </ListItemButtonLink>
                  </ListItem>
                )}
                {audit && (
                  <ListItem>
                    <ListItemButtonLink to="/{-$locale}/settings/system/audit-log" params={params}>
                      <ListItemDecorator>
                        <HistoryIcon />
                      </ListItemDecorator>
                      <Trans>Registro de auditoria</Trans>
                    </ListItemButtonLink>
                  </ListItem>
                )}
              </List>
            </Card>
          )
        })}
      </Box>
    </>
  )
}
