import type { PlaybackReport } from '../../../machines/audioPermission.machine.ts'
import type { AudioEffects } from '../../app/agentSystem.ts'
import { SILENT_WAV } from './mediaPermissions.ts'

// Every audio the console plays goes through here, so a playback the browser refuses for want of a user gesture
// reaches the audioPermission actor whenever it happens, and its 'Permitir' can play it again inside the click
// (spec 000 §2 audio authorisation dialog, §8 "a browser audio block opens the authorisation dialog").

/** The parts of an <audio> element the gate wraps. */
export type PlayableAudio = { play(): Promise<void>; pause(): void }

/** The agent system's audio effects (subscribe, probe: 10 ms of silence, retry: synchronous) and the guard. */
export type AudioPlayback = AudioEffects & {
  /** Routes the element's play() through the gate (the same promise comes back); its pause() ends a wait. */
  guard<T extends PlayableAudio>(audio: T, kind: string): T
}

/** Only a refusal for want of a gesture is the user's to allow; no device or an unsupported format are not. */
export function blockedByBrowser(error: unknown): boolean {
  return (error as DOMException | null)?.name === 'NotAllowedError'
}

export function createAudioPlayback(createSilence: () => HTMLAudioElement = () => new Audio(SILENT_WAV)): AudioPlayback {
  const waiting = new Map<string, () => Promise<void>>()
  const listeners = new Set<(report: PlaybackReport) => void>()
  let count = 0
  const tell = (report: PlaybackReport) => listeners.forEach((listener) => listener(report))

  function attempt(id: string, play: () => Promise<void>, retried: boolean): Promise<void> {
    let played: Promise<void>
    try {
      // Old engines (and jsdom) answer play() with nothing: that counts as played.
      played = Promise.resolve(play())
    } catch (error) {
      played = Promise.reject(error)
    }
    played.then(
      () => {
        waiting.delete(id)
        tell({ type: 'PLAYBACK_OK', id })
      },
      (error: unknown) => {
        if (!blockedByBrowser(error)) return void waiting.delete(id)
        waiting.set(id, play)
        tell({ type: 'PLAYBACK_BLOCKED', id, retried })
      },
    )
    return played
  }

  const playback: AudioPlayback = {
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    guard(audio, kind) {
      const id = `${kind}-${++count}`
      const play = audio.play.bind(audio)
      const pause = audio.pause.bind(audio)
      audio.play = () => attempt(id, play, false)
      audio.pause = () => {
        pause()
        if (waiting.delete(id)) tell({ type: 'PLAYBACK_ENDED', id })
      }
      return audio
    },
    probe() {
      const silence = playback.guard(createSilence(), 'probe')
      silence.volume = 0
      silence.play().catch(() => {})
    },
    retry(ids) {
      for (const id of ids) {
        const play = waiting.get(id)
        if (play) attempt(id, play, true).catch(() => {})
      }
    },
  }
  return playback
}
