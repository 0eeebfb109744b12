import { afterServiceMode } from '../../contract/codes/after-service.ts'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { sites, teams, userExtras, users, voipAccounts } from '../db/schema/index.ts'
import type { TeamRow } from '../db/schema/index.ts'
import type { Profile, Team } from '../../contract/api/profile.ts'
import { loadRoles } from '../users/user-repo.ts'
import { siteSettings } from '../sites/site-repo.ts'
import { siteModules } from '../sites/modules.ts'
import { avatarUrl } from './avatar-store.ts'
import { pauseOptionsJson } from '../agent/pause-service.ts'
import { preparedPerDb } from '../db/prepared.ts'

// GET /api/v1/business/profile/ — the whole Profile of spec 000 §3, every field present. Lists that later features
// fill (classifications, outbound routes) are empty until those features exist. One round trip: the user with their
// site, team, extras, VoIP account and the pauses they may start (a JSON column), as a prepared statement. `known`:
// the caller's roles when the request already has them (authenticate.ts), so they are not read again.
export type KnownCaller = { roles: string[] }

// Only the user's columns the profile shows (the row also holds the password hash and settings the profile omits).
const PROFILE_USER = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  avatar: users.avatar,
  avatarMessage: users.avatarMessage,
  lastLogin: users.lastLogin,
}

const profileQuery = preparedPerDb((db) =>
  db
    .select({ user: PROFILE_USER, site: sites, team: teams, extra: userExtras, voip: voipAccounts, pauses: pauseOptionsJson(users.siteId, users.teamId) })
    .from(users)
    .innerJoin(sites, eq(sites.id, users.siteId))
    .leftJoin(teams, and(eq(teams.id, users.teamId), eq(teams.siteId, users.siteId)))
    .leftJoin(userExtras, eq(userExtras.userId, users.id))
    .leftJoin(voipAccounts, eq(voipAccounts.userId, users.id))
    .where(and(eq(users.id, sql.placeholder('userId')), eq(users.siteId, sql.placeholder('siteId'))))
    .prepare('profile_view'),
)

export async function loadProfile(db: Db, siteId: number, userId: number, known?: KnownCaller): Promise<Profile | null> {
  const [row] = await profileQuery(db).execute({ userId, siteId })
  if (!row) return null
  const { user, site, team, extra, voip, pauses } = row
  return {
    id: user.id,
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    avatar: user.avatar ? avatarUrl(user.avatar) : null,
    avatar_message: user.avatarMessage,
    roles: known?.roles ?? (await loadRoles(db, siteId, user.id)),
    last_login: iso(user.lastLogin),
    site: { id: site.id, domain: site.domain, name: site.name, settings: siteSettings(site), modules: siteModules(site) },
    voip: voip
      ? {
          websocket: voip.websocket,
          endpoint: voip.endpoint,
          realm: voip.realm,
          password: voip.password,
          device_state_busy_at: voip.deviceStateBusyAt,
        }
      : null,
    userextra: {
      login_channel_telephony: extra?.loginChannelTelephony ?? false,
      login_channel_chat: extra?.loginChannelChat ?? false,
      password_expire_date: iso(extra?.passwordExpireDate ?? null),
      password_notification_start: iso(extra?.passwordNotificationStart ?? null),
    },
    team: team ? teamView(team) : null,
    pauses,
    queue_classifications: [],
    dialer_classifications: [],
  }
}

export function teamView(team: TeamRow): Team {
  return {
    id: team.id,
    name: team.name,
    outbound_routes: [],
    enable_auto_login_webphone: team.enableAutoLoginWebphone,
    enable_webphone_auto_answer: team.enableWebphoneAutoAnswer,
    enable_auto_login_webchat: team.enableAutoLoginWebchat,
    enable_webchat_auto_answer: team.enableWebchatAutoAnswer,
    chat_limit_per_user: team.chatLimitPerUser,
    chat_timeout_to_remove_inactive: team.chatTimeoutToRemoveInactive,
    enable_after_service: team.enableAfterService,
    duration_of_after_service: team.durationOfAfterService,
    ignore_after_service_with_duration_shorter_than: team.ignoreAfterServiceWithDurationShorterThan,
    ignore_after_service_unaccepted: team.ignoreAfterServiceUnaccepted,
    after_service_mode: afterServiceMode(team.afterServiceMode),
    enable_classifications: team.enableClassifications,
    enable_comment: team.enableComment,
    minimum_comment_size: team.minimumCommentSize,
    maximum_comment_size: team.maximumCommentSize,
  }
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null
}
