import type { Db } from '../db/client.ts'
import { teams, users } from '../db/schema/index.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { randomKey } from '../auth/keys.ts'
import { createSite } from '../sites/site-repo.ts'
import { createGroup, createUser } from '../users/user-repo.ts'
import { seedDemoSettings } from './demo-settings.ts'

// Demo data for a fresh, non-production install, so `npm start` leads straight to a working sign-in and a small
// contact centre (demo-settings.ts). Only ever runs on a database without users; production never calls it (see
// server/startup.ts).
const P = PERMISSIONS

const AGENT_PERMISSIONS = [
  P.viewDashboard,
  P.viewSoftphone,
  P.viewChat,
  P.viewActivities,
  P.viewMailingClient,
  P.viewClient,
  // An agent creates the client of an unknown number and keeps its record (the caller card, the chat strip, the
  // client's page with its timeline: /clients/{id}/edit).
  'sites.add_client',
  'sites.change_client',
  // The interactions agents keep about a customer (subject, text, the type's form, files): they write and correct
  // their own records; deleting one is a supervisor's or administrator's.
  'crm.view_clientinteraction',
  'crm.add_clientinteraction',
  'crm.change_clientinteraction',
  P.viewTakeBreak,
  P.viewNotification,
  P.viewFullscreen,
]

const SUPERVISOR_PERMISSIONS = [
  ...AGENT_PERMISSIONS,
  P.viewDashboardSupervisor,
  P.pauseAgent,
  P.commandAgent,
  P.monitorAgent,
  P.addActivity,
  P.viewReports,
  P.downloadMonitorFile,
  P.downloadChatConversation,
  // A supervisor removes an interaction kept by mistake.
  'crm.delete_clientinteraction',
]

const GROUPS = { Administradores: ALL_PERMISSIONS, Supervisores: SUPERVISOR_PERMISSIONS, Agentes: AGENT_PERMISSIONS }

export type DemoAccount = { username: string; password: string; group: keyof typeof GROUPS }

// The passwords pass the shared policy (contract/api/password.ts): letters and digits, not containing the username.
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { username: 'admin', password: 'gestor2025', group: 'Administradores' },
  { username: 'supervisor', password: 'monitor2025', group: 'Supervisores' },
  { username: 'agent1', password: 'ramal1001', group: 'Agentes' },
  { username: 'agent2', password: 'ramal1002', group: 'Agentes' },
]

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Seeds the demo when the database has no users; returns the accounts created, or null when it did nothing. With
 * `mediaDir` the demo prompts are written there (DATA_DIR/media), spoken in three languages with `soundsDir` (where
 * they are made once: DATA_DIR/demo-sounds), tones without; `whatsappGraphUrl` is the local WhatsApp simulator.
 */
export async function seedDemoIfEmpty(
  db: Db,
  options: { port: number; mediaDir?: string; soundsDir?: string; whatsappGraphUrl?: string },
): Promise<readonly DemoAccount[] | null> {
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1)
  if (anyUser) return null

  const site = await createSite(db, { domain: 'localhost', name: 'Atende Demo' })
  const groupIds: Record<string, number> = {}
  for (const [name, permissions] of Object.entries(GROUPS)) groupIds[name] = await createGroup(db, site.id, name, permissions)
  const [team] = await db
    .insert(teams)
    .values({
      siteId: site.id,
      name: 'Equipe Demo',
      enableAutoLoginWebphone: true,
      enableWebphoneAutoAnswer: false,
      enableAutoLoginWebchat: true,
      chatLimitPerUser: 3,
      enableAfterService: true,
      durationOfAfterService: 30,
      enableComment: true,
      minimumCommentSize: 0,
      maximumCommentSize: 255,
    })
    .returning()

  const now = Date.now()
  const voip = (endpoint: string) => ({
    websocket: `ws://localhost:${options.port}/ws/sip`,
    endpoint,
    realm: 'localhost',
    password: randomKey().slice(0, 20),
  })
  const profiles: Record<string, Omit<Parameters<typeof createUser>[1], 'siteId' | 'username' | 'password'>> = {
    admin: { firstName: 'Administrador', lastName: 'Demo' },
    supervisor: { firstName: 'Sofia', lastName: 'Supervisora', teamId: team!.id },
    agent1: {
      firstName: 'Ana',
      lastName: 'Agente',
      teamId: team!.id,
      voip: voip('10001'),
      passwordExpireDate: new Date(now + 90 * DAY_MS),
      passwordNotificationStart: new Date(now + 83 * DAY_MS),
    },
    // Expires in 5 days with the warning window already open: the "expiring soon" notice shows at sign-in.
    agent2: {
      firstName: 'Bruno',
      lastName: 'Agente',
      teamId: team!.id,
      voip: voip('10002'),
      passwordExpireDate: new Date(now + 5 * DAY_MS),
      passwordNotificationStart: new Date(now - 2 * DAY_MS),
    },
  }
  const userIds: Record<string, number> = {}
  for (const account of DEMO_ACCOUNTS) {
    const user = await createUser(db, {
      siteId: site.id,
      username: account.username,
      password: account.password,
      groupIds: [groupIds[account.group]!],
      ...profiles[account.username],
    })
    userIds[account.username] = user.id
  }
  await seedDemoSettings(db, {
    site,
    teamId: team!.id,
    userIds: { agent1: userIds.agent1!, agent2: userIds.agent2!, supervisor: userIds.supervisor! },
    voipPasswords: { agent1: profiles.agent1!.voip!.password, agent2: profiles.agent2!.voip!.password },
    ...(options.mediaDir ? { mediaDir: options.mediaDir } : {}),
    ...(options.soundsDir ? { soundsDir: options.soundsDir } : {}),
    ...(options.whatsappGraphUrl ? { whatsappGraphUrl: options.whatsappGraphUrl } : {}),
  })
  return DEMO_ACCOUNTS
}
