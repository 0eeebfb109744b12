import { useQuery } from '@tanstack/react-query'
import { UNPAGED_LIMIT } from '../../../contract/constants.ts'
import { has } from '../../../contract/permissions.ts'
import { api } from '../../api/client.ts'
import { useProfile } from '../../api/useProfile.ts'

// The pause types the agent may choose (spec 000 §2 pause widget, §3 profile `pauses`). The profile's list comes
// first; while the server sends it empty, users who may read the settings list (service.view_pause) get the active
// types agents may start from /api/v1/service/pauses/. Others see an empty select.

export type PauseType = { id: number; description: string; maximum_duration: number | null }

/** The settings entity service.pauses (contract/entities/service.ts); a test checks both against the registry. */
export const PAUSES_SETTINGS_PATH = '/v1/service/pauses/'
export const VIEW_PAUSES_PERMISSION = 'service.view_pause'

/** Reads a list of pause types from whatever shape the server sent, keeping the valid ones. */
export function asPauseTypes(list: readonly unknown[] | undefined): PauseType[] {
  const types: PauseType[] = []
  for (const item of list ?? []) {
    if (!item || typeof item !== 'object') continue
    const { id, description, maximum_duration } = item as Record<string, unknown>
    if (typeof id !== 'number' || typeof description !== 'string') continue
    types.push({ id, description, maximum_duration: typeof maximum_duration === 'number' ? maximum_duration : null })
  }
  return types
}

export function usePauseTypes(): PauseType[] {
  const { pauses, roles } = useProfile()
  const fromProfile = asPauseTypes(pauses)
  const fromSettings = useQuery({
    queryKey: ['presence', 'pause-types'],
    queryFn: ({ signal }) =>
      api.get<{ results: unknown[] }>(PAUSES_SETTINGS_PATH, { is_active: true, agent_can_start: true, ordering: 'description', limit: UNPAGED_LIMIT }, { signal }),
    enabled: fromProfile.length === 0 && has(roles, VIEW_PAUSES_PERMISSION),
    staleTime: 60_000,
    select: (data) => asPauseTypes(data.results),
  })
  return fromProfile.length ? fromProfile : (fromSettings.data ?? [])
}
