import { useProfile } from '../../api/useProfile.ts'

// The pause types the agent may start (spec 000 §2 pause widget, §3 profile `pauses`): the profile lists them, already
// filtered by the server to the active types agents may start in the user's team.

/** What the widget needs of a pause type (the profile sends the whole pause option). */
export type PauseType = { id: number; description: string; maximum_duration: number | null }

/** Reads the profile's list, keeping the valid entries. */
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
  return asPauseTypes(useProfile().pauses)
}
