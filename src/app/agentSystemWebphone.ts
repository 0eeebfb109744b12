import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { CallMetadata } from '../../machines/call.machine.ts'
import type { CancelTransferRequest } from '../../machines/transfer.machine.ts'
import type { AfterServiceEnd, AfterServiceStartOutput } from '../../machines/webphone.machine.ts'
import { AFTER_SERVICE_TYPE_CALL } from '../../contract/codes/after-service.ts'
import { LOCALES } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'
import { AGENT_PATHS } from '../../contract/api/agent.ts'
import { api } from '../api/client.ts'
import { ApiError } from '../api/errors.ts'
import type { CreateSipPhone, SipPhone } from '../../machines/webphoneTypes.ts'
import type { AudioPlayback } from '../features/presence/audioPlayback.ts'
import type { WebphoneEffects } from './agentSystem.ts'

// The browser's side of the webphone actor: the sip.js adapter, the call metadata and transfer-cancel requests, the
// desktop notification of a ringing call. The paths are spec 000 §7 (service actions, agent transfer).

export const WEBPHONE_API_PATHS = {
  /** GET: success, form, activity, data, afterService — the call's metadata once the server has it. */
  callMetadata: (uid: string) => `/v1/service/action/tab-form/${encodeURIComponent(uid)}/`,
  transferCancel: '/v1/agent/transfer/cancel/',
  afterServiceStart: (uid: string) => `/v1/service/action/after-service/start/${encodeURIComponent(uid)}/`,
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

/**
 * POST after-service/start/{uid}/ (spec 000 §7). The server's 'Esta chamada não tem Pós-atendimento' (400, in any of
 * the three languages) rejects with `code: 'noAfterService'`; any other failure with its message.
 */
export async function startAfterService(uid: string): Promise<AfterServiceStartOutput> {
  try {
    return await api.post<AfterServiceStartOutput>(WEBPHONE_API_PATHS.afterServiceStart(uid))
  } catch (error) {
    const noAfterService = LOCALES.map((locale) => message('noAfterService', locale))
    if (error instanceof ApiError && error.status === 400 && noAfterService.includes(error.message)) throw Object.assign(error, { code: 'noAfterService' })
    throw error
  }
}

/** tab-form ?type=hangup&after_service_type=3&after_service_duration= : the after-service of the step is over. */
export async function endAfterService(end: AfterServiceEnd): Promise<void> {
  if (!end.uid) return
  await api.post(WEBPHONE_API_PATHS.callMetadata(end.uid), undefined, {
    query: { type: 'hangup', after_service_type: AFTER_SERVICE_TYPE_CALL, after_service_duration: end.duration },
  })
}

export function cancelTransfer(request: CancelTransferRequest): Promise<unknown> {
  return api.post(WEBPHONE_API_PATHS.transferCancel, request)
}

export function telephonyChannel(loggedIn: boolean, by: 'user' | 'system'): Promise<unknown> {
  return loggedIn
    ? api.post(AGENT_PATHS.channelLogin, undefined, { query: { channel: 'telephony', logged_in_by: by } })
    : api.post(AGENT_PATHS.channelLogout, undefined, { query: { channel: 'telephony' } })
}

type NotificationLike = {
  readonly permission: NotificationPermission
  new (title: string, options?: NotificationOptions): { onclick: ((this: Notification, event: Event) => unknown) | null; close(): void }
}

export function browserWebphoneEffects(
  i18n: I18n,
  playback?: Pick<AudioPlayback, 'guard'>,
  notification: NotificationLike | undefined = globalThis.Notification,
): WebphoneEffects {
  return {
    createSipPhone: lazySipPhone(() =>
      import('../features/webphone/sipPhone.ts').then((m) => {
        const deps = m.browserSipDeps()
        // A call's audio refused by the browser opens the audio dialog, whose 'Permitir' plays it again.
        return m.sipPhoneFactory(playback ? { ...deps, createAudio: () => playback.guard(deps.createAudio(), 'call') } : deps)
      }),
    ),
    fetchCallMetadata,
    cancelTransfer,
    startAfterService,
    endAfterService: (end) => endAfterService(end).catch(() => {}),
    saveForm: (uid) =>
      import('../features/webphone/callOutcomes.ts')
        .then((m) => m.saveCallForm(uid))
        .then(
          () => {},
          () => {},
        ),
    telephonyChannel,
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

/**
 * sip.js is about 60 KB gzipped: it loads when the webphone first starts, not with the console. The phone returned
 * forwards every command, in order, to the real one once its module is there.
 */
export function lazySipPhone(load: () => Promise<CreateSipPhone>): CreateSipPhone {
  return (config, emit) => {
    const phone: Promise<SipPhone> = load().then((create) => create(config, emit))
    const later =
      <K extends keyof SipPhone>(method: K) =>
      (...args: Parameters<SipPhone[K]>) =>
        phone.then((p) => (p[method] as (...a: Parameters<SipPhone[K]>) => unknown)(...args))
    return {
      start: later('start') as SipPhone['start'],
      stop: later('stop') as SipPhone['stop'],
      call: later('call') as SipPhone['call'],
      answer: later('answer') as SipPhone['answer'],
      hangup: later('hangup') as SipPhone['hangup'],
      hold: later('hold') as SipPhone['hold'],
      mute: (...args) => void later('mute')(...args).catch(() => undefined),
      dtmf: (...args) => void later('dtmf')(...args).catch(() => undefined),
      transferBlind: later('transferBlind') as SipPhone['transferBlind'],
      transferAttended: later('transferAttended') as SipPhone['transferAttended'],
      conference: (...args) => void later('conference')(...args).catch(() => undefined),
      setAudioDevices: later('setAudioDevices') as SipPhone['setAudioDevices'],
    }
  }
}
