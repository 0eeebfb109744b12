import { CRM_PATHS, INTERACTION_PATHS } from '../../../contract/api/crm.ts'
import type { InteractionAttachmentsResponse, InteractionTypeResponse } from '../../../contract/api/crm.ts'
import type { DuplicatesResponse, MatchResponse, MergeResponse, TimelineKind, TimelineResponse } from '../../../contract/api/crm.ts'
import { api } from '../../api/client.ts'

// The CRM calls of contract/api/crm.ts, for the client page and the agent's caller card.

const withId = (path: string, id: number) => path.replace(':id', String(id))

export const crmApi = {
  timeline: (id: number, kinds: readonly TimelineKind[], cursor?: string) =>
    api.get<TimelineResponse>(withId(CRM_PATHS.timeline, id), { channel: kinds.length ? kinds.join(',') : undefined, cursor }),
  duplicates: (id: number) => api.get<DuplicatesResponse>(withId(CRM_PATHS.duplicates, id)),
  merge: (id: number, mergeId: number) => api.post<MergeResponse>(withId(CRM_PATHS.merge, id), { merge_id: mergeId }),
  match: (phone: string) => api.get<MatchResponse>(CRM_PATHS.match, { phone }),
  /** An interaction type by id or slug, with its form's fields. */
  interactionType: (key: number | string) => api.get<InteractionTypeResponse>(INTERACTION_PATHS.type.replace(':key', String(key))),
  attachments: (id: number) => api.get<InteractionAttachmentsResponse>(withId(INTERACTION_PATHS.attachments, id)),
  attach: (id: number, files: readonly File[]) => {
    const body = new FormData()
    for (const file of files) body.append('file', file, file.name)
    return api.post<InteractionAttachmentsResponse>(withId(INTERACTION_PATHS.attachments, id), body)
  },
  /** `url` is the file's own (`/api/v1/…`), as the list gives it. */
  detach: (url: string) => api.delete<void>(url),
}
