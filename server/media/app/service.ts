import type { FastifyInstance } from 'fastify'
import { pushToUser } from '../../bus/channels.ts'
import { MediaBrain } from './brain.ts'
import type { MediaHooks } from './call-context.ts'
import { publishQueueCallers } from './waiting-feed.ts'

// The media app's brain as a part of the server (registered by app.ts after telephony): it runs when the telephony
// part runs the media app process (engines/index.ts), and `app.media` is null otherwise.

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaBrain | null
  }
}

export async function mediaService(app: FastifyInstance): Promise<void> {
  const { config, db } = app.deps
  const runs = app.telephony.evapi !== null && app.telephony.engines.supervisors.mediaapp != null
  const hooks: MediaHooks = {
    // A new voicemail message: every owner's top bar hears of it (server/media/app/voicemail.ts).
    onVoicemail: ({ siteId, voicemailId, messageId, userIds }) => {
      for (const userId of userIds)
        void pushToUser(app.deps.bus, { siteId, userId }, { action: 'voicemail', voicemail: voicemailId, message: messageId }).catch((err: unknown) =>
          app.log.warn({ err }, 'media app: a voicemail notice failed'),
        )
    },
  }
  const log = app.log.child({ part: 'media' })
  const brain = runs
    ? new MediaBrain({
        db,
        host: config.telephony.host,
        port: config.telephony.mediaControlPort,
        log,
        hooks,
        // Supervisors see the waiting callers live (waiting-feed.ts).
        onWaiting: (siteId, callers) => void publishQueueCallers(app.deps.bus, siteId, callers).catch((err: unknown) => log.warn({ err }, 'publishing waiting callers failed')),
      })
    : null
  brain?.start()
  app.decorate('media', brain)
  app.addHook('onClose', async () => brain?.stop())
}
;(mediaService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
