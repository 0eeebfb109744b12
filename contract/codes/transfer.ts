// The address an attended transfer sends its transferee to (ours; spec 000 §4 "transfer" names no wire form).
//
// RFC 3515/3891 would REFER the transferee to the target's contact with `?Replaces=`. Our targets are browsers behind
// Kamailio's WebSocket (their contact is an `…invalid;alias=…` address no trunk can reach) and carriers often drop
// Replaces from a Refer-To, so the transferee is sent to `*9<call-id>.<to-tag>.<from-tag>` instead: a plain number
// its INVITE brings back to Kamailio, where call control checks that the caller really is on a call with the agent
// who made that consultation, and relays it to the consulted device with a real `Replaces` header. The consulted
// phone then swaps the customer in for the agent (sip.js: `replacee`), like any RFC 3891 phone.

export const ATTENDED_TRANSFER_PREFIX = '*9'

/**
 * Spec 000 §9 "Blind transfer uses a destination with a special prefix": ours. The webphone REFERs the other party to
 * `*8<destination>` and call control routes that INVITE as a dial of `<destination>`.
 */
export const BLIND_TRANSFER_PREFIX = '*8'

/** The dialog an attended transfer joins, seen from the consulted phone: its own tag is `toTag`. */
export type JoinedDialog = { callId: string; toTag: string; fromTag: string }

// Characters a SIP user part carries as they are and a Call-ID or tag may hold; the dot separates the three parts.
const PART = /^[A-Za-z0-9_~!*'+-]{1,64}$/
/** A SIP user part is at most this long here (server/telephony/control/protocol.ts ruri_user). */
const MAX_USER = 80

/**
 * The user part for a consultation call as the transferring phone sees it (its `localTag` is the From tag, the
 * consulted phone's is `remoteTag`), or null when a part would need escaping or the whole does not fit: the caller
 * then falls back to a standard REFER with Replaces.
 */
export function joinAddress(dialog: { callId: string; localTag: string; remoteTag: string }): string | null {
  const parts = [dialog.callId, dialog.remoteTag, dialog.localTag]
  if (!parts.every((part) => PART.test(part))) return null
  const user = `${ATTENDED_TRANSFER_PREFIX}${parts.join('.')}`
  return user.length <= MAX_USER ? user : null
}

/** The dialog a `*9…` user part names, or null when it is not one. */
export function parseJoinAddress(user: string): JoinedDialog | null {
  if (!user.startsWith(ATTENDED_TRANSFER_PREFIX)) return null
  const parts = user.slice(ATTENDED_TRANSFER_PREFIX.length).split('.')
  if (parts.length !== 3 || !parts.every((part) => PART.test(part))) return null
  const [callId, toTag, fromTag] = parts as [string, string, string]
  return { callId, toTag, fromTag }
}

/** The RFC 3891 header value that makes the consulted phone swap the joining call in for that dialog. */
export const replacesHeader = (dialog: JoinedDialog) => `${dialog.callId};to-tag=${dialog.toTag};from-tag=${dialog.fromTag}`

// A flow destination an agent calls or transfers to from the webphone's lists (spec 000 §6 "transfer destinations are
// limited by per-endpoint application permission lists"; §7 permission-apps): dialled as `<app>.<id>`, a blind
// transfer to it is `*8<app>.<id>`. Call control routes it like an inbound route's destination, once it checked the
// endpoint's permission list for that app.

/** The apps a webphone may reach by id (the permission-apps lists; `number` is dialled as digits instead). */
export const DIALLABLE_APPS = ['ivrbasic', 'queue', 'nps', 'announce', 'pjsip', 'callgroup', 'voicemail'] as const
export type DiallableApp = (typeof DIALLABLE_APPS)[number]

const APP_TARGET = new RegExp(`^(${DIALLABLE_APPS.join('|')})\\.(\\d{1,9})$`)

/** The number that reaches one destination of an app. */
export const appTarget = (app: DiallableApp, id: number | string) => `${app}.${id}`

/** The app and id a dialled number names, or null when it is a plain number. */
export function parseAppTarget(dialled: string): { app: DiallableApp; appdata: string } | null {
  const match = APP_TARGET.exec(dialled)
  return match ? { app: match[1] as DiallableApp, appdata: match[2]! } : null
}

/**
 * The one address of a destination, whoever names it: what a settings destination stores (`{app, appdata}`), a
 * transfer sends and call control routes (`<app>.<id>` for an app that names a row, the digits of an external
 * number), or null when it names nothing to dial (hang up, or an app without its appdata).
 */
export function destinationAddress(destination: { app: string; appdata: string | number }): string | null {
  const appdata = String(destination.appdata).trim()
  if ((DIALLABLE_APPS as readonly string[]).includes(destination.app)) return /^\d{1,9}$/.test(appdata) ? appTarget(destination.app as DiallableApp, appdata) : null
  if (destination.app === 'number') return /^\+?[0-9*#]{1,20}$/.test(appdata) ? appdata : null
  return null
}

/** The destination an address names: `<app>.<id>`, or any other dialled text as an external number. */
export function addressDestination(address: string): { app: string; appdata: string } {
  return parseAppTarget(address) ?? { app: 'number', appdata: address }
}
