import type { FastifyInstance } from 'fastify'
import type { RoutePermission } from '../http/permission-guard.ts'
import type { CallControl } from './types.ts'
import { createCallControl } from './control/index.ts'
import { CredentialPublisher } from './credentials.ts'
import type { Resolver } from './credentials.ts'
import { TELEPHONY_TABLES_CHANNEL } from './changes.ts'
import { EvapiClient } from './evapi.ts'
import { startEngines } from './engines/index.ts'
import type { TelephonyEngines, TelephonyStatus } from './engines/index.ts'
import { registerSipProxy } from './sip-proxy.ts'

// The telephony part of the server (README.md here): the engines (spawned and supervised, external, or off), the
// evapi link to Kamailio with call control behind it, Kamailio's credential and trunk tables kept equal to the
// database, the /ws/sip proxy and GET /api/v1/pabx/telephony/status/.

import { TELEPHONY_STATUS_PATH, TELEPHONY_STATUS_PERMISSION as STATUS_PERMISSION } from '../../contract/api/telephony.ts'
export { TELEPHONY_STATUS_PATH }
/** Who may read the engines' status: the administrators who can see the trunks. */
export const TELEPHONY_STATUS_PERMISSION = STATUS_PERMISSION as RoutePermission

export type TelephonyOptions = {
  /** Call control (tests inject a double); default createCallControl over the app's database. */
  control?: CallControl
  /** Trunk host resolution (tests). */
  resolve?: Resolver
}

export type TelephonyHandle = {
  engines: TelephonyEngines
  evapi: EvapiClient | null
  publisher: CredentialPublisher | null
  status(): Promise<TelephonyStatus & { evapi: { connected: boolean } }>
}

declare module 'fastify' {
  interface FastifyInstance {
    telephony: TelephonyHandle
  }
}

export async function telephonyService(app: FastifyInstance, options: TelephonyOptions = {}): Promise<void> {
  const { config, db, bus } = app.deps
  const telephony = config.telephony
  const log = app.log.child({ part: 'telephony' })
  const engines = await startEngines(telephony, log)
  const usable = telephony.mode !== 'off' && (await engines.status()).install_hint === null

  let evapi: EvapiClient | null = null
  let publisher: CredentialPublisher | null = null
  let unsubscribe: (() => Promise<void>) | null = null
  if (usable) {
    const control = options.control ?? createCallControl({ db, log })
    const client = new EvapiClient({
      host: telephony.host,
      port: telephony.evapiPort,
      control,
      log,
      onHello: () => publisher!.pushAll(),
    })
    evapi = client
    publisher = new CredentialPublisher({ db, send: (command) => client.send(command), resolve: options.resolve, log })
    const push = publisher
    unsubscribe = await bus.subscribe(TELEPHONY_TABLES_CHANNEL, () => {
      push.pushChanges().catch((err: unknown) => log.warn({ err }, 'telephony: pushing table changes failed'))
    })
    client.start()
  }

  app.decorate('telephony', {
    engines,
    evapi,
    publisher,
    async status() {
      return { ...(await engines.status()), evapi: { connected: evapi?.connected ?? false } }
    },
  } satisfies TelephonyHandle)

  app.addHook('onClose', async () => {
    await unsubscribe?.()
    evapi?.stop()
    await engines.stop()
  })

  app.get(TELEPHONY_STATUS_PATH, { config: { permission: TELEPHONY_STATUS_PERMISSION } }, async () => app.telephony.status())

  registerSipProxy(app, { upstream: () => (usable ? `ws://${telephony.host}:${telephony.sipWsPort}/` : null) })
}
// Registered at the root: app.telephony and the websocket route belong to the whole app.
;(telephonyService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
