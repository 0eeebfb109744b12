import type { AppDeps } from '../deps.ts'

// SKELETON (issue 13, owner chatcore): raw provider events stored before the provider is answered.

export type WebhookProcessor = (deps: AppDeps, event: { id: number; siteId: number; channelId: number; body: Buffer }) => Promise<void>

const processors = new Map<string, WebhookProcessor>()

/** A channel names how its stored events are processed (once now, again by the recovery after a crash). */
export function registerWebhookProcessor(channelType: string, processor: WebhookProcessor): void {
  processors.set(channelType, processor)
}

export function webhookProcessor(channelType: string): WebhookProcessor | undefined {
  return processors.get(channelType)
}

/** Stores the raw body; answers its id. The caller answers the provider only after this resolves. */
export async function storeWebhookEvent(_deps: AppDeps, _event: { siteId: number; channelId: number; body: Buffer }): Promise<number> {
  throw new Error('storeWebhookEvent: not implemented yet (chatcore)')
}
