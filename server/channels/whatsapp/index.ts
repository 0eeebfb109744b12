import { registerChannelDriver } from '../../chat/outbox.ts'
import { registerWebhookBatchProcessor, registerWebhookProcessor } from '../../chat/webhook-events.ts'
import { whatsappDriver } from './driver.ts'
import { processWhatsAppEvent, processWhatsAppEvents } from './process.ts'

// The WhatsApp channel registers itself with the chat core when loaded: its outbox driver and the processor of its
// stored webhook events. The routes (webhook-routes.ts, template-routes.ts) are registered by the composition root.
registerChannelDriver(whatsappDriver)
registerWebhookProcessor('whatsapp', (deps, event) => processWhatsAppEvent(deps, event))
registerWebhookBatchProcessor('whatsapp', (deps, events) => processWhatsAppEvents(deps, events))

export { whatsappWebhookRoutes } from './webhook-routes.ts'
export { whatsappTemplateRoutes } from './template-routes.ts'
