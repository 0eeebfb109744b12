import { registerEntityHooks } from '../../entities/hooks.ts'
import { forgetWhatsAppChannel } from './channel.ts'
import { scheduleTemplateSync } from './templates.ts'

// A WhatsApp channel saved in the settings fetches its WABA's templates soon after (a wrong token only logs). Not in
// the seed (no bus there): the demo channel's simulator may not be running yet.
registerEntityHooks('chat.channels', {
  async afterCommit(ctx, id, after) {
    forgetWhatsAppChannel(id)
    if (!ctx.bus || !after || after.type !== 'whatsapp' || !after.is_active || !after.waba_id) return
    scheduleTemplateSync({ db: ctx.db }, id)
  },
})
