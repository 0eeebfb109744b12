// Business constants of spec 000 §9 and spec 001 §9 that more than one layer reads (server, machines, SPA), named
// once. Durations end in _MS or _S so the unit is never a guess. The token max age lives with the auth schemas
// (contract/api/auth.ts, TOKEN_MAX_AGE).

// Lists and lookups
/** The largest value of an integer column (PostgreSQL int4): ids, references and whole-number fields. */
export const MAX_INT = 2_147_483_647
/** `limit` sent when a list asks for every row (page size -1). */
export const UNPAGED_LIMIT = 99999
/** `limit` of lookups (queues, classifications, sub-classifications, autocompletes). */
export const LOOKUP_LIMIT = 999999
/** Failed lookups are retried this many times. */
export const LOOKUP_RETRIES = 5
export const PAGE_SIZE_OPTIONS = [5, 10, 15, 20, 25] as const
/** The page-size value that means "all rows" (sent as UNPAGED_LIMIT). */
export const PAGE_SIZE_ALL = -1
export const DEFAULT_ORDERING = ['-is_active', 'id'] as const
export const LIST_SEARCH_DEBOUNCE_MS = 500
/** Text cuts: autocomplete chips, chat title, last message in tables, message content in search, limitText default. */
export const TEXT_CUT = { chip: 50, chatTitle: 20, lastMessage: 100, searchMessage: 20, default: 10 } as const

// Sign-in and session
/** A password-expiry warning shows only if the user signed in this recently. */
export const PASSWORD_WARNING_WINDOW_MS = 10_000
export const LOGOUT_DELAY_MS = 15_000

// Status feed and shared service
export const SOCKET_PING_MS = 5_000
export const PAUSE_ACTIVITY_REFRESH_MS = 5_000
export const TAB_SWITCH_RELOAD_MS = 3_000
export const SERVICE_HERE_RELOAD_MS = 100
export const FORM_ERROR_SHOWN_MS = 3_000
export const TOAST_DURATION_MS = 2_500

// Calls
export const SIP_REGISTRATION_EXPIRES_S = 300
export const SIP_OPTIONS_INTERVAL_MS = 5_000
export const ANSWER_EVENT_DELAY_MS = 2_000
/** Call metadata is polled fast for the first attempts, then slowly, until it arrives. */
export const METADATA_POLL = { fastMs: 100, fastAttempts: 10, slowMs: 1_000 } as const
/** A hangup this soon after the start, with no metadata yet, is delayed. */
export const EARLY_HANGUP_MS = 3_000
/** A scheduled activity is done after this many dial attempts. */
export const ACTIVITY_MAX_ATTEMPTS = 50
export const DTMF_TONES = { numeric: { durationMs: 120, gapMs: 500 }, other: { durationMs: 80, gapMs: 100 } } as const
export const IVR_OPTIONS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const

// Chats
/** Seconds an ended chat stays before it is closed, unless the team sets chat_timeout_to_remove_inactive. */
export const CHAT_END_COUNTDOWN_S = 15
export const ROOM_POLL_MS = 5_000
export const SYNC_STEP_DELAY_MS = 500
export const UNREAD_RETRY_MS = 10_000
export const CHAT_NOTIFICATION_MS = 2_500

// Dashboards
export const DASHBOARD_PAGE_IDS = { main: 1, operation: 2 } as const
