import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { access, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { mixLegs, SAMPLE_RATE, wavFile } from './mix.ts'
import { readPcap } from './pcap.ts'

// A call's recording: rtpengine's pcaps in `<dir>/pcaps/<escaped call id>-<hex tag>.pcap` → one mixed track → mp3 (lame, else
// ffmpeg) or wav, made once and kept in `<dir>/audio/` next to them. The call id never builds a path: the directory is
// listed and names compared, and the audio file is named by a hash.

export type AudioFormat = 'mp3' | 'wav'

export class EncoderMissingError extends Error {}

/**
 * rtpengine names a recording `<call id, URI-escaped>-<random hex tag>.pcap` (g_uri_escape_string: every byte but
 * A-Z a-z 0-9 - . _ ~ becomes %XX). The tag holds no '-', so the part before the last '-' names exactly one call.
 */
export function recordingCallId(name: string): string | null {
  const match = /^(.+)-[0-9a-f]+\.pcap$/i.exec(name)
  return match ? match[1]! : null
}

/** A call id as rtpengine writes it in a file name. */
export function escapedCallId(callId: string): string {
  return Array.from(new TextEncoder().encode(callId), (byte) => {
    const char = String.fromCharCode(byte)
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }).join('')
}

/** The pcap files of a call, found by its exact id (never by a prefix: 'abc' must not find 'abc-2'), oldest first. */
export async function pcapsOf(dir: string, callId: string): Promise<string[]> {
  const pcaps = path.join(dir, 'pcaps')
  let names: string[]
  try {
    names = await readdir(pcaps)
  } catch {
    return []
  }
  const wanted = escapedCallId(callId)
  return names
    .filter((name) => recordingCallId(name) === wanted)
    .sort()
    .map((name) => path.join(pcaps, name))
}

/** Mixes the pcaps of a call into 8 kHz mono PCM. */
export async function decodeCall(files: readonly string[]): Promise<Int16Array> {
  const packets = []
  for (const file of files) packets.push(...readPcap(await readFile(file)))
  return mixLegs(packets).pcm
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file)
    return true
  } catch {
    return false
  }
}

async function onPath(binary: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, binary)
    if (await exists(candidate)) return candidate
  }
  return null
}

/** Encodes 8 kHz mono PCM to mp3 with lame or ffmpeg (whichever is installed). */
export async function encodeMp3(pcm: Int16Array): Promise<Buffer> {
  const lame = await onPath('lame')
  const ffmpeg = lame ? null : await onPath('ffmpeg')
  const args = lame
    ? ['--quiet', '-r', '-s', String(SAMPLE_RATE / 1000), '--bitwidth', '16', '--signed', '--little-endian', '-m', 'm', '-b', '32', '-', '-']
    : ['-loglevel', 'error', '-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', '1', '-i', 'pipe:0', '-b:a', '32k', '-f', 'mp3', 'pipe:1']
  const binary = lame ?? ffmpeg
  if (!binary) throw new EncoderMissingError('neither lame nor ffmpeg is installed')
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new Error(`${path.basename(binary)} exited ${code}: ${Buffer.concat(err).toString().slice(0, 300)}`))
    })
    child.stdin.on('error', () => {})
    child.stdin.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength))
  })
}

/**
 * The audio file of a call (made on first request, reused while no pcap is newer), or null when it has no recording.
 * `legs`: the calls that carried this one's media (the media app's bridges of a held caller or a dialer customer to
 * an agent, recorded by Kamailio's rtpengine under their own Call-IDs), mixed in.
 */
export async function recordingFile(dir: string, callId: string, format: AudioFormat, legs: readonly string[] = []): Promise<string | null> {
  const files = (await Promise.all([callId, ...legs].map((id) => pcapsOf(dir, id)))).flat()
  if (files.length === 0) return null
  const audioDir = path.join(dir, 'audio')
  const target = path.join(audioDir, `${createHash('sha256').update(callId).digest('hex').slice(0, 32)}.${format}`)
  const newest = Math.max(...(await Promise.all(files.map(async (f) => (await stat(f)).mtimeMs))))
  try {
    if ((await stat(target)).mtimeMs >= newest) return target
  } catch {
    // Not made yet.
  }
  const pcm = await decodeCall(files)
  if (pcm.length === 0) return null
  const bytes = format === 'wav' ? wavFile(pcm) : await encodeMp3(pcm)
  await mkdir(audioDir, { recursive: true })
  const partial = `${target}.${process.pid}.part`
  await writeFile(partial, bytes)
  await rename(partial, target)
  return target
}
