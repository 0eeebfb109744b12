import type { FastifyInstance } from 'fastify'
import { sessionRoutes } from './auth/session-routes.ts'
import { tokenRoutes } from './auth/token-routes.ts'
import { profileRoutes } from './business/profile-routes.ts'
import { avatarRoutes } from './business/avatar-routes.ts'
import { passwordRoutes } from './business/password-routes.ts'
import { siteSettingsRoutes } from './business/site-settings-routes.ts'
import { agentRoutes } from './agent/agent-routes.ts'
import { activityRoutes } from './agent/activity-routes.ts'
import { monitorRoutes } from './agent/monitor-routes.ts'
import { settingsRoutes } from '../entities/index.ts'
import { callRoutes } from '../telephony/control/routes.ts'
import { serviceActionRoutes } from '../telephony/control/service-routes.ts'
import { whatsappTemplateRoutes } from '../channels/whatsapp/index.ts'
import { chatRoutes } from './chat/chat-routes.ts'
import { soundAudioRoutes } from '../media/audio-routes.ts'
import { voicemailRoutes } from '../media/voicemail-routes.ts'
import { crmRoutes } from '../crm/routes.ts'
import { leadImportRoutes } from './crm/lead-import-routes.ts'
import { coworkerRoutes } from './crm/coworker-routes.ts'
import { dashboardRoutes } from './reports/dashboard-routes.ts'
import { reportRoutes } from './reports/report-routes.ts'
import { builderRoutes } from './reports/builder-routes.ts'
import { moduleRoutes } from './system/modules-routes.ts'

// Everything under /api, one plugin per area; paths are the spec's, with trailing slashes.
export async function apiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(sessionRoutes)
  await app.register(tokenRoutes)
  await app.register(profileRoutes)
  await app.register(avatarRoutes)
  await app.register(passwordRoutes)
  await app.register(siteSettingsRoutes)
  // Agent channel, pause, supervisor pause and agent status (spec 000 §6, §7).
  await app.register(agentRoutes)
  // Activities (scheduled callbacks) and a supervisor's remote commands to an agent's console.
  await app.register(activityRoutes)
  await app.register(monitorRoutes)
  // Call records, recordings and the webphone's lookups (server/telephony/control/).
  await app.register(callRoutes)
  // The webphone's call form: metadata, classification, form, after-service (spec 000 §7 service actions).
  await app.register(serviceActionRoutes)
  // WhatsApp templates for the send-template dialog (server/channels/whatsapp/).
  await app.register(whatsappTemplateRoutes)
  // The chat calls of spec 001 §7: messages, rooms, history, archives, search, transfer, close, export (routes/chat/).
  await app.register(chatRoutes)
  // CRM: the client a number belongs to, duplicates and merge, one timeline per client, a lead's calls (server/crm/).
  await app.register(crmRoutes)
  // CSV imports of leads into a mailing, run as durable jobs (server/crm/lead-import/).
  await app.register(leadImportRoutes)
  // The coworkers directory: colleagues, their extension and the status each reported (spec 000 §2 /coworkers).
  await app.register(coworkerRoutes)
  // The home dashboard's day: the agent's own or, for supervisors, the site's (server/reports/).
  await app.register(dashboardRoutes)
  // The report pages (datasets, totals, chart, rows, streamed CSV) and the processing queue (server/reports/).
  await app.register(reportRoutes)
  await app.register(builderRoutes)
  // The site's modules (settings page system/base/modules): which areas it uses (system/modules-routes.ts).
  await app.register(moduleRoutes)
  // The settings catalogue: every entity of contract/entities (server/entities/).
  await app.register(settingsRoutes)
  // The settings player of prompts and music on hold: their mp3 renditions (server/media/).
  await app.register(soundAudioRoutes)
  // Voicemail messages: listened to, downloaded, marked heard, deleted by their owners (server/media/).
  await app.register(voicemailRoutes)
}
