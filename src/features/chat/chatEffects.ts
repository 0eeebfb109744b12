import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ChatEffects } from '../../agent/types.ts'
import type { AudioPlayback } from '../presence/audioPlayback.ts'
import { chatChannel } from './chatApi.ts'
import { applyChatFrame, chatLive, removeRoom } from './chatLive.ts'
import { bumpUnreadRetry, setCountdown, setRinging, setTyping } from './chatSignals.ts'
import { chatOutcomeEffects } from './chatOutcomes.ts'

// The chat actors' browser side: the chat socket, the live data, the rings (a tone made here: no sound file to load)
// and the desktop notification 'Novo Chat' (spec 001 §4). A page's Notification has no action buttons: Atender and
// Desligar are the top bar's card; clicking the notification focuses the console.

/** A mono 16-bit PCM WAV of `tones` (Hz, seconds; 0 Hz is silence) as a data URL. */
export function toneWav(tones: readonly [number, number][], rate = 8000): string {
  const samples = tones.flatMap(([hz, seconds]) =>
    Array.from({ length: Math.round(seconds * rate) }, (_, i) => (hz ? Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 9000 * Math.min(1, i / 80)) : 0)),
  )
  const buffer = new DataView(new ArrayBuffer(44 + samples.length * 2))
  const text = (offset: number, value: string) => [...value].forEach((char, i) => buffer.setUint8(offset + i, char.charCodeAt(0)))
  text(0, 'RIFF')
  buffer.setUint32(4, 36 + samples.length * 2, true)
  text(8, 'WAVEfmt ')
  buffer.setUint32(16, 16, true)
  buffer.setUint16(20, 1, true)
  buffer.setUint16(22, 1, true)
  buffer.setUint32(24, rate, true)
  buffer.setUint32(28, rate * 2, true)
  buffer.setUint16(32, 2, true)
  buffer.setUint16(34, 16, true)
  text(36, 'data')
  buffer.setUint32(40, samples.length * 2, true)
  samples.forEach((sample, i) => buffer.setInt16(44 + i * 2, sample, true))
  let binary = ''
  const bytes = new Uint8Array(buffer.buffer)
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return `data:audio/wav;base64,${btoa(binary)}`
}

export function browserChatEffects(i18n: I18n, audio: AudioPlayback, focusChats: () => void, refetchProfile: () => void = () => {}): ChatEffects {
  let ring: HTMLAudioElement | null = null
  let ringUrl: string | null = null
  let tickUrl: string | null = null
  const notifications = new Map<number, Notification>()
  const stopRingIfSilent = () => {
    if (ring && !chatSignalsRinging()) {
      ring.pause()
      ring = null
    }
  }
  let ringingCount = 0
  const chatSignalsRinging = () => ringingCount > 0
  return {
    ...chatOutcomeEffects,
    openSocket: (url, protocols) => new WebSocket(url, protocols),
    signIn: () => chatChannel(true, 'system').then(refetchProfile),
    receive: (frame) => chatLive.set((state) => applyChatFrame(state, frame)),
    rooms: () => Object.values(chatLive.get().rooms),
    removeRoom: (stepId) => {
      chatLive.set((state) => removeRoom(state, stepId))
      setCountdown(stepId, null)
      setRinging(stepId, false)
      setTyping(stepId, false)
    },
    startRing: (stepId) => {
      setRinging(stepId, true)
      ringingCount++
      if (ring) return
      ringUrl ??= toneWav([
        [660, 0.35],
        [0, 0.15],
        [880, 0.35],
        [0, 1.2],
      ])
      ring = audio.guard(new Audio(ringUrl), 'chat-ring')
      ring.loop = true
      void ring.play().catch(() => {})
    },
    stopRing: (stepId) => {
      setRinging(stepId, false)
      ringingCount = Math.max(0, ringingCount - 1)
      stopRingIfSilent()
    },
    ringInactivity: (stepId, secondsLeft) => {
      setCountdown(stepId, secondsLeft)
      tickUrl ??= toneWav([[520, 0.08]])
      void audio
        .guard(new Audio(tickUrl), 'chat-inactivity')
        .play()
        .catch(() => {})
    },
    showNewChat: (stepId, title) => {
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
      const notification = new Notification(i18n._(msg`Novo Chat`), { body: title, tag: `chat-${stepId}`, icon: '/favicon.svg' })
      notification.onclick = () => {
        window.focus()
        focusChats()
        notification.close()
      }
      notifications.set(stepId, notification)
    },
    closeNewChat: (stepId) => {
      notifications.get(stepId)?.close()
      notifications.delete(stepId)
    },
    retryUnread: (stepId) => bumpUnreadRetry(stepId),
    showTyping: (stepId, typing) => setTyping(stepId, typing),
  }
}
