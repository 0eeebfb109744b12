import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

// Prompts and music are converted once, when they are uploaded, to what rtpengine plays into a call without any work
// per call: 8 kHz mono 16-bit PCM WAV (the G.711 legs' own rate; TELEPHONY.md). The browser gets an mp3 rendition of
// that same file (made on its first play), so the admin hears what a caller will hear. Each step is a Debian tool run as a child process
// (sox, with libsox-fmt-mp3 for mp3; opusdec for Ogg Opus, which sox cannot read; lame for the rendition): the event
// loop never decodes a byte. At most two conversions run at once on this 2-core machine; one that takes longer than
// CONVERT_TIMEOUT_MS is killed.

export const TELEPHONY_RATE = 8000
export const CONVERT_TIMEOUT_MS = 120_000
const MAX_RUNNING = 2

/** The tool is not installed: the server answers 503 with the command that installs it. */
export class AudioToolMissingError extends Error {
  readonly tool: string
  constructor(tool: string) {
    super(`${tool} is not installed`)
    this.tool = tool
  }
}

/** The bytes passed the magic-byte check but no tool could decode them: the uploader's fault (400). */
export class UnreadableAudioError extends Error {}

export type AudioExt = 'wav' | 'mp3' | 'ogg'

let running = 0
const waiting: (() => void)[] = []

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await work()
  } finally {
    running--
    waiting.shift()?.()
  }
}

/**
 * Runs one tool; rejects with AudioToolMissingError when it is absent, UnreadableAudioError when it fails (any exit
 * code but those in `ok`: mkvtoolnix answers 1 for warnings).
 */
function run(tool: string, args: readonly string[], ok: readonly number[] = [0]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    const err: Buffer[] = []
    const timer = setTimeout(() => child.kill('SIGKILL'), CONVERT_TIMEOUT_MS)
    child.stderr.on('data', (chunk: Buffer) => err.length < 16 && err.push(chunk))
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(error.code === 'ENOENT' ? new AudioToolMissingError(tool) : error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code !== null && ok.includes(code)) resolve()
      else reject(new UnreadableAudioError(`${tool} ${signal ?? `exited ${code}`}: ${Buffer.concat(err).toString().slice(0, 300)}`))
    })
  })
}

/** An Ogg file whose first stream is Opus (sox reads only Vorbis). */
export function isOggOpus(bytes: Buffer): boolean {
  return bytes.subarray(28, 36).toString('latin1') === 'OpusHead'
}

/** A WebM file (EBML magic 1A45DFA3 and the `webm` DocType in its header), as Chromium's MediaRecorder writes. */
export function isWebm(bytes: Buffer): boolean {
  return bytes.length > 32 && bytes.readUInt32BE(0) === 0x1a45dfa3 && bytes.subarray(4, 64).includes('webm', 0, 'latin1')
}

/**
 * The Opus track of a browser's WebM recording as an Ogg Opus file, the same packets without re-encoding (mkvextract,
 * from Debian's mkvtoolnix; the recording's one track is track 0). Rejects with UnreadableAudioError when the WebM
 * has no Opus first track (the result is checked: `OggS` and `OpusHead`), AudioToolMissingError when mkvextract is
 * not installed.
 */
export function webmToOggOpus(bytes: Buffer): Promise<Buffer> {
  return slot(async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'atende-voice-'))
    try {
      const source = path.join(work, 'voice.webm')
      const target = path.join(work, 'voice.ogg')
      await writeFile(source, bytes)
      await run('mkvextract', [source, 'tracks', `0:${target}`], [0, 1])
      const ogg = await readFile(target).catch(() => null)
      if (!ogg || ogg.toString('latin1', 0, 4) !== 'OggS' || !isOggOpus(ogg)) throw new UnreadableAudioError('no Opus track in the WebM')
      return ogg
    } finally {
      await rm(work, { recursive: true, force: true })
    }
  })
}

const WAV_HEADER = 44
/** A tenth of a second: anything shorter is no prompt. */
const MIN_SAMPLES = TELEPHONY_RATE / 10

/**
 * A plain WAV of 8 kHz mono 16-bit PCM: `fmt ` (16 bytes) right after the RIFF header, then `data` holding at least a
 * tenth of a second and no more than the file has. Anything else, however close, goes through sox.
 */
export function isTelephonyWav(b: Buffer): boolean {
  if (b.length < WAV_HEADER || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 16) !== 'WAVEfmt ') return false
  const pcm = b.readUInt32LE(16) === 16 && b.readUInt16LE(20) === 1 && b.readUInt16LE(22) === 1 && b.readUInt16LE(34) === 16
  const size = b.readUInt32LE(40)
  return pcm && b.readUInt32LE(24) === TELEPHONY_RATE && b.toString('latin1', 36, 40) === 'data' && size >= MIN_SAMPLES * 2 && size + WAV_HEADER <= b.length
}

/** The sox arguments that write the telephony WAV. */
const TELEPHONY_WAV = ['-r', String(TELEPHONY_RATE), '-c', '1', '-b', '16', '-e', 'signed-integer']

/**
 * Converts an uploaded wav/mp3/ogg to `wavTarget` (8 kHz mono 16-bit PCM). Rejects with UnreadableAudioError for
 * audio no tool decodes, or one that holds no sound at all.
 */
export function convertUpload(bytes: Buffer, ext: AudioExt, wavTarget: string): Promise<void> {
  return slot(async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'atende-audio-'))
    try {
      if (isTelephonyWav(bytes)) {
        // Already what rtpengine plays (the demo's prompts, a file exported for telephony): kept byte for byte.
        await writeFile(wavTarget, bytes, { flag: 'wx' })
        return
      }
      let source = path.join(work, `upload.${ext}`)
      await writeFile(source, bytes)
      if (ext === 'ogg' && isOggOpus(bytes)) {
        const decoded = path.join(work, 'decoded.wav')
        await run('opusdec', ['--quiet', source, decoded])
        source = decoded
      }
      // -G guards against clipping while resampling; sox mixes the channels down and resamples by itself.
      await run('sox', ['-V1', '-G', source, ...TELEPHONY_WAV, wavTarget])
      if ((await stat(wavTarget)).size < WAV_HEADER + MIN_SAMPLES * 2) throw new UnreadableAudioError('no sound in the file')
    } finally {
      await rm(work, { recursive: true, force: true })
    }
  })
}

/**
 * The browser's copy of a telephony WAV: a small mp3 (as the recordings player plays), made the first time the
 * settings player asks for it and kept beside the file (written under a temporary name, then renamed into place, so
 * two players asking at once never read half a file).
 */
export async function ensureRendition(wav: string, mp3Target: string): Promise<void> {
  try {
    await stat(mp3Target)
    return
  } catch {
    // Not made yet.
  }
  const tmp = `${mp3Target}.${process.pid}.${Date.now()}.tmp`
  try {
    await slot(() => run('lame', ['--quiet', '-m', 'm', '-b', '32', wav, tmp]))
    await rename(tmp, mp3Target)
  } finally {
    await rm(tmp, { force: true })
  }
}

/** Writes a telephony WAV straight from any file sox reads (the demo's generated prompts and music). */
export function toTelephonyWav(source: string, wavTarget: string, effects: readonly string[] = []): Promise<void> {
  return slot(() => run('sox', ['-V1', '-G', source, ...TELEPHONY_WAV, wavTarget, ...effects]))
}
