import { msg } from '@lingui/core/macro'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { HistoryIcon, ListIcon, SettingsIcon, TuneIcon } from '../../components/icons/icons.tsx'
import type { MenuItem } from '../../components/menuTypes.ts'
import { MODULES_VIEW_PERMISSION } from './modules/modulesPermission.ts'
import { AUDIT_LOG_PERMISSION, SECTIONS, SECTION_ICONS, SECTION_LABELS, sectionEntities } from './sections.ts'

/**
 * The 'Configurações' menu entry (sites.view_settings): the overview, then one submenu per section, each holding the
 * entities of that section by their view permission; filterMenu drops a section left with no visible entity.
 */
export function settingsMenu(): MenuItem {
  return {
    id: 'settings',
    label: msg`Configurações`,
    permission: PERMISSIONS.viewSettings,
    icon: SettingsIcon,
    divider: true,
    children: [
      { id: 'settings-index', label: msg`Visão geral`, to: '/{-$locale}/settings', permission: PERMISSIONS.viewSettings, icon: ListIcon },
      ...SECTIONS.map((section): MenuItem => ({
        id: `settings-${section}`,
        label: SECTION_LABELS[section],
        permission: PERMISSIONS.viewSettings,
        icon: SECTION_ICONS[section],
        children: [
          ...sectionEntities(section).map((entity): MenuItem => ({
            id: `settings-${entity.key}`,
            label: entity.label,
            to: '/{-$locale}/settings/$',
            params: { _splat: entity.path },
            permission: entity.permission,
            icon: SECTION_ICONS[section],
          })),
          ...(section === 'system'
            ? [
                {
                  id: 'settings-modules',
                  label: msg`Módulos`,
                  to: '/{-$locale}/settings/system/base/modules',
                  permission: MODULES_VIEW_PERMISSION,
                  icon: TuneIcon,
                } as MenuItem,
                {
                  id: 'settings-audit-log',
                  label: msg`Registro de auditoria`,
                  to: '/{-$locale}/settings/system/audit-log',
                  permission: AUDIT_LOG_PERMISSION,
                  icon: HistoryIcon,
                } as MenuItem,
              ]
            : []),
        ],
      })),
    ],
  }
}
