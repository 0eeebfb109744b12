import { queryOptions } from '@tanstack/react-query'
import { VOICEMAIL_PATHS } from '../../../contract/api/voicemail.ts'
import type { VoicemailList, VoicemailMessage } from '../../../contract/api/voicemail.ts'
import { api } from '../../api/client.ts'

// Voicemail messages (contract/api/voicemail.ts): the top bar lists the unheard ones of the user's boxes; the service
// socket's `voicemail` frame makes it ask again.

export const VOICEMAIL_KEY = ['voicemail-messages'] as const

const withId = (id: number) => VOICEMAIL_PATHS.message.replace(':id', String(id))

/** The unheard messages of the boxes the user may see (their extension's; every box for pabx.view_voicemail). */
export function unheardVoicemailQuery() {
  return queryOptions({
    queryKey: [...VOICEMAIL_KEY, 'unheard'] as const,
    queryFn: ({ signal }) => api.get<VoicemailList>(VOICEMAIL_PATHS.messages, { heard: 'false', limit: 20 }, { signal }),
    staleTime: 60_000,
  })
}

export function markVoicemailHeard(id: number, heard = true): Promise<VoicemailMessage> {
  return api.patch<VoicemailMessage>(withId(id), { heard })
}

export function deleteVoicemail(id: number): Promise<void> {
  return api.delete<void>(withId(id))
}
