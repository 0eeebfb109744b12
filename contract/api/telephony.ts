// The telephony engines' status (GET /api/v1/pabx/telephony/status/, server/telephony/engines/): what an admin sees
// on /settings, and the command that installs what is missing.

export const TELEPHONY_STATUS_PATH = '/api/v1/pabx/telephony/status/'
/** Who may read it: the administrators who see the trunks. */
export const TELEPHONY_STATUS_PERMISSION = 'pabx.view_trunk'

export type TelephonyMode = 'embedded' | 'external' | 'off'

export type EngineState = 'off' | 'missing' | 'starting' | 'running' | 'restarting' | 'stopped' | 'external' | 'unreachable'

export type EngineStatus = {
  state: EngineState
  version: string | null
  pid: number | null
  restarts: number
  /** The last reason it stopped or failed to start, if any. */
  last_error: string | null
}

export type TelephonyStatus = {
  mode: TelephonyMode
  kamailio: EngineStatus
  rtpengine: EngineStatus
  /** The command that installs what is missing; null when nothing is. */
  install_hint: string | null
}

/** Kamailio's shared memory (what too many connections once exhausted) and what fills it, read every few seconds. */
export type KamailioLoad = {
  shm_total: number
  shm_used: number
  shm_max_used: number
  /** shm_used / shm_total, 0..1. */
  pressure: number
  /** `high` from 70 %, `critical` from 90 %: new connections and calls start failing near 100 %. */
  level: 'ok' | 'high' | 'critical'
  dialogs: number
  registered: number
  tcp_connections: number
  websockets: number
  /** When it was read (ISO). */
  at: string
}

export const MEMORY_HIGH = 0.7
export const MEMORY_CRITICAL = 0.9

export function memoryLevel(pressure: number): KamailioLoad['level'] {
  return pressure >= MEMORY_CRITICAL ? 'critical' : pressure >= MEMORY_HIGH ? 'high' : 'ok'
}

/** The status answer: the engines, whether the server's evapi link to Kamailio is up, and Kamailio's load (null until read). */
export type TelephonyStatusAnswer = TelephonyStatus & { evapi: { connected: boolean }; kamailio_load: KamailioLoad | null }
