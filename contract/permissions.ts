// Every permission codename the product knows, defined once and reused by the server's route guards and the SPA's
// menus. The spec's `sites.view_*` names gate menus and the top bar; the settings entities bring Django-style
// `<area>.<action>_<entity>` names (contract/entities, ENTITY_PERMISSIONS), listed in all-permissions.ts (ALL_PERMISSIONS).
export const PERMISSIONS = {
  viewDashboard: 'sites.view_dashboard',
  viewDashboardSupervisor: 'sites.view_dashboard_supervisor',
  // A supervisor pauses and unpauses agents (spec 000 §6): POST /api/v1/agent/supervisor/pause/ and /unpause/.
  pauseAgent: 'sites.pause_agent',
  // Ours: a supervisor's remote commands to an agent's console (do-not-disturb, reload, open a page, logout):
  // POST /api/v1/agent/supervisor/dnd/, /refresh/, /open-url/, /logout/.
  commandAgent: 'sites.command_agent',
  // Ours: listen to an agent's call, whisper to the agent, barge in (POST /api/v1/agent/supervisor/monitor/).
  monitorAgent: 'sites.monitor_agent',
  viewSoftphone: 'sites.view_softphone',
  viewChat: 'sites.view_chat',
  viewActivities: 'sites.view_activities',
  // Ours: scheduling an activity (callback) for an agent, POST /api/v1/agent/activities/.
  addActivity: 'sites.add_activity',
  viewMailingClient: 'sites.view_mailingclient',
  viewClient: 'sites.view_client',
  viewReports: 'sites.view_reports',
  viewSettings: 'sites.view_settings',
  viewTakeBreak: 'sites.view_take_break',
  viewNotification: 'sites.view_notification',
  viewFullscreen: 'sites.view_fullscreen',
  // Ours: the machine visualizer (/machines) for designers and QA; the spec names no permission for it.
  viewMachines: 'sites.view_machines',
  addSite: 'sites.add_site',
  downloadMonitorFile: 'download_monitor_file',
  downloadChatConversation: 'download_chat_conversation',
  // The settings audit log (GET /api/v1/system/audit-log/).
  viewAuditLog: 'system.view_auditlog',
  // The site's modules (settings page system/base/modules, GET and PUT /api/v1/system/base/modules/).
  viewModules: 'system.view_modules',
  changeModules: 'system.change_modules',
  // The pseudo-permission every signed-in user holds (spec 000 §6): pages of one's own profile.
  myProfile: 'my-profile',
} as const

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS]

/** Spec 000 §6: passes for 'my-profile', when any role contains the string, or equals it. UI hiding only. */
export function has(roles: readonly string[] | undefined, permission: string): boolean {
  if (permission === PERMISSIONS.myProfile) return true
  if (!roles) return false
  return roles.some((role) => role === permission || role.includes(permission))
}

/** Spec 000 §6: passes when any of the permissions passes `has`. */
export function any(roles: readonly string[] | undefined, permissions: readonly string[]): boolean {
  return permissions.some((p) => has(roles, p))
}
