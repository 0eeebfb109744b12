import { dialerPaths } from '../../contract/api/dialer.ts'
import type { MakeCallResponse, PreviewLead } from '../../contract/api/dialer.ts'
import { api } from '../api/client.ts'
import type { DialerEffects } from './types.ts'

// The preview dialer's requests (contract/api/dialer.ts; the API client's paths are relative to /api).

export const dialerEffects: DialerEffects = {
  previewLead: () => api.get<PreviewLead>(dialerPaths.preview),
  makeCall: (mailingClient) => api.put<MakeCallResponse>(dialerPaths.makeCall, undefined, { query: { mailing_client: mailingClient } }),
  release: (mailingClient) => api.put(dialerPaths.makeCall, undefined, { query: { mailing_client: mailingClient, remove_reserved: 'true', skip: 'true' } }),
}
