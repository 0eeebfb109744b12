// Answering-machine detection (issue 18, dial status 552): the greeting-length / silence heuristic of Asterisk's
// app_amd, which VICIdial's AMD runs. Pure: it reads the first seconds of what the answered customer sent (8 kHz
// 16-bit PCM, the media app's recording of the customer's leg) in 20 ms frames, each voiced or silent by its mean
// absolute level, and decides as a person would:
//  - a person says a short "alô?" and waits: a short word or two, then silence → human;
//  - a machine talks on ("Olá, você ligou para … deixe sua mensagem após o sinal"): a greeting longer than
//    `greetingMs`, or more than `maxWords` words → machine;
//  - nobody says anything for `initialSilenceMs` → machine (a recording that has not started, or a dead line);
//  - still unsure after `totalMs` → uncertain (the dialer treats it as a person: an agent takes it).

export type AmdVerdict = 'human' | 'machine' | 'uncertain'
export type AmdResult = { verdict: AmdVerdict; reason: string; atMs: number; words: number }

export type AmdParams = {
  /** Silence before the first word longer than this: machine. */
  initialSilenceMs: number
  /** One stretch of speech longer than this: a machine's greeting. */
  greetingMs: number
  /** Silence after speech this long: the person stopped to listen (human). */
  afterGreetingSilenceMs: number
  /** Decide by this time at the latest (uncertain). */
  totalMs: number
  /** Voice shorter than this is noise, not a word. */
  minWordMs: number
  /** Silence shorter than this does not end a word. */
  betweenWordsSilenceMs: number
  /** More words than this: machine. */
  maxWords: number
  /** Mean absolute sample value above which a frame is voiced. */
  silenceThreshold: number
}

/** app_amd's defaults (amd.conf), the ones VICIdial ships. */
export const AMD_DEFAULTS: AmdParams = {
  initialSilenceMs: 2500,
  greetingMs: 1500,
  afterGreetingSilenceMs: 800,
  totalMs: 5000,
  minWordMs: 100,
  betweenWordsSilenceMs: 50,
  maxWords: 3,
  silenceThreshold: 256,
}

const FRAME_MS = 20

/** Decides on the customer's first seconds (`pcm` at `rate` Hz); audio shorter than `totalMs` is judged as it ends. */
export function detectAnsweringMachine(pcm: Int16Array, rate = 8000, params: Partial<AmdParams> = {}): AmdResult {
  const p = { ...AMD_DEFAULTS, ...params }
  const frame = Math.max(1, Math.round((rate * FRAME_MS) / 1000))
  let silence = 0
  let voice = 0
  let words = 0
  let inWord = false
  let heardVoice = false
  let t = 0
  for (let start = 0; start + frame <= pcm.length && t < p.totalMs; start += frame) {
    let sum = 0
    for (let i = start; i < start + frame; i++) sum += Math.abs(pcm[i]!)
    const voiced = sum / frame > p.silenceThreshold
    t += FRAME_MS
    if (!voiced) {
      silence += FRAME_MS
      if (silence >= p.betweenWordsSilenceMs) {
        if (inWord) inWord = false
        voice = 0
      }
      if (!heardVoice && silence >= p.initialSilenceMs) return { verdict: 'machine', reason: `initial silence of ${silence} ms`, atMs: t, words }
      if (heardVoice && silence >= p.afterGreetingSilenceMs)
        return { verdict: 'human', reason: `a short greeting then ${silence} ms of silence`, atMs: t, words }
      continue
    }
    // Any sound breaks a silence (as app_amd: clicks on a line are not dead air), but only a word counts as one.
    silence = 0
    voice += FRAME_MS
    if (voice >= p.minWordMs && !inWord) {
      inWord = true
      heardVoice = true
      words++
      if (words > p.maxWords) return { verdict: 'machine', reason: `${words} words`, atMs: t, words }
    }
    if (voice >= p.greetingMs) return { verdict: 'machine', reason: `a greeting longer than ${p.greetingMs} ms`, atMs: t, words }
  }
  return { verdict: 'uncertain', reason: `undecided after ${t} ms`, atMs: t, words }
}

/** A WAV file's 16-bit PCM samples (the media app's recordings: 8 kHz mono, 44-byte header). */
export function wavSamples(wav: Buffer): Int16Array {
  const data = wav.subarray(44)
  const out = new Int16Array(Math.floor(data.length / 2))
  for (let i = 0; i < out.length; i++) out[i] = data.readInt16LE(i * 2)
  return out
}

// Fax detection (dial status 510): a calling fax machine sends CNG, a pure 1100 Hz tone 0.5 s on / 3 s off (ITU-T
// T.30), from the moment it answers. Found with the Goertzel filter in the same 20 ms frames: a frame is "CNG" when
// it is loud enough and 1100 Hz holds most of its energy (speech and a 440 Hz line tone spread theirs elsewhere); a
// burst of such frames lasting about as long as CNG's 0.5 s is a fax.

export type FaxParams = {
  /** The tone's frequency (Hz). */
  hz: number
  /** Share of a frame's energy the tone must hold. */
  purity: number
  /** Mean absolute sample value a tone frame must pass. */
  minLevel: number
  /** A burst of tone frames at least this long (ms) is CNG (0.5 s nominal; T.30 allows ±15 %). */
  minBurstMs: number
  /** …and at most this long: a continuous 1100 Hz tone is not CNG. */
  maxBurstMs: number
}

export const FAX_DEFAULTS: FaxParams = { hz: 1100, purity: 0.6, minLevel: 256, minBurstMs: 350, maxBurstMs: 700 }

export type FaxResult = { fax: boolean; atMs: number | null; burstMs: number }

/** The share of a frame's energy at `hz` (Goertzel), 0–1. */
function toneShare(pcm: Int16Array, start: number, length: number, hz: number, rate: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * hz) / rate)
  let s1 = 0
  let s2 = 0
  let energy = 0
  for (let i = start; i < start + length; i++) {
    const x = pcm[i]!
    energy += x * x
    const s0 = x + coeff * s1 - s2
    s2 = s1
    s1 = s0
  }
  if (energy === 0) return 0
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2
  // A pure tone of N samples gives power ≈ (N/2)² A²/… = N/2 × energy: normalise to 1.
  return Math.min(1, (2 * power) / (length * energy))
}

/** Whether the customer's first seconds (`pcm` at `rate` Hz) carry a fax machine's CNG tone, and when it was heard. */
export function detectFaxTone(pcm: Int16Array, rate = 8000, params: Partial<FaxParams> = {}): FaxResult {
  const p = { ...FAX_DEFAULTS, ...params }
  const frame = Math.max(1, Math.round((rate * FRAME_MS) / 1000))
  let burst = 0
  let longest = 0
  let t = 0
  const ends = (ms: number) => ms >= p.minBurstMs && ms <= p.maxBurstMs
  for (let start = 0; start + frame <= pcm.length; start += frame) {
    t += FRAME_MS
    let sum = 0
    for (let i = start; i < start + frame; i++) sum += Math.abs(pcm[i]!)
    const tone = sum / frame > p.minLevel && toneShare(pcm, start, frame, p.hz, rate) >= p.purity
    if (tone) {
      burst += FRAME_MS
      continue
    }
    if (ends(burst)) return { fax: true, atMs: t, burstMs: burst }
    longest = Math.max(longest, burst)
    burst = 0
  }
  // A burst still sounding when the audio ends counts once it is long enough.
  if (burst >= p.minBurstMs && burst <= p.maxBurstMs) return { fax: true, atMs: t, burstMs: burst }
  return { fax: false, atMs: null, burstMs: Math.max(longest, burst) }
}
