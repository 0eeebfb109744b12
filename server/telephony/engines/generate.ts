import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TelephonyConfig } from '../../config.ts'

// Fills the Kamailio template (kamailio.cfg next to this file) with this server's ports and paths and writes it to
// $DATA_DIR/telephony/kamailio.cfg. Only `#!substdef` lines are generated: the template stays readable and valid
// Kamailio syntax, and no credential is ever written (Kamailio gets the HA1 table from Node over evapi).

export const KAMAILIO_TEMPLATE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kamailio.cfg')
export const DEFAULT_MODULES_DIR = '/usr/lib/x86_64-linux-gnu/kamailio/modules/'
const MARKER = '#@ATENDE_DEFINES@'

export type TelephonyPaths = { dir: string; runDir: string; recordingsDir: string; kamailioCfg: string; kamailioPid: string; rtpenginePid: string }

export function telephonyPaths(config: Pick<TelephonyConfig, 'dir'>): TelephonyPaths {
  return {
    dir: config.dir,
    runDir: path.join(config.dir, 'run'),
    recordingsDir: path.join(config.dir, 'recordings'),
    kamailioCfg: path.join(config.dir, 'kamailio.cfg'),
    kamailioPid: path.join(config.dir, 'run', 'kamailio.pid'),
    rtpenginePid: path.join(config.dir, 'run', 'rtpengine.pid'),
  }
}

/** The substitutions, in the order they are written. Values never contain the `!` delimiter (checked). */
export function kamailioDefines(config: TelephonyConfig, options: { modulesDir?: string; logLevel?: number } = {}): [string, string][] {
  const paths = telephonyPaths(config)
  return [
    ['ATENDE_SIP_IP', config.host],
    ['ATENDE_SIP_PORT', String(config.sipPort)],
    ['ATENDE_WS_PORT', String(config.sipWsPort)],
    ['ATENDE_EVAPI_ADDR', `${config.host}:${config.evapiPort}`],
    ['ATENDE_NG_ADDR', `${config.host}:${config.rtpengineNgPort}`],
    ['ATENDE_RUN_DIR', paths.runDir],
    ['ATENDE_MODULES_DIR', options.modulesDir ?? DEFAULT_MODULES_DIR],
    ['ATENDE_LOG_LEVEL', String(options.logLevel ?? 1)],
    ['ATENDE_BAN_SECONDS', String(config.banSeconds)],
    ['ATENDE_AUTHFAIL_WINDOW', String(Math.max(60, config.banSeconds))],
    ['ATENDE_AUTH_FAILS', String(config.authFailLimit)],
    ['ATENDE_PIKE_UNIT', '2'],
    ['ATENDE_PIKE_DENSITY', String(config.floodRequests)],
    ['ATENDE_ADDRESS_AUTH_FAILS', String(config.authFailLimit * 10)],
    ['ATENDE_TCP_IDLE', String(config.tcpIdleSeconds)],
    ['ATENDE_TCP_MAX', String(tcpMaxConnections(config.shmMb))],
    ['ATENDE_TCP_PER_ADDRESS', String(config.tcpPerAddress)],
    ['ATENDE_DIALOG_TIMEOUT', String(config.dialogTimeoutSeconds)],
    ['ATENDE_DIALOG_KEEPALIVE', String(config.dialogKeepaliveSeconds)],
    ['ATENDE_MAX_MEDIA', String(config.maxMediaLines)],
    ['ATENDE_MEDIA_PORT', String(config.mediaSipPort)],
  ]
}

/**
 * Shared memory one registered webphone costs Kamailio (bench/sip-edge.ts: ≈ 57–81 KB): its connection with the 16 KB
 * read buffer, the WebSocket state, the registration. Too many connections once exhausted the shared memory and then
 * no webphone could connect: connections are capped so that they take at most 70 % of it, the rest for calls.
 */
export const SHM_PER_CONNECTION_BYTES = 80 * 1024
export function tcpMaxConnections(shmMb: number): number {
  return Math.max(64, Math.floor((shmMb * 1024 * 1024 * 0.7) / SHM_PER_CONNECTION_BYTES))
}

export function renderKamailioConfig(template: string, defines: [string, string][]): string {
  if (!template.includes(MARKER)) throw new Error(`the Kamailio template lacks the ${MARKER} line`)
  const lines = defines.map(([name, value]) => {
    if (!/^ATENDE_[A-Z_]+$/.test(name)) throw new Error(`bad define name ${name}`)
    if (/[!"\n\r]/.test(value)) throw new Error(`the value of ${name} may not contain ! or quotes: ${value}`)
    return `#!substdef "!${name}!${value}!g"`
  })
  const text = template.replace(new RegExp(`^${MARKER}.*$`, 'm'), lines.join('\n'))
  // Every placeholder the template uses must have been defined: a typo would reach Kamailio as a literal word.
  const known = new Set(defines.map(([name]) => name))
  const body = text.split('\n').filter((line) => !line.startsWith('#!substdef'))
  const unknown = [...new Set(body.join('\n').match(/ATENDE_[A-Z_]+/g) ?? [])].filter((name) => !known.has(name))
  if (unknown.length) throw new Error(`the Kamailio template uses undefined placeholders: ${unknown.join(', ')}`)
  return text
}

/** Writes $DATA_DIR/telephony/kamailio.cfg (atomically) and creates the run and recordings folders. */
export async function writeKamailioConfig(config: TelephonyConfig, options: { modulesDir?: string; logLevel?: number } = {}): Promise<string> {
  const paths = telephonyPaths(config)
  await mkdir(paths.runDir, { recursive: true })
  await mkdir(paths.recordingsDir, { recursive: true })
  const text = renderKamailioConfig(await readFile(KAMAILIO_TEMPLATE, 'utf8'), kamailioDefines(config, options))
  const partial = `${paths.kamailioCfg}.${process.pid}.tmp`
  await writeFile(partial, text, { mode: 0o640 })
  await rename(partial, paths.kamailioCfg)
  return paths.kamailioCfg
}

export function kamailioArgs(config: TelephonyConfig): string[] {
  const paths = telephonyPaths(config)
  // -DD: stay in the foreground (workers are still forked); -E: log to stderr, which the supervisor reads.
  return ['-f', paths.kamailioCfg, '-DD', '-E', '-m', String(config.shmMb), '-M', '8', '-P', paths.kamailioPid, '-Y', paths.runDir]
}

/** rtpengine in userspace only (`--table=-1`, never the kernel module), its own flags only (`--config-file=none`). */
export function rtpengineArgs(config: TelephonyConfig, options: { logLevel?: number } = {}): string[] {
  const paths = telephonyPaths(config)
  return [
    '--config-file=none',
    '--foreground',
    '--log-stderr',
    `--log-level=${options.logLevel ?? 5}`,
    '--table=-1',
    `--interface=${config.host}`,
    `--listen-ng=${config.host}:${config.rtpengineNgPort}`,
    `--port-min=${config.rtpPortMin}`,
    `--port-max=${config.rtpPortMax}`,
    '--timeout=60',
    '--silent-timeout=3600',
    '--delete-delay=0',
    `--recording-dir=${paths.recordingsDir}`,
    '--recording-method=pcap',
    '--recording-format=eth',
    `--dtmf-log-dest=${config.host}:${config.dtmfLogPort}`,
    '--num-threads=2',
    '--media-num-threads=2',
    `--pidfile=${paths.rtpenginePid}`,
  ]
}
