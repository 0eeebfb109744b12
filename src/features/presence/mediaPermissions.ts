// Browser permissions the console needs before calls and chats arrive (spec 000 §2 audio authorisation dialog, §8
// "a browser audio block opens the authorisation dialog"; desktop notifications for calls and chats).

/** 10 ms of silence (8 kHz, 8-bit WAV): what the start-up probe plays (audioPlayback.ts). */
export const SILENT_WAV =
  'data:audio/wav;base64,UklGRnQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YVAAAACAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgA=='

export const NOTIFICATION_ASKED_KEY = 'atende:notification-permission-asked'

type NotificationApi = Pick<typeof Notification, 'permission' | 'requestPermission'>

/** Asks for desktop notifications once per browser: an answered or dismissed prompt is not asked again. */
export function askNotificationPermissionOnce(
  notification: NotificationApi | undefined = globalThis.Notification,
  storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
): boolean {
  if (!notification || notification.permission !== 'default' || storage.getItem(NOTIFICATION_ASKED_KEY)) return false
  storage.setItem(NOTIFICATION_ASKED_KEY, new Date().toISOString())
  void Promise.resolve(notification.requestPermission()).catch(() => {})
  return true
}
