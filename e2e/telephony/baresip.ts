import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A baresip 1.0 user agent for the browser tests: the outside world (a trunk that plays a tone and records what it
// hears, or a customer calling a DID). It runs on loopback with its own config folder, auto-answers, plays a 440 Hz
// tone, dumps what it receives as WAV (sndfile) and is driven over ctrl_tcp (JSON netstrings).
// baresip opens TCP on its SIP port + 1, so callers space instances by 10.

export type BaresipOptions = {
  /** SIP UDP port it listens on (a trunk's `port`). */
  sipPort: number
  /** ctrl_tcp port. */
  ctrlPort: number
  /** RTP port range, kept apart from rtpengine's. */
  rtpPorts?: string
  /** The SIP user in its account line (what it answers as, and calls from). */
  user?: string
  /** Further users it answers as: baresip 1.0 refuses a request whose user no account has ('UA not found'), so a
   * trunk lists the numbers the test dials out to. */
  aliases?: string[]
  /** Send every request through this proxy (our Kamailio): what a REFER's target (`sip:*8…@domain`) is reached by. */
  outboundProxy?: string
  /** Answer incoming calls by itself. */
  autoAnswer?: boolean
  /** Tone frequency it sends. */
  toneHz?: number
}

export type Baresip = {
  dir: string
  recordings: string
  command(command: string, params?: string): Promise<{ response: boolean; ok: boolean; data: string }>
  dial(uri: string): Promise<void>
  /**
   * Hangs up the current call of the main account, or — given one of its aliases (the user a call was made to) — of
   * that account: baresip's `hangup` only acts on the current account's call (without the alias, a call made to it
   * stayed up and the test saw only the BYE baresip sent when it stopped, after the browser had gone).
   */
  hangup(user?: string): Promise<void>
  /** Collected stdout + stderr so far. */
  log(): string
  /** Peak absolute sample of every WAV it dumped of what it heard (decoded), keyed by file name. */
  heard(): Array<{ file: string; seconds: number; peak: number; rms: number }>
  stop(): Promise<void>
}

/** A mono 16-bit PCM WAV with a sine tone. */
export function toneWav(hz: number, seconds: number, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate)
  const data = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 12000), i * 2)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVEfmt ', 8)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

/**
 * Level of a 16-bit PCM WAV (any channel count): peak and RMS over all samples, or over those after `from` seconds.
 * `live`: a dump baresip is still writing (its header's data size is not final): read up to the end of the file.
 */
export function wavLevel(file: string, { from = 0, live = false }: { from?: number; live?: boolean } = {}): { seconds: number; peak: number; rms: number } {
  const buf = readFileSync(file)
  let offset = 12
  let rate = 8000
  let channels = 1
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4)
    const size = buf.readUInt32LE(offset + 4)
    if (id === 'fmt ') {
      channels = buf.readUInt16LE(offset + 10)
      rate = buf.readUInt32LE(offset + 12)
    }
    if (id === 'data') {
      const end = live ? buf.length : Math.min(buf.length, offset + 8 + size)
      const start = offset + 8 + Math.round(from * rate) * channels * 2
      let peak = 0
      let sum = 0
      let n = 0
      for (let i = start; i + 1 < end; i += 2) {
        const s = buf.readInt16LE(i)
        peak = Math.max(peak, Math.abs(s))
        sum += s * s
        n++
      }
      return { seconds: from + n / channels / rate, peak, rms: n ? Math.sqrt(sum / n) : 0 }
    }
    offset += 8 + size + (size % 2)
  }
  return { seconds: 0, peak: 0, rms: 0 }
}

export async function startBaresip(options: BaresipOptions): Promise<Baresip> {
  const dir = mkdtempSync(join(tmpdir(), `atende-baresip-${options.sipPort}-`))
  const recordings = join(dir, 'rec')
  mkdirSync(recordings)
  writeFileSync(join(dir, 'tone.wav'), toneWav(options.toneHz ?? 440, 30))
  const user = options.user ?? 'outside'
  writeFileSync(
    join(dir, 'config'),
    [
      'poll_method epoll',
      `sip_listen 127.0.0.1:${options.sipPort}`,
      'call_local_timeout 120',
      'call_max_calls 8',
      `audio_player aubridge,nil${options.sipPort}`,
      `audio_source aufile,${join(dir, 'tone.wav')}`,
      `audio_alert aubridge,nil${options.sipPort}`,
      'ausrc_format s16',
      'auplay_format s16',
      `rtp_ports ${options.rtpPorts ?? '31000-31999'}`,
      'rtp_stats yes',
      'rtcp_mux no',
      'jitter_buffer_delay 5-10',
      'net_interface 127.0.0.1',
      'module_path /usr/lib/baresip/modules',
      'module g711.so',
      'module aufile.so',
      'module aubridge.so',
      'module sndfile.so',
      'module_app account.so',
      'module_app menu.so',
      'module_app ctrl_tcp.so',
      `ctrl_tcp_listen 127.0.0.1:${options.ctrlPort}`,
      `snd_path ${recordings}`,
      '',
    ].join('\n'),
  )
  const answer = options.autoAnswer === false ? 'manual' : 'auto'
  writeFileSync(
    join(dir, 'accounts'),
    [user, ...(options.aliases ?? [])]
      .map(
        (name) =>
          `<sip:${name}@127.0.0.1:${options.sipPort};transport=udp>;regint=0;answermode=${answer};audio_codecs=PCMU,PCMA` +
          `${options.outboundProxy ? `;outbound="${options.outboundProxy}"` : ''}\n`,
      )
      .join(''),
  )
  writeFileSync(join(dir, 'contacts'), '')

  let output = ''
  // BARESIP_SIP_TRACE=1 prints every SIP message it sends and receives into its log (shown when a test fails).
  const child: ChildProcess = spawn('baresip', ['-f', dir, ...(process.env.BARESIP_SIP_TRACE ? ['-s'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (c) => (output += c))
  child.stderr!.on('data', (c) => (output += c))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  const command = (cmd: string, params = '') =>
    new Promise<{ response: boolean; ok: boolean; data: string }>((resolve, reject) => {
      const socket = connect(options.ctrlPort, '127.0.0.1')
      const body = JSON.stringify({ command: cmd, params, token: String(Date.now()) })
      let buffer = ''
      const timer = setTimeout(() => {
        socket.destroy()
        reject(new Error(`baresip ${cmd}: no response`))
      }, 5000)
      socket.on('connect', () => socket.write(`${Buffer.byteLength(body)}:${body},`))
      socket.on('data', (chunk) => {
        buffer += chunk
        // Netstrings: `len:{json},` — events may come first; wait for the one with "response".
        for (;;) {
          const colon = buffer.indexOf(':')
          if (colon < 0) return
          const len = Number(buffer.slice(0, colon))
          if (buffer.length < colon + 1 + len + 1) return
          const json = JSON.parse(buffer.slice(colon + 1, colon + 1 + len)) as { response?: boolean; ok?: boolean; data?: string }
          buffer = buffer.slice(colon + 1 + len + 1)
          if (json.response) {
            clearTimeout(timer)
            socket.end()
            resolve({ response: true, ok: Boolean(json.ok), data: json.data ?? '' })
            return
          }
        }
      })
      socket.on('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
    })

  // Ready when ctrl_tcp answers.
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      await command('uastat')
      break
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`baresip did not start: ${String(error)}\n${output}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  return {
    dir,
    recordings,
    command,
    async dial(uri) {
      await command('dial', uri)
    },
    async hangup(user) {
      const select = async (name: string) => {
        const found = await command('uafind', `sip:${name}@127.0.0.1:${options.sipPort}`)
        if (!found.ok) throw new Error(`baresip uafind ${name}: ${found.data}`)
      }
      if (user) await select(user)
      await command('hangup')
      // The main account is the current one again (the next dial calls from it).
      if (user) await select(options.user ?? 'outside')
    },
    log: () => output,
    heard() {
      return readdirSync(recordings)
        .filter((f) => f.endsWith('.wav') && statSync(join(recordings, f)).size > 44)
        .filter((f) => f.includes('dec'))
        .map((file) => ({ file, ...wavLevel(join(recordings, file)) }))
    },
    async stop() {
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))])
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
