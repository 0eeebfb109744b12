import { dialerPaths } from '../../contract/api/dialer.ts'
import type { MakeCallResponse, PreviewLead } from '../../contract/api/dialer.ts'
import { api } from '../api/client.ts'
import type { DialerEffects } from './types.ts'

// The preview dialer's requests (contract/api/dialer.ts; the API client's paths are relative to /api).

const rel = (path: string) => path.replace(/^\/api/, '')

export const dialerEffects: DialerEffects = {
  previewLead: () => api.get<PreviewLead>(rel(dialerPaths.preview)),
  makeCall: (mailingClient) => api.put<MakeCallResponse>(rel(dialerPaths.makeCall), undefined, { query: { mailing_client: mailingClient } }),
  release: (mailingClient) => api.put(rel(dialerPaths.makeCall), undefined, { query: { mailing_client: mailingClient, remove_reserved: 'true', skip: 'true' } }),
}
