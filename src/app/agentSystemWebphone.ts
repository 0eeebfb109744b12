import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { CallMetadata } from '../../machines/call.machine.ts'
import type { CancelTransferRequest } from '../../machines/transfer.machine.ts'
import { api } from '../api/client.ts'
import { ApiError } from '../api/errors.ts'
import { browserSipDeps, sipPhoneFactory } from '../features/webphone/sipPhone.ts'
import type { WebphoneEffects } from './agentSystem.ts'

// The browser's side of the webphone actor: the sip.js adapter, the call metadata and transfer-cancel requests, the
// desktop notification of a ringing call. The paths are spec 000 §7 (service actions, agent transfer).

export const WEBPHONE_API_PATHS = {
  /** GET: success, form, activity, data, afterService — the call's metadata once the server has it. */
  callMetadata: (uid: string) => `/v1/service/action/tab-form/${encodeURIComponent(uid)}/`,
  transferCancel: '/v1/agent/transfer/cancel/',
} as const

type TabFormAnswer = { success?: boolean } & CallMetadata

/** One metadata attempt: the answer when the server has it, null while it does not (404 or success false). */
export async function fetchCallMetadata(uid: string): Promise<CallMetadata | null> {
  try {
    const answer = await api.get<TabFormAnswer>(WEBPHONE_API_PATHS.callMetadata(uid))
    return answer && answer.success !== false ? answer : null
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

export function cancelTransfer(request: CancelTransferRequest): Promise<unknown> {
  return api.post(WEBPHONE_API_PATHS.transferCancel, request)
}

type NotificationLike = { readonly permission: NotificationPermission; new (title: string, options?: NotificationOptions): { onclick: ((this: Notification, event: Event) => unknown) | null; close(): void } }

export function browserWebphoneEffects(i18n: I18n, notification: NotificationLike | undefined = globalThis.Notification): WebphoneEffects {
  return {
    createSipPhone: sipPhoneFactory(browserSipDeps()),
    fetchCallMetadata,
    cancelTransfer,
    notifyIncomingCall: ({ phone, name, actions }) => {
      if (!notification || notification.permission !== 'granted') return
      const title = i18n._(msg`Chamada recebida`)
      const shown = new notification(title, { body: name ? `${name} — ${phone}` : phone, tag: 'atende-call', requireInteraction: actions })
      // The answer and hang-up buttons are the ringing dialog's: the notification brings the tab forward.
      shown.onclick = () => {
        window.focus()
        shown.close()
      }
    },
    // Notifications refused for good keep the placeholder; 'default' was asked once already (presence). The
    // microphone is probed by the phone itself when it starts.
    permissions: () => (notification ? { audio: true, notifications: notification.permission !== 'denied' } : null),
  }
}
