import * as v from 'valibot'
import type { CampaignCommand } from './dialer.ts'

// WhatsApp template campaigns' runtime API (server/chat/campaigns.ts; issue 18 item 4): start, pause and stop a
// campaign of `service.chats-campaigns` and read its progress — the same commands as the dialer's campaigns.

export const chatCampaignPaths = {
  command: (id: number | string, command: CampaignCommand) => `/api/v1/service/chats-campaigns/${id}/${command}/`,
  progress: (id: number | string) => `/api/v1/service/chats-campaigns/${id}/progress/`,
} as const

/** A WhatsApp campaign's progress: the REST answer and the service socket's `chatCampaignProgress` frame. */
export const ChatCampaignProgressShape = v.strictObject({
  campaign: v.number(),
  status: v.picklist(['running', 'paused', 'stopped', 'idle']),
  /** Leads of the campaign's mailings. */
  leads_total: v.number(),
  /** Templates written to the outbox (their delivery statuses are the messages'). */
  leads_sent: v.number(),
  /** Leads not sent: no phone, a phone that is no number, a blacklisted number, the customer in another open chat of the channel. */
  leads_skipped: v.number(),
  /** Sent leads whose customer answered (their room went to the campaign's chat queue). */
  leads_replied: v.number(),
  leads_remaining: v.number(),
})
export type ChatCampaignProgress = v.InferOutput<typeof ChatCampaignProgressShape>
