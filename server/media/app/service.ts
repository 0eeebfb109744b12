import type { FastifyInstance } from 'fastify'
import { MediaBrain } from './brain.ts'

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
  const brain = runs ? new MediaBrain({ db, host: config.telephony.host, port: config.telephony.mediaControlPort, log: app.log.child({ part: 'media' }) }) : null
  brain?.start()
  app.decorate('media', brain)
  app.addHook('onClose', async () => brain?.stop())
}
;(mediaService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
