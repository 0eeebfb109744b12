import type { FastifyInstance } from 'fastify'
import { MediaBrain } from './brain.ts'
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
  const log = app.log.child({ part: 'media' })
  const brain = runs
    ? new MediaBrain({
        db,
        host: config.telephony.host,
        port: config.telephony.mediaControlPort,
        log,
        // Supervisors see the waiting callers live (waiting-feed.ts).
        onWaiting: (siteId, callers) => void publishQueueCallers(app.deps.bus, siteId, callers).catch((err: unknown) => log.warn({ err }, 'publishing waiting callers failed')),
      })
    : null
  brain?.start()
  app.decorate('media', brain)
  app.addHook('onClose', async () => brain?.stop())
}
;(mediaService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
