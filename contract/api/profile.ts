import type { AfterServiceMode } from '../codes/after-service.ts'
import * as v from 'valibot'
import { email, optionalText, secret, text } from './fields.ts'
import { message } from '../messages.ts'
import type { PauseOption } from './agent.ts'
import type { Modules } from '../modules.ts'

// Spec 000 §3 — the user profile returned by GET /api/v1/business/profile/. Lists that later issues fill
// (queue_classifications, dialer_classifications, team.outbound_routes) are always present, empty until then.
export { PROFILE_PATHS, PUBLIC_SITE_SETTINGS_PATH } from './profile-paths.ts'

export type SiteSettings = {
  description: string
  logo_favicon: string | null
  logo_login: string | null
  logo_footer: string | null
  url_footer: string
  menu_primary_color: string | null
  header_color: string | null
  body_color: string | null
  footer_color: string | null
  login_color: string | null
  button_primary_color: string | null
  button_secondary_color: string | null
  switch_color: string | null
  primary_color: string | null
  secondary_color: string | null
  success_color: string | null
  error_color: string | null
}

export type Team = {
  id: number
  name: string
  outbound_routes: { id: number; description: string }[]
  enable_auto_login_webphone: boolean
  enable_webphone_auto_answer: boolean
  enable_auto_login_webchat: boolean
  enable_webchat_auto_answer: boolean
  chat_limit_per_user: number
  chat_timeout_to_remove_inactive: number
  enable_after_service: boolean
  duration_of_after_service: number
  ignore_after_service_with_duration_shorter_than: number
  ignore_after_service_unaccepted: boolean
  /** contract/codes/after-service.ts: the spec's countdown ('spec') or one of Genesys' wrap-up modes. */
  after_service_mode: AfterServiceMode
  enable_classifications: string[]
  enable_comment: boolean
  minimum_comment_size: number
  maximum_comment_size: number
}

export type Profile = {
  id: number
  username: string
  first_name: string
  last_name: string
  email: string
  avatar: string | null
  avatar_message: string
  roles: string[]
  last_login: string | null
  /** `modules`: the areas the site uses (contract/modules.ts; the server always sends it, absent means all on). */
  site: { id: number; domain: string; name: string; settings: SiteSettings; modules?: Modules }
  voip: { websocket: string; endpoint: string; realm: string; password: string; device_state_busy_at: number } | null
  userextra: {
    login_channel_telephony: boolean
    login_channel_chat: boolean
    password_expire_date: string | null
    password_notification_start: string | null
  }
  team: Team | null
  /** The pause types the user may start (server/agent/pause-service.ts availablePauses). */
  pauses: PauseOption[]
  queue_classifications: unknown[]
  dialer_classifications: unknown[]
}

/** PUT/PATCH /api/v1/business/profile/ — change-personal-data. */
export const ProfileUpdateBody = v.object({
  first_name: text({ max: 150 }),
  last_name: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(150, (i) => message('maxLength', i.lang, { n: 150 })),
    ),
    '',
  ),
  email: email(),
  avatar_message: optionalText(255),
})
export type ProfileUpdateBody = v.InferOutput<typeof ProfileUpdateBody>

/**
 * POST change-password. Policy rules are checked by passwordProblems() on both sides. The server answers 200
 * `{success: true}`, or 400 with a wrong current password on `old_password`, policy problems (and "unchanged") on
 * `new_password1`, and a mismatch on `new_password2`.
 */
export const ChangePasswordBody = v.pipe(
  v.object({
    old_password: secret(),
    new_password1: secret(),
    new_password2: secret(),
  }),
  v.forward(
    v.check(
      (b) => b.new_password1 === b.new_password2,
      (i) => message('passwordsDiffer', i.lang),
    ),
    ['new_password2'],
  ),
)
export type ChangePasswordBody = v.InferOutput<typeof ChangePasswordBody>

export const ValidatePasswordBody = v.object({
  password: secret(),
})
export type ValidatePasswordResponse = { success: boolean }

/** Avatar uploads: image types recognised by their magic bytes, at most this size. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

export type PublicSiteSettings = { id: number; domain: string; name: string; settings: SiteSettings }
