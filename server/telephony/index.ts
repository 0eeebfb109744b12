import type { FastifyInstance } from 'fastify'
import type { RoutePermission } from '../http/permission-guard.ts'
import type { CallControl } from './types.ts'
import { createCallControl } from './control/index.ts'
import { announceStepChange } from './control/step-change.ts'
import { CredentialPublisher } from './credentials.ts'
import type { Resolver } from './credentials.ts'
import { TELEPHONY_TABLES_CHANNEL } from './changes.ts'
import { EvapiClient } from './evapi.ts'
import { startEngines } from './engines/index.ts'
import type { TelephonyEngines } from './engines/index.ts'
import { registerSipProxy } from './sip-proxy.ts'
import { DialogReconciler } from './control/reconcile.ts'
import { sweepAfterServices } from './control/after-service.ts'
import type { StatsEvent } from './types.ts'
import { memoryLevel } from '../../contract/api/telephony.ts'
import type { TelephonyConfig } from '../config.ts'

/** Where Kamailio sends the calls the media app holds (`dst` of call control's relays). */
export const mediaAppAddress = (telephony: TelephonyConfig) => `sip:${telephony.host}:${telephony.mediaSipPort};transport=udp`
import type { KamailioLoad, TelephonyStatusAnswer } from '../../contract/api/telephony.ts'

/** How often after-services whose time is over are ended (control/after-service.ts). */
const AFTER_SERVICE_SWEEP_MS = 5000

/** How often Kamailio's memory and load are read for the status card (and a warning logged when memory runs high). */
const STATS_EVERY_MS = 5000

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
  /** Closes call records whose dialog Kamailio no longer has (every SIP_RECONCILE_SECONDS; tests call sweep()). */
  reconciler: DialogReconciler | null
  status(): Promise<TelephonyStatusAnswer>
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
  let reconciler: DialogReconciler | null = null
  let load: KamailioLoad | null = null
  const timers: NodeJS.Timeout[] = []
  const onStats = (event: StatsEvent) => {
    const total = Number(event.shm_total) || 0
    const pressure = total > 0 ? Math.min(1, (Number(event.shm_used) || 0) / total) : 0
    const level = memoryLevel(pressure)
    if (level !== 'ok' && load?.level !== level) {
      log.warn(
        { pressure: Math.round(pressure * 100), websockets: event.websockets, dialogs: event.dialogs },
        `telephony: Kamailio's shared memory is ${level} (SIP_SHM_MB)`,
      )
    }
    load = {
      shm_total: total,
      shm_used: Number(event.shm_used) || 0,
      shm_max_used: Number(event.shm_max_used) || 0,
      pressure,
      level,
      dialogs: Number(event.dialogs) || 0,
      registered: Number(event.registered) || 0,
      tcp_connections: Number(event.tcp_connections) || 0,
      websockets: Number(event.websockets) || 0,
      at: new Date().toISOString(),
    }
  }
  // The media app process runs on the engines' leash (engines/index.ts; its brain is server/media/app/service.ts);
  // without it (external engines, off) callers cannot wait and IVRs answer 480.
  const mediaRuns = usable && engines.supervisors.mediaapp != null
  if (usable) {
    const control = options.control ?? createCallControl({
        db,
        log,
        mediaApp: mediaRuns ? mediaAppAddress(telephony) : null,
        onStepChange: announceStepChange(bus),
      })
    const client = new EvapiClient({
      host: telephony.host,
      port: telephony.evapiPort,
      control,
      log,
      onHello: () => publisher!.pushAll(),
      onDialogs: (event) => reconciler?.onDialogs(event),
      onStats,
    })
    evapi = client
    reconciler = new DialogReconciler({ db, send: (command) => client.send(command), log })
    const sweeper = reconciler
    timers.push(
      setInterval(() => {
        sweeper.sweep().catch((err: unknown) => log.warn({ err }, 'telephony: reconciling call records failed'))
      }, telephony.reconcileSeconds * 1000),
      setInterval(() => client.send({ cmd: 'stats' }), STATS_EVERY_MS),
    )
    for (const timer of timers) timer.unref()
    publisher = new CredentialPublisher({ db, send: (command) => client.send(command), resolve: options.resolve, log })
    const push = publisher
    unsubscribe = await bus.subscribe(TELEPHONY_TABLES_CHANNEL, () => {
      push.pushChanges().catch((err: unknown) => log.warn({ err }, 'telephony: pushing table changes failed'))
    })
    client.start()
  }

  // The server's afterServiceTimeout (control/after-service.ts): whether or not the engines run, an after-service
  // whose time is over ends and the agent's sockets hear it.
  const afterServiceSweep = setInterval(() => {
    sweepAfterServices(db, bus, new Date()).catch((err: unknown) => log.warn({ err }, 'telephony: ending after-services failed'))
  }, AFTER_SERVICE_SWEEP_MS)
  afterServiceSweep.unref()
  timers.push(afterServiceSweep)

  app.decorate('telephony', {
    engines,
    evapi,
    publisher,
    reconciler,
    async status() {
      const connected = evapi?.connected ?? false
      return { ...(await engines.status()), evapi: { connected }, kamailio_load: connected ? load : null }
    },
  } satisfies TelephonyHandle)

  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer)
    await unsubscribe?.()
    evapi?.stop()
    await engines.stop()
  })

  app.get(TELEPHONY_STATUS_PATH, { config: { permission: TELEPHONY_STATUS_PERMISSION } }, async () => app.telephony.status())

  registerSipProxy(app, {
    upstream: () => (usable ? `ws://${telephony.host}:${telephony.sipWsPort}/` : null),
    perUser: telephony.wsPerUser,
    perAddress: telephony.wsPerAddress,
  })
}
// Registered at the root: app.telephony and the websocket route belong to the whole app.
;(telephonyService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
