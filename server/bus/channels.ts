import type { Bus } from './bus.ts'
import type { ServerMessage } from '../../contract/realtime/service-socket.ts'

// What the socket paths of every server instance hear on the bus. Server code never writes to a socket itself:
// it publishes here and each instance delivers to the sockets it holds, so a message for user X sent on instance A
// reaches X's socket on instance B (Redis bus) exactly as on one instance (in-process bus).

/** A frame for every open service socket of one user (optionally but one connection). */
export const USER_CHANNEL = 'ws:user'
export type UserEnvelope = { site_id: number; user_id: number; message: ServerMessage; except: string | null }

/** A frame for every supervisor's service socket on one site (agent status changes). */
export const SUPERVISORS_CHANNEL = 'ws:supervisors'
export type SupervisorsEnvelope = { site_id: number; message: ServerMessage }

/** Service ownership between instances (server/realtime/service-ownership.ts). */
export const SERVICE_CHANNEL = 'ws:service'
export type ServiceEvent =
  /** This connection serves now: it gets startService, every other connection of the user serviceElsewhere. */
  | { type: 'claim'; site_id: number; user_id: number; connection: string }
  /** Who serves this user, and which connections could? Every instance answers with a `reply`. */
  | { type: 'probe'; site_id: number; user_id: number; request: string; instance: string }
  | { type: 'reply'; request: string; instance: string; serving: boolean; candidates: { connection: string; logged_in_at: number }[] }

/** Sends a frame to every service socket of a user, wherever it is connected. */
export async function pushToUser(
  bus: Bus,
  target: { siteId: number; userId: number },
  message: ServerMessage,
  options: { except?: string } = {},
): Promise<void> {
  const envelope: UserEnvelope = { site_id: target.siteId, user_id: target.userId, message, except: options.except ?? null }
  await bus.publish(USER_CHANNEL, envelope)
}

/** Sends a frame to every service socket of the site's supervisors (users holding sites.view_dashboard_supervisor). */
export async function pushToSupervisors(bus: Bus, siteId: number, message: ServerMessage): Promise<void> {
  const envelope: SupervisorsEnvelope = { site_id: siteId, message }
  await bus.publish(SUPERVISORS_CHANNEL, envelope)
}
