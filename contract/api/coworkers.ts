import type { EndpointStatus } from '../codes/states.ts'

// The coworkers directory (spec 000 §2 /coworkers; the path is ours): every active user of the caller's site with
// the status each reported on the service socket and since when, and the extension to call. Any signed-in user may
// read it: it names no more than the side menu shows of a colleague.
export const COWORKER_PATHS = { list: '/v1/crm/coworkers/' } as const

export type Coworker = {
  user: number
  username: string
  name: string
  /** The webphone's internal extension (voip endpoint), null without one. */
  extension: string | null
  telephony_status: EndpointStatus | null
  telephony_changed_at: string | null
  chat_status: EndpointStatus | null
  chat_changed_at: string | null
  /** A pause (break) is running. */
  paused: boolean
}

export type CoworkerListResponse = { count: number; results: Coworker[] }
