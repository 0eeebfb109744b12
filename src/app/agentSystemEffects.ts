import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { QueryClient } from '@tanstack/react-query'
import { SERVICE_SOCKET_PATH } from '../../contract/realtime/service-socket.ts'
import { REMOTE_LOGOUT_DELAY_MS, REMOTE_LOGOUT_NOTICE } from '../../machines/serviceSocket.machine.ts'
import type { Notice } from '../../machines/types.ts'
import { ApiError } from '../api/errors.ts'
import { expectSignOut } from '../api/client.ts'
import { toast } from '../components/toast/toastStore.ts'
import type { ToastColor } from '../components/toast/toastStore.ts'
import { ACTIVITIES_KEY, markActivityDone, recordActivityAttempt } from '../features/activities/activitiesApi.ts'
import { dialerEffects } from '../agent/dialerRequests.ts'
import { createAudioPlayback } from '../features/presence/audioPlayback.ts'
import { machineText } from '../features/presence/notices.ts'
import { checkPause, CURRENT_PAUSE_KEY, PENDING_ACTIVITIES_KEY, startPause, stopPause, validatePassword } from '../features/presence/presenceApi.ts'
import type { AgentSystemEffects } from './agentSystem.ts'
import { browserWebphoneEffects } from './agentSystemWebphone.ts'
import { browserChatEffects } from '../features/chat/chatEffects.ts'
import { VOICEMAIL_KEY } from '../features/voicemail/voicemailApi.ts'
import { CHAT_SOCKET_PATH } from '../../contract/realtime/chat-socket.ts'

// The browser's side of the agent system: the real WebSocket and BroadcastChannel, the API client, reload, toasts.

const TOAST_COLOR: Record<Notice['severity'], ToastColor> = { info: 'primary', warning: 'warning', error: 'danger' }

/** ws(s)://<this host>/ws/business/ — same origin, so the session cookie authenticates the upgrade. */
export function serviceSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${SERVICE_SOCKET_PATH}`
}

/** ws(s)://<this host>/ws/chat/ — the chat socket (spec 001 §7). */
export function chatSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${CHAT_SOCKET_PATH}`
}

export function newTabId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}

/** Only web pages open from an `openUrl` command (never javascript: or data: URLs). */
export function isOpenableUrl(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url, window.location.href).protocol)
  } catch {
    return false
  }
}

type Deps = { i18n: I18n; queryClient: QueryClient; logout: () => void; openChats?: () => void }

export function browserEffects({ i18n, queryClient, logout, openChats = () => {} }: Deps): AgentSystemEffects {
  // One gate per system: the start-up check and the webphone's call audio report through it.
  const audio = createAudioPlayback()
  return {
    openSocket: (url) => new WebSocket(url),
    openChannel: (name) => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(name)),
    startPause,
    stopPause,
    checkPause,
    rememberPause: (pause) => queryClient.setQueryData(CURRENT_PAUSE_KEY, pause),
    rememberActivities: (activities) => {
      // The /activities page refetches only when the due list really changed (it comes again every 5 s).
      const changed = JSON.stringify(queryClient.getQueryData(PENDING_ACTIVITIES_KEY)) !== JSON.stringify(activities)
      queryClient.setQueryData(PENDING_ACTIVITIES_KEY, activities)
      if (changed) void queryClient.invalidateQueries({ queryKey: ACTIVITIES_KEY })
    },
    // validate-password answers { success: false } for a wrong password; the lock form shows it on its field (spec
    // 000 §5 "on failure the form keeps its field errors"), so it becomes a field error here.
    async validatePassword(password) {
      const answer = await validatePassword(password)
      if (answer.success) return answer
      const wrong = i18n._(msg`Senha incorreta`)
      throw new ApiError({ message: wrong, status: 400, fieldErrors: { password: [wrong] } })
    },
    reload: () => window.location.reload(),
    openUrl: (url) => {
      if (isOpenableUrl(url)) window.open(url, '_blank', 'noopener,noreferrer')
    },
    notify: ({ message, severity, duration: own }) => {
      // The remote-logout notice stays up for the whole countdown.
      const duration = message === REMOTE_LOGOUT_NOTICE ? REMOTE_LOGOUT_DELAY_MS : own
      // Its 401s meanwhile (the session may be gone already) wait for the countdown, which ends on the sign-in page.
      if (message === REMOTE_LOGOUT_NOTICE) expectSignOut(REMOTE_LOGOUT_DELAY_MS + 5000)
      toast(machineText(i18n, message), TOAST_COLOR[severity], duration)
    },
    logout,
    refetchProfile: () => void queryClient.invalidateQueries({ queryKey: ['profile'] }),
    voicemailArrived: () => {
      void queryClient.invalidateQueries({ queryKey: VOICEMAIL_KEY })
      toast(i18n._(msg`Novo recado no correio de voz`), 'primary')
    },
    // The embedding page (spec 001 §7). With cookie sessions the token is null; a token only goes to the page that
    // embedded us (its origin, from the referrer), never to any origin.
    postToParent: (message) => {
      if (window.parent === window) return
      const target = message.token ? document.referrer : '*'
      if (target) window.parent.postMessage(message, target)
    },
    logFailure: (reason) => console.warn('[agentSystem]', reason),
    stopPhone: () => {},
    webphone: browserWebphoneEffects(i18n, audio),
    activities: { attempt: recordActivityAttempt, done: markActivityDone },
    dialer: dialerEffects,
    audio,
    chat: browserChatEffects(i18n, audio, openChats, () => void queryClient.invalidateQueries({ queryKey: ['profile'] })),
  }
}
