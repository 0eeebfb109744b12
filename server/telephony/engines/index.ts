import type { TelephonyConfig } from '../../config.ts'
import { NgClient } from '../ng.ts'
import { kamailioArgs, rtpengineArgs, telephonyPaths, writeKamailioConfig } from './generate.ts'
import { sipOptionsPing } from './sip-probe.ts'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { EngineLogger, EngineStatus } from './supervisor.ts'
import { EngineSupervisor, engineVersion, resolveBinary } from './supervisor.ts'

// The two engines under the server: Kamailio (SIP edge) and rtpengine (media). `embedded` spawns and supervises them
// when their binaries exist (else the server runs without telephony and says how to install them); `external` only
// checks that engines run at the configured addresses; `off` does nothing.

export const INSTALL_HINT = 'apt-get install kamailio kamailio-websocket-modules kamailio-extra-modules kamailio-utils-modules rtpengine-daemon'

export type { TelephonyStatus } from '../../../contract/api/telephony.ts'
import type { TelephonyStatus } from '../../../contract/api/telephony.ts'

export type TelephonyEngines = {
  status(): Promise<TelephonyStatus>
  /** Resolves when both engines answer (or at once when they cannot run). */
  ready(): Promise<void>
  supervisors: { kamailio: EngineSupervisor | null; rtpengine: EngineSupervisor | null; mediaapp?: EngineSupervisor | null }
  stop(): Promise<void>
}

const blank = (state: EngineStatus['state']): EngineStatus => ({ state, version: null, pid: null, restarts: 0, last_error: null })

export async function startEngines(config: TelephonyConfig, log: EngineLogger, options: { readyTimeoutMs?: number } = {}): Promise<TelephonyEngines> {
  const ng = new NgClient({ host: config.host, port: config.rtpengineNgPort, timeoutMs: 1000 })
  const probes = {
    rtpengine: () => ng.ping(300),
    kamailio: async () => (await sipOptionsPing(config.host, config.sipPort, 300)) === 200,
  }

  if (config.mode === 'off') {
    return {
      status: async () => ({ mode: 'off', kamailio: blank('off'), rtpengine: blank('off'), install_hint: null }),
      ready: async () => {},
      supervisors: { kamailio: null, rtpengine: null },
      stop: async () => ng.close(),
    }
  }

  if (config.mode === 'external') {
    log.info({ sip: `${config.host}:${config.sipPort}`, ng: `${config.host}:${config.rtpengineNgPort}` }, 'telephony: using external engines')
    return {
      async status() {
        const [kamailio, rtpengine] = await Promise.all([probes.kamailio(), probes.rtpengine()])
        return {
          mode: 'external',
          kamailio: blank(kamailio ? 'external' : 'unreachable'),
          rtpengine: blank(rtpengine ? 'external' : 'unreachable'),
          install_hint: null,
        }
      },
      ready: async () => {},
      supervisors: { kamailio: null, rtpengine: null },
      stop: async () => ng.close(),
    }
  }

  const [kamailioBin, rtpengineBin] = await Promise.all([resolveBinary(config.kamailioBin), resolveBinary(config.rtpengineBin)])
  const missing = [!kamailioBin && 'kamailio', !rtpengineBin && 'rtpengine'].filter(Boolean)
  if (!kamailioBin || !rtpengineBin) {
    log.warn({ missing }, `telephony: ${missing.join(' and ')} not found, so calls are off (everything else runs). Install them with: ${INSTALL_HINT}`)
    const status: TelephonyStatus = {
      mode: 'embedded',
      kamailio: blank(kamailioBin ? 'stopped' : 'missing'),
      rtpengine: blank(rtpengineBin ? 'stopped' : 'missing'),
      install_hint: INSTALL_HINT,
    }
    return { status: async () => status, ready: async () => {}, supervisors: { kamailio: null, rtpengine: null }, stop: async () => ng.close() }
  }

  const paths = telephonyPaths(config)
  await writeKamailioConfig(config)
  const [kamailioVersion, rtpengineVersion] = await Promise.all([engineVersion(kamailioBin, 'kamailio'), engineVersion(rtpengineBin, 'rtpengine')])
  const common = { log, readyTimeoutMs: options.readyTimeoutMs ?? 10_000, cwd: paths.dir }
  const rtpengine = new EngineSupervisor({
    ...common,
    name: 'rtpengine',
    bin: rtpengineBin,
    args: rtpengineArgs(config),
    probe: probes.rtpengine,
    pidFile: paths.rtpenginePid,
  })
  const kamailio = new EngineSupervisor({
    ...common,
    name: 'kamailio',
    bin: kamailioBin,
    args: kamailioArgs(config),
    probe: probes.kamailio,
    pidFile: paths.kamailioPid,
  })
  // The media app (server/media/app/): a Node process of its own on the same leash, so a crash of it (or of a
  // library inside it) never takes the server down, and a killed one is started again.
  const mediaapp = new EngineSupervisor({
    ...common,
    name: 'mediaapp',
    bin: process.execPath,
    args: mediaAppArgs(config),
    probe: async () => (await sipOptionsPing(config.host, config.mediaSipPort, 300)) === 200,
    pidFile: path.join(paths.runDir, 'mediaapp.pid'),
  })
  rtpengine.status.version = rtpengineVersion
  kamailio.status.version = kamailioVersion
  mediaapp.status.version = process.version
  // rtpengine first: Kamailio's first offer should find it.
  await rtpengine.start()
  await kamailio.start()
  await mediaapp.start()
  return {
    status: async () => ({ mode: 'embedded', kamailio: { ...kamailio.status }, rtpengine: { ...rtpengine.status }, install_hint: null }),
    // The media app is not waited for: calls run without it (callers just cannot wait), and the brain links up when
    // it answers.
    ready: async () => {
      await Promise.all([rtpengine.whenReady(), kamailio.whenReady()])
    },
    supervisors: { kamailio, rtpengine, mediaapp },
    async stop() {
      await mediaapp.stop()
      await kamailio.stop()
      await rtpengine.stop()
      ng.close()
    },
  }
}

const MEDIA_APP_MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'media', 'app', 'main.ts')

/** What the media app process is told (server/media/app/main.ts reads it as JSON). */
export type MediaAppArgs = {
  /** Kamailio's SIP UDP address. */
  sipHost: string
  sipPort: number
  /** Where the app listens for SIP (UDP): Kamailio routes media destinations there and knows the app by it. */
  listenHost: string
  listenPort: number
  ngHost: string
  ngPort: number
  /** rtpengine's --dtmf-log-dest. */
  dtmfPort: number
  /** The control link's TCP port (loopback): the server's brain connects to it. */
  controlPort: number
}

/** `node server/media/app/main.ts '<options>'`: where Kamailio, rtpengine and the server find the media app. */
export function mediaAppArgs(config: TelephonyConfig): string[] {
  const options: MediaAppArgs = {
    sipHost: config.host,
    sipPort: config.sipPort,
    listenHost: config.host,
    listenPort: config.mediaSipPort,
    ngHost: config.host,
    ngPort: config.rtpengineNgPort,
    dtmfPort: config.dtmfLogPort,
    controlPort: config.mediaControlPort,
  }
  return [MEDIA_APP_MAIN, JSON.stringify(options)]
}
