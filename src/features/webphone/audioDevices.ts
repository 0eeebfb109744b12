// Audio settings (spec 000 §2, §5): the chosen input and output device ids live in local storage; the sip.js adapter
// reads the same keys when it opens a call, and SET_AUDIO_DEVICES tells the running webphone.

export const AUDIO_DEVICE_KEYS = { input: 'webphone.audioInput', output: 'webphone.audioOutput' } as const

export type AudioDevice = { id: string; label: string }
export type AudioDevices = { inputs: AudioDevice[]; outputs: AudioDevice[] }
export type AudioChoice = { input: string | null; output: string | null }

/** The browser's microphones and speakers; none when it offers no media devices (or refuses). */
export async function listAudioDevices(): Promise<AudioDevices> {
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices
  if (!media?.enumerateDevices) return { inputs: [], outputs: [] }
  let devices: MediaDeviceInfo[]
  try {
    devices = await media.enumerateDevices()
  } catch {
    return { inputs: [], outputs: [] }
  }
  // Without the microphone permission the browser lists devices with empty ids: nothing to choose from.
  const pick = (kind: MediaDeviceKind) =>
    devices.filter((device) => device.kind === kind && device.deviceId).map((device, i) => ({ id: device.deviceId, label: device.label || `${kind} ${i + 1}` }))
  return { inputs: pick('audioinput'), outputs: pick('audiooutput') }
}

export function readAudioChoice(): AudioChoice {
  try {
    return { input: localStorage.getItem(AUDIO_DEVICE_KEYS.input), output: localStorage.getItem(AUDIO_DEVICE_KEYS.output) }
  } catch {
    return { input: null, output: null }
  }
}

export function saveAudioChoice(choice: AudioChoice): void {
  for (const [key, value] of [
    [AUDIO_DEVICE_KEYS.input, choice.input],
    [AUDIO_DEVICE_KEYS.output, choice.output],
  ] as const) {
    if (value) localStorage.setItem(key, value)
    else localStorage.removeItem(key)
  }
}
