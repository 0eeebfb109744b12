import { queryOptions } from '@tanstack/react-query'
import type { CallRow, CallStepRow } from '../../../contract/api/calls.ts'
import { CALL_PATHS, RECORDING_PLAYER_PATH } from '../../../contract/api/calls.ts'
import { PAGE_SIZE_ALL, UNPAGED_LIMIT } from '../../../contract/constants.ts'
import { api } from '../../api/client.ts'
import type { Query } from '../../api/client.ts'
import { dayjs } from '../../app/dates.ts'
import type { ListResponse } from '../../entities/api.ts'

// The calls screen's requests (spec 000 §2 /phonecalls, spec 001 §7): the report list with its filters, one call's
// steps, and the recording player's media URLs (outside /api, so the <audio> element and a plain link can use them
// with the session cookie).

export type CallFilters = {
  /** yyyy-mm-dd from the date inputs: whole local days. */
  from: string
  to: string
  /** A comma list of call types ('20,21' for a group). */
  callType: string
  /** A comma list of dial status codes. */
  dialStatus: string
  /** Part of the phone, caller or callee (already debounced). */
  search: string
  /** A queue id. */
  queue: string
  /** A classification id (what the agents recorded). */
  classification: string
}

export const NO_FILTERS: CallFilters = { from: '', to: '', callType: '', dialStatus: '', search: '', queue: '', classification: '' }

/** GET /v1/report/calls/'s query: paging plus the filters that are set (dates as local-day bounds in ISO). */
export function callListParams(filters: CallFilters, page: number, pageSize: number): Query {
  const all = pageSize === PAGE_SIZE_ALL
  const search = filters.search.trim()
  return {
    offset: all ? 0 : page * pageSize,
    limit: all ? UNPAGED_LIMIT : pageSize,
    ...(filters.from ? { start_date: dayjs(filters.from).startOf('day').toISOString() } : {}),
    ...(filters.to ? { end_date: dayjs(filters.to).endOf('day').toISOString() } : {}),
    ...(filters.callType ? { call_type: filters.callType } : {}),
    ...(filters.dialStatus ? { dial_status: filters.dialStatus } : {}),
    ...(search ? { search } : {}),
    ...(filters.queue ? { queue: filters.queue } : {}),
    ...(filters.classification ? { classification: filters.classification } : {}),
  }
}

export function callListQuery(filters: CallFilters, page: number, pageSize: number) {
  const query = callListParams(filters, page, pageSize)
  return queryOptions({
    queryKey: ['calls', 'list', query] as const,
    queryFn: ({ signal }) => api.get<ListResponse<CallRow>>(CALL_PATHS.calls, query, { signal }),
    placeholderData: (previous) => previous,
  })
}

export function callStepsQuery(callId: string) {
  return queryOptions({
    queryKey: ['calls', 'steps', callId] as const,
    queryFn: ({ signal }) => api.get<ListResponse<CallStepRow>>(CALL_PATHS.callSteps.replace(':callId', encodeURIComponent(callId)), undefined, { signal }),
  })
}

/** The player's source (`file_response=false`: inline audio) or the mp3 download (`download=1&extension=mp3`). */
export function recordingUrl(callId: string, purpose: 'play' | 'download'): string {
  const path = RECORDING_PLAYER_PATH.replace(':callId', encodeURIComponent(callId))
  return purpose === 'play' ? `${path}?file_response=false` : `${path}?download=1&extension=mp3`
}

/** Queues for the filter: the destination pickers' lookup, which every signed-in user may read. */
export const QUEUE_LOOKUP = '/api/v1/service/apps/pabx/queues/'
/** Classifications for the filter (readable by the agents' and supervisors' softphone permission too). */
export const CLASSIFICATION_LOOKUP = '/api/v1/service/classifications/'
