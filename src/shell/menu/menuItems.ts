import { msg } from '@lingui/core/macro'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { passwordExpiryBadge } from '../../features/profile/passwordBadge.ts'
import { settingsMenu } from '../../features/settings/settingsMenu.ts'
import { MachinesIcon } from '../../features/machines/icons.tsx'
import { CallsIcon } from '../../features/phonecalls/icons.tsx'
import { ActivitiesIcon } from '../../features/activities/icons.tsx'
import { BackupIcon, QueueIcon, ReportsIcon } from '../../features/reports/icons.tsx'
import { AccountIcon, ChatIcon, DashboardIcon, EditIcon, HomeIcon, LockIcon, PersonIcon, PhotoIcon } from '../../components/icons/icons.tsx'
import { chatUnreadBadge } from '../../features/chat/chatBadge.ts'
import type { MenuItem } from '../../components/menuTypes.ts'

// The side menu, defined once (spec 000 §2 main-menu table). Later issues add their entries here; the menu shows an
// entry only when the user holds its permission, and a group only when one of its children is visible.
export const MENU: MenuItem[] = [
  { id: 'home', label: msg`Início`, to: '/{-$locale}', permission: PERMISSIONS.viewDashboard, icon: HomeIcon },
  { id: 'dashboards', label: msg`Painéis de supervisão`, to: '/{-$locale}/dashboards', permission: PERMISSIONS.viewDashboardSupervisor, icon: DashboardIcon },
  { id: 'phonecalls', label: msg`Chamadas`, to: '/{-$locale}/phonecalls', permission: PERMISSIONS.viewSoftphone, icon: CallsIcon },
  { id: 'chats', label: msg`Chats`, to: '/{-$locale}/chats', permission: PERMISSIONS.viewChat, icon: ChatIcon, badge: chatUnreadBadge },
  { id: 'activities', label: msg`Atividades`, to: '/{-$locale}/activities', permission: PERMISSIONS.viewActivities, icon: ActivitiesIcon },
  // The CRM's homes (contract/entities/crm-records.ts): the generic list at /leads and /clients.
  { id: 'leads', label: msg`Leads`, to: '/{-$locale}/leads/$', params: { _splat: '' }, permission: PERMISSIONS.viewMailingClient, icon: PersonIcon },
  { id: 'clients', label: msg`Clientes`, to: '/{-$locale}/clients/$', params: { _splat: '' }, permission: PERMISSIONS.viewClient, icon: PersonIcon },
  // Interactions (/interactions): the spec names no menu codename; the entity's view codename, written out.
  {
    id: 'interactions',
    label: msg`Interações`,
    to: '/{-$locale}/interactions/$',
    params: { _splat: '' },
    permission: 'crm.view_clientinteraction',
    icon: EditIcon,
  },
  // Reports (spec 000 §2 /reports/pages, §6 sites.view_reports): the report pages and the processing queue of exports.
  {
    id: 'reports',
    label: msg`Relatórios`,
    permission: PERMISSIONS.viewReports,
    icon: ReportsIcon,
    children: [
      { id: 'report-pages', label: msg`Páginas de relatórios`, to: '/{-$locale}/reports/pages/{-$id}', permission: PERMISSIONS.viewReports, icon: ReportsIcon },
      {
        id: 'processing-queue',
        label: msg`Fila de processamento`,
        to: '/{-$locale}/reports/processing-queue',
        permission: PERMISSIONS.viewReports,
        icon: QueueIcon,
      },
      { id: 'reports-backup', label: msg`Backup dos relatórios`, to: '/{-$locale}/reports/backup', permission: PERMISSIONS.viewReports, icon: BackupIcon },
      {
        id: 'chats-backup',
        label: msg`Backup dos chats`,
        to: '/{-$locale}/chats-backup',
        permission: PERMISSIONS.downloadChatConversation,
        icon: BackupIcon,
      },
    ],
  },
  // The Operation section (spec 000 §2 "Also an Operation section"): the agent's day (/operation, dashboard page id 2)
  // and the coworkers directory (any signed-in user).
  { id: 'operation', label: msg`Operação`, to: '/{-$locale}/operation', permission: PERMISSIONS.viewDashboard, icon: DashboardIcon },
  { id: 'coworkers', label: msg`Colegas`, to: '/{-$locale}/coworkers', permission: PERMISSIONS.myProfile, icon: PersonIcon },
  {
    id: 'my-profile',
    label: msg`Meu perfil`,
    permission: PERMISSIONS.myProfile,
    icon: AccountIcon,
    divider: true,
    badge: passwordExpiryBadge,
    children: [
      { id: 'profile', label: msg`Perfil`, to: '/{-$locale}/profile', permission: PERMISSIONS.myProfile, icon: PersonIcon },
      { id: 'profile-avatar', label: msg`Alterar avatar`, to: '/{-$locale}/profile/change-avatar', permission: PERMISSIONS.myProfile, icon: PhotoIcon },
      {
        id: 'profile-password',
        label: msg`Alterar senha`,
        to: '/{-$locale}/profile/change-password',
        permission: PERMISSIONS.myProfile,
        icon: LockIcon,
        badge: passwordExpiryBadge,
      },
      {
        id: 'profile-personal-data',
        label: msg`Alterar dados pessoais`,
        to: '/{-$locale}/profile/change-personal-data',
        permission: PERMISSIONS.myProfile,
        icon: EditIcon,
        divider: true,
      },
    ],
  },
  settingsMenu(),
  { id: 'machines', label: msg`Máquinas de estado`, to: '/{-$locale}/machines', permission: PERMISSIONS.viewMachines, icon: MachinesIcon },
]
