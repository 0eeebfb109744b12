import { spawn, execFile } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { access, readFile, constants } from 'node:fs/promises'
import path from 'node:path'
import readline from 'node:readline'

// Runs one engine (Kamailio or rtpengine) as a child process in the foreground: its output goes to the server's
// logger, it is "running" only once its probe answers, it is restarted with a growing back-off whenever it dies, and
// it stops with the server. Each engine runs in a process group of its own: Kamailio forks workers, and a restart
// must not meet a worker of the previous run still holding the ports.

export type { EngineState, EngineStatus } from '../../../contract/api/telephony.ts'
import type { EngineStatus } from '../../../contract/api/telephony.ts'

export type EngineLogger = {
  error(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  debug(obj: object, msg?: string): void
}

export type SupervisorOptions = {
  name: 'kamailio' | 'rtpengine' | 'mediaapp'
  bin: string
  args: string[]
  /** True when the engine answers (rtpengine: ng ping; Kamailio: SIP OPTIONS). */
  probe(): Promise<boolean>
  pidFile: string
  log: EngineLogger
  readyTimeoutMs?: number
  backoffMinMs?: number
  backoffMaxMs?: number
  /** After this long up, the back-off starts again from its minimum. */
  stableMs?: number
  cwd?: string
  /** Log lines per second passed on from the engine's output (the rest are counted, see LogLimiter). */
  logLinesPerSecond?: number
}

/**
 * The leash: a tiny shell runs the engine and holds a pipe from this server on its stdin. When the server goes,
 * however it goes (SIGKILL and OOM included), the pipe closes and the leash ends the engine, so no engine outlives the
 * server and holds the ports against the next start. It prints the engine's pid first, and dies of the engine's
 * signal (or exits with its code) so the supervisor sees the engine's own end.
 */
export const LEASH_SCRIPT = [
  // A background list of a shell without job control reads /dev/null (POSIX; dash does it): the watcher would see
  // end-of-file at once and end the engine as it starts, or, as it raced the engine's start, leave it unleashed. So the
  // pipe is kept on fd 3 and the watcher reads that.
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'engine=$!',
  'echo "ATENDE_ENGINE_PID $engine"',
  '{ cat <&3 >/dev/null; kill -TERM "$engine" 2>/dev/null; } &',
  'wait "$engine"',
  'code=$?',
  'if [ "$code" -gt 128 ]; then kill -s "$(kill -l "$code")" $$; fi',
  'exit "$code"',
].join('\n')
const PID_LINE = /^ATENDE_ENGINE_PID (\d+)$/

const EXTRA_BIN_DIRS = ['/usr/sbin', '/usr/local/sbin', '/sbin', '/usr/bin', '/usr/local/bin', '/bin']

/** The executable's absolute path, looked up in PATH and the sbin folders (kamailio lives in /usr/sbin), or null. */
export async function resolveBinary(bin: string): Promise<string | null> {
  const candidates = bin.includes('/')
    ? [bin]
    : [...new Set([...(process.env.PATH ?? '').split(':').filter(Boolean), ...EXTRA_BIN_DIRS])].map((dir) => path.join(dir, bin))
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK)
      return candidate
    } catch {
      // next
    }
  }
  return null
}

/** `kamailio -v` / `rtpengine --version` → "5.6.3" / "10.5.3.5-1+deb12u1". */
export async function engineVersion(bin: string, name: 'kamailio' | 'rtpengine'): Promise<string | null> {
  const flag = name === 'kamailio' ? '-v' : '--version'
  return new Promise((resolve) => {
    execFile(bin, [flag], { timeout: 5000 }, (_error, stdout, stderr) => {
      const text = `${stdout}\n${stderr}`
      const match = name === 'kamailio' ? /kamailio\s+(\d[\w.+~-]*)/i.exec(text) : /Version:\s*(\S+)/i.exec(text)
      resolve(match?.[1] ?? null)
    })
  })
}

/** The logger level for one line of an engine's output. */
export function levelOf(line: string): 'error' | 'warn' | 'info' | 'debug' {
  if (/\b(EMERG|ALERT|CRIT|CRITICAL|ERROR|ERR)\b:?/.test(line)) return 'error'
  if (/\bWARN(ING)?\b/.test(line)) return 'warn'
  if (/\bNOTICE\b/.test(line)) return 'info'
  return 'debug'
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function killOne(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch {
    // gone
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      // gone
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A cap on an engine's log lines: a flood of garbage packets once made Kamailio print 137 k lines in 10 s and the
 * server spent 40 % of a core logging them. Up to `perSecond` lines a second pass (with a burst of as many); the rest
 * are counted, and one line says how many were left out once the flood is over (and every `reportMs` while it lasts).
 */
export class LogLimiter {
  private tokens: number
  private last: number
  private dropped = 0
  private lastReport: number
  private readonly perSecond: number
  private readonly reportMs: number
  private readonly now: () => number

  constructor(options: { perSecond?: number; reportMs?: number; now?: () => number } = {}) {
    this.perSecond = options.perSecond ?? 200
    this.reportMs = options.reportMs ?? 10_000
    this.now = options.now ?? Date.now
    this.tokens = this.perSecond
    this.last = this.now()
    this.lastReport = this.last
  }

  /** Whether this line may be logged; `report` receives the number left out when it is time to say so. */
  take(report: (dropped: number) => void): boolean {
    const now = this.now()
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond)
    this.last = now
    // Said once the flood is over (a full second's allowance saved up), and every reportMs while it lasts.
    if (this.dropped > 0 && (this.tokens >= this.perSecond || now - this.lastReport >= this.reportMs)) {
      report(this.dropped)
      this.dropped = 0
      this.lastReport = now
    }
    if (this.tokens >= 1) {
      this.tokens -= 1
      return true
    }
    this.dropped++
    return false
  }
}

export class EngineSupervisor {
  readonly name: 'kamailio' | 'rtpengine' | 'mediaapp'
  private readonly options: Required<Omit<SupervisorOptions, 'cwd' | 'logLinesPerSecond'>> & { cwd?: string }
  private readonly limiter: LogLimiter
  private child: ChildProcess | null = null
  private stopping = false
  private backoffMs: number
  private restartTimer: NodeJS.Timeout | null = null
  private startedAt = 0
  private readyWaiters: (() => void)[] = []
  status: EngineStatus = { state: 'stopped', version: null, pid: null, restarts: 0, last_error: null }

  constructor(options: SupervisorOptions) {
    this.name = options.name
    this.options = { readyTimeoutMs: 10_000, backoffMinMs: 500, backoffMaxMs: 30_000, stableMs: 60_000, ...options }
    this.backoffMs = this.options.backoffMinMs
    this.limiter = new LogLimiter({ perSecond: options.logLinesPerSecond })
  }

  /** Starts the engine; resolves once its probe answered (or it failed that first time: it keeps being restarted). */
  async start(): Promise<void> {
    this.stopping = false
    await this.killStale()
    await this.launch()
  }

  /** Resolves the next time the engine becomes ready (at once if it is). */
  whenReady(): Promise<void> {
    if (this.status.state === 'running') return Promise.resolve()
    return new Promise((resolve) => this.readyWaiters.push(resolve))
  }

  async stop(): Promise<void> {
    this.stopping = true
    if (this.restartTimer) clearTimeout(this.restartTimer)
    this.restartTimer = null
    const child = this.child
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      // The engine itself first, so it ends its own workers; the leash follows it out.
      if (this.status.pid) killOne(this.status.pid, 'SIGTERM')
      else killGroup(child.pid, 'SIGTERM')
      const gentle = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])
      if (!gentle) {
        this.options.log.warn({ engine: this.name }, `${this.name} did not stop on SIGTERM; killing it`)
        killGroup(child.pid, 'SIGKILL')
        await exited
      }
      // Workers of the group that outlived their parent.
      killGroup(child.pid, 'SIGKILL')
    }
    this.child = null
    this.status = { ...this.status, state: 'stopped', pid: null }
  }

  /** A previous server that died without stopping its engines leaves them running on our ports: end them. */
  private async killStale(): Promise<void> {
    let pid: number
    try {
      pid = Number((await readFile(this.options.pidFile, 'utf8')).trim())
    } catch {
      return
    }
    if (!Number.isInteger(pid) || pid <= 1 || !alive(pid)) return
    let cmdline = ''
    try {
      cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ')
    } catch {
      return
    }
    // Only our own engine: the same binary with this data folder's files.
    if (!cmdline.includes(this.name) || !cmdline.includes(path.dirname(path.dirname(this.options.pidFile)))) return
    this.options.log.warn({ engine: this.name, pid }, `ending a ${this.name} left running by a previous server`)
    killGroup(pid, 'SIGKILL')
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(50)
  }

  private async launch(): Promise<void> {
    this.status = { ...this.status, state: this.status.restarts > 0 ? 'restarting' : 'starting' }
    const startedAt = Date.now()
    const child = spawn('/bin/sh', ['-c', LEASH_SCRIPT, 'sh', this.options.bin, ...this.options.args], {
      cwd: this.options.cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    // The leash's end stays open (never written, never ended) for as long as this process lives.
    child.stdin?.on('error', () => {})
    this.child = child
    this.startedAt = startedAt
    this.status.pid = null
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue
      readline.createInterface({ input: stream }).on('line', (line) => {
        const pid = PID_LINE.exec(line)
        if (pid) {
          if (this.child === child) this.status.pid = Number(pid[1])
          return
        }
        if (line.trim() === '') return
        const report = (dropped: number) =>
          this.options.log.warn({ engine: this.name, dropped }, `${this.name}: ${dropped} log lines left out (more than the log limit per second)`)
        if (!this.limiter.take(report)) return
        // Shutting down, Kamailio reports each worker's exit as an ALERT: that is expected, not an alert.
        this.options.log[this.stopping ? 'debug' : levelOf(line)]({ engine: this.name }, line)
      })
    }
    let exited = false
    child.once('error', (error) => {
      this.status.last_error = error.message
      this.options.log.error({ engine: this.name, err: error.message }, `${this.name} could not be started`)
    })
    child.once('exit', (code, signal) => {
      exited = true
      if (this.child === child) this.onExit(child, code, signal)
    })

    const deadline = startedAt + this.options.readyTimeoutMs
    while (!exited && !this.stopping && Date.now() < deadline) {
      if (await this.options.probe()) {
        if (exited || this.child !== child) return
        this.status.state = 'running'
        this.options.log.info({ engine: this.name, pid: this.status.pid, ms: Date.now() - startedAt }, `${this.name} is ready`)
        for (const resolve of this.readyWaiters.splice(0)) resolve()
        return
      }
      await sleep(100)
    }
    if (!exited && !this.stopping && this.child === child) {
      this.status.last_error = `no answer within ${this.options.readyTimeoutMs} ms`
      this.options.log.error({ engine: this.name }, `${this.name} did not answer within ${this.options.readyTimeoutMs} ms; restarting it`)
      if (child.pid) killGroup(child.pid, 'SIGKILL')
    }
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    // Whatever the group still holds (Kamailio's workers) goes with it.
    if (child.pid) killGroup(child.pid, 'SIGKILL')
    this.child = null
    this.status.pid = null
    if (this.stopping) return
    const reason = signal ? `killed by ${signal}` : `exited with code ${code}`
    this.status.last_error = reason
    if (Date.now() - this.startedAt > this.options.stableMs) this.backoffMs = this.options.backoffMinMs
    const delay = this.backoffMs
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.backoffMaxMs)
    this.status.state = 'restarting'
    this.status.restarts++
    this.options.log.error({ engine: this.name, reason, retry_ms: delay }, `${this.name} ${reason}; restarting in ${delay} ms`)
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null
      if (!this.stopping) void this.launch()
    }, delay)
  }
}
