import { CLIENT_MESSAGES, SERVICE_SOCKET_PATH } from '../../../contract/realtime/service-socket.ts'
import type { ClientMessage } from '../../../contract/realtime/service-socket.ts'
import type { ServiceEvent, SupervisorsEnvelope, UserEnvelope } from '../../bus/channels.ts'
import { SERVICE_CHANNEL, SUPERVISORS_CHANNEL, USER_CHANNEL } from '../../bus/channels.ts'
import { createAgentPresence } from '../../agent/presence.ts'
import { afterServiceFinished, afterServiceTimer, recordWebphoneAnswer } from '../../telephony/control/call-service.ts'
import { defineSocket } from '../definition.ts'
import { ServiceOwnership } from '../service-ownership.ts'

// The service socket /ws/business/ (the status feed): spec 000 §4, §7; spec 001 §4, §7. Shapes in
// contract/realtime/service-socket.ts; the host (../host.ts) opens, limits and closes it. Server code never writes to
// these sockets: it publishes on the bus (server/bus/channels.ts) and every instance delivers to the ones it holds.

export const businessSocket = defineSocket<ClientMessage>({
  path: SERVICE_SOCKET_PATH,
  clientMessages: CLIENT_MESSAGES,
  async open({ deps, log, instance, registry }) {
    const { bus, config, db } = deps
    const ownership = new ServiceOwnership(bus, registry, instance, config.realtime, log)
    const presence = createAgentPresence(deps)

    // ---- bus → local sockets
    const unsubscribe = await Promise.all([
      bus.subscribe(USER_CHANNEL, (payload) => {
        const { site_id, user_id, message, except } = payload as UserEnvelope
        const frame = JSON.stringify(message)
        for (const connection of registry.ofUser(site_id, user_id)) if (connection.id !== except) connection.sendRaw(frame)
      }),
      bus.subscribe(SUPERVISORS_CHANNEL, (payload) => {
        const { site_id, message } = payload as SupervisorsEnvelope
        const frame = JSON.stringify(message)
        for (const connection of registry.supervisorsOf(site_id)) connection.sendRaw(frame)
      }),
      bus.subscribe(SERVICE_CHANNEL, (payload) => {
        ownership.onEvent(payload as ServiceEvent).catch((err: unknown) => log.warn({ err }, 'service ownership event failed'))
      }),
    ])

    return {
      stop: () => ownership.stop(),
      close: async () => {
        await Promise.all(unsubscribe.map((off) => off()))
      },
      closed: (connection) => ownership.release(connection),
      async dispatch(connection, frame) {
        const who = { siteId: connection.siteId, userId: connection.userId }
        switch (frame.action) {
          case 'login':
            return ownership.login(connection)
          case 'ping':
            return connection.send({ action: 'pong' })
          case 'server_pong':
            return
          case 'get_pauses':
            return connection.send({ action: 'pause', pause: await presence.currentPause(who) })
          case 'get_activities':
            return connection.send({ action: 'activity', activities: await presence.pendingActivities(who) })
          case 'service_here':
            return ownership.claim(connection)
          case 'change_page':
          case 'changePage':
            connection.page = frame.page
            return
          case 'change_state':
            return presence.reportStatus(who, frame.channel, frame.status)
          case 'start_pause': {
            // The REST start already told every socket of the user; a client that names another pause is out of step.
            const pause = await presence.currentPause(who)
            if (pause?.id !== frame.id) connection.send({ action: 'pause', pause })
            return
          }
          case 'done_activity':
            return presence.doneActivity(who, frame.id)
          case 'logout':
            return ownership.release(connection)
          case 'webphone_answer':
            await recordWebphoneAnswer(db, who, frame.uid, frame.call_id ?? '')
            return
          case 'after_service_finished':
            await afterServiceFinished(db, who, frame.session_id)
            return
          case 'after_service_timer':
            await afterServiceTimer(db, who, frame.step_uid)
            return
          default:
            frame satisfies never
        }
      },
    }
  },
})
