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

/** The status answer: the engines plus whether the server's evapi link to Kamailio is up. */
export type TelephonyStatusAnswer = TelephonyStatus & { evapi: { connected: boolean } }
