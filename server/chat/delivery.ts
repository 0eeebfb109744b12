import type { AppDeps } from '../deps.ts'
import type { DeliveryReport } from './types.ts'

// SKELETON (issue 13, owner chatcore): a provider's delivery report, applied only forward.

export async function applyDelivery(_deps: AppDeps, _report: DeliveryReport): Promise<void> {
  throw new Error('applyDelivery: not implemented yet (chatcore)')
}
