import { queryOptions } from '@tanstack/react-query'
import { ACTIVITY_PATHS } from '../../../contract/api/activities.ts'
import type { Activity, ActivityListResponse } from '../../../contract/api/activities.ts'
import { api } from '../../api/client.ts'

// The activity requests (contract/api/activities.ts, our paths): the agent's list, schedule one (supervisor), mark
// one done, record a dial attempt (the activity dialer of the agent system).

const withId = (path: string, id: number) => path.replace(':id', String(id))

export const ACTIVITIES_KEY = ['activities'] as const

/** GET /v1/agent/activities/?upcoming=true: the agent's pending activities, due or not yet. */
export function upcomingActivitiesQuery() {
  return queryOptions({
    queryKey: [...ACTIVITIES_KEY, 'upcoming'] as const,
    queryFn: ({ signal }) => api.get<ActivityListResponse>(ACTIVITY_PATHS.list, { upcoming: 'true' }, { signal }),
  })
}

/** The create body as the form sends it (the server parses it with ActivityCreateBody). */
export type ActivityCreateRequest = {
  user: number
  destination: string
  start: string
  end: string | null
  subject: string
  type: string
  automatic_execution: boolean
}

export function createActivity(body: ActivityCreateRequest): Promise<Activity> {
  return api.post<Activity>(ACTIVITY_PATHS.list, body)
}

export function markActivityDone(id: number): Promise<Activity> {
  return api.post<Activity>(withId(ACTIVITY_PATHS.done, id))
}

export function recordActivityAttempt(id: number): Promise<Activity> {
  return api.post<Activity>(withId(ACTIVITY_PATHS.attempt, id))
}
