import type { Bus } from '../bus/bus.ts'
import type { ChatEvent } from './types.ts'

// SKELETON (issue 13, owner chatcore): the bus channel every chat socket instance listens to.

export const CHAT_CHANNEL = 'chat:events'

export async function publishChatEvent(bus: Bus, event: ChatEvent): Promise<void> {
  await bus.publish(CHAT_CHANNEL, event)
}
