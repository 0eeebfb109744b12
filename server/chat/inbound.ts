import type { AppDeps } from '../deps.ts'
import type { InboundMessage, InboundResult } from './types.ts'

// SKELETON (issue 13, owner chatcore): a customer's message into its room.

export async function receiveInbound(_deps: AppDeps, _message: InboundMessage): Promise<InboundResult> {
  throw new Error('receiveInbound: not implemented yet (chatcore)')
}
