import { AGENT_PATHS } from '../../../contract/api/agent.ts'
import type { PauseCheckResponse, PauseResponse } from '../../../contract/api/agent.ts'
import { PROFILE_PATHS } from '../../../contract/api/profile.ts'
import type { ValidatePasswordResponse } from '../../../contract/api/profile.ts'
import type { StartPauseRequest, StopPauseRequest } from '../../../machines/pause.machine.ts'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client.ts'

// The REST calls of the presence actors (spec 000 §7 pause start/stop/check, validate-password), through the one
// client. Pause failures answer 200 with success false and a code: the pause machine reads them as answers.

export function startPause({ pause_id, report_pause_id }: StartPauseRequest): Promise<PauseResponse> {
  return api.post<PauseResponse>(AGENT_PATHS.pauseStart, { pause_id }, { query: { report_pause_id } })
}

export function stopPause(body: StopPauseRequest): Promise<PauseResponse> {
  return api.post<PauseResponse>(AGENT_PATHS.pauseStop, body)
}

/** The running pause as the server last described it (its description, maximum); written by the agent system. */
export const CURRENT_PAUSE_KEY = ['presence', 'current-pause'] as const
/** The agent's due activities, written by the service socket's `activity` frames (src/app/agentSystem.ts). */
export const PENDING_ACTIVITIES_KEY = ['presence', 'pending-activities'] as const

export function checkPause(): Promise<PauseCheckResponse> {
  return api.get<PauseCheckResponse>(AGENT_PATHS.pauseCheck)
}

export function validatePassword(password: string): Promise<ValidatePasswordResponse> {
  return api.post<ValidatePasswordResponse>(PROFILE_PATHS.validatePassword, { password })
}

/** The running pause as the server described it; the agent system keeps it current, so this rarely fetches. */
export function useDescribedPause(running: boolean): PauseCheckResponse {
  const { data } = useQuery({ queryKey: CURRENT_PAUSE_KEY, queryFn: checkPause, enabled: running, staleTime: Infinity })
  return data ?? null
}
