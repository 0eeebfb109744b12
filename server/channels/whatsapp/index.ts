import { registerChannelDriver } from '../../chat/outbox.ts'
import { registerWebhookProcessor } from '../../chat/webhook-events.ts'
import { whatsappDriver } from './driver.ts'
import { processWhatsAppEvent } from './process.ts'

// The WhatsApp channel registers itself with the chat core when loaded: its outbox driver and the processor of its
// stored webhook events. The routes (webhook-routes.ts, template-routes.ts) are registered by the composition root.
registerChannelDriver(whatsappDriver)
registerWebhookProcessor('whatsapp', (deps, event) => processWhatsAppEvent(deps, event))

export { whatsappWebhookRoutes } from './webhook-routes.ts'
export { whatsappTemplateRoutes } from './template-routes.ts'
