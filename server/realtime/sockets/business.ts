import { CLIENT_MESSAGES, SERVICE_SOCKET_PATH } from '../../../contract/realtime/service-socket.ts'
import type { ClientMessage } from '../../../contract/realtime/service-socket.ts'
import type { ServiceEvent, SupervisorsEnvelope, UserEnvelope } from '../../bus/channels.ts'
import { SERVICE_CHANNEL, SUPERVISORS_CHANNEL, USER_CHANNEL } from '../../bus/channels.ts'
import { createAgentPresence } from '../../agent/presence.ts'
import { afterServiceFinished, afterServiceTimer, recordWebphoneAnswer } from '../../telephony/control/call-service.ts'
import { findRoom, messageCount, unreadCount } from '../../routes/chat/queries.ts'
import { serializeRoomRows } from '../../routes/chat/serialize-rows.ts'
import { message } from '../../../contract/messages.ts'
import type { Connection } from '../connections.ts'
import { defineSocket } from '../definition.ts'
import { ServiceOwnership } from '../service-ownership.ts'
import { WallboardFeeds } from '../wallboard/wallboard-feed.ts'
import { loadWallboard } from '../wallboard/wallboard-query.ts'
import { wallboardHint } from '../wallboard/wallboard-hints.ts'

// The service socket /ws/business/ (the status feed): spec 000 §4, §7; spec 001 §4, §7. Shapes in
// contract/realtime/service-socket.ts; the host (../host.ts) opens, limits and closes it. Server code never writes to
// these sockets: it publishes on the bus (server/bus/channels.ts) and every instance delivers to the ones it holds.

export const businessSocket = defineSocket<ClientMessage>({
  path: SERVICE_SOCKET_PATH,
  clientMessages: CLIENT_MESSAGES,
  async open({ deps, log, instance, registry, track }) {
    const { bus, config, db } = deps
    const ownership = new ServiceOwnership(bus, registry, instance, config.realtime, log)
    const presence = createAgentPresence(deps)
    const wallboard = new WallboardFeeds({
      load: (siteId, now) => loadWallboard(db, siteId, now),
      coalesceMs: config.realtime.wallboardCoalesceMs,
      refreshMs: config.realtime.wallboardRefreshMs,
      historyLimit: 256,
      track,
      onError: (err) => log.warn({ err }, 'wallboard read failed'),
    })

    // The sockets on the coworkers page, by site: they hear the site's agentStatus frames too (supervisors do anyway).
    const coworkerWatchers = new Map<number, Set<Connection>>()
    const watchCoworkers = (connection: Connection, on: boolean) => {
      let set = coworkerWatchers.get(connection.siteId)
      if (on) {
        if (!set) coworkerWatchers.set(connection.siteId, (set = new Set()))
        set.add(connection)
      } else if (set) {
        set.delete(connection)
        if (set.size === 0) coworkerWatchers.delete(connection.siteId)
      }
    }

    // ---- bus → local sockets
    const unsubscribe = await Promise.all([
      bus.subscribe(USER_CHANNEL, (payload) => {
        const { site_id, user_id, message, except } = payload as UserEnvelope
        if (wallboardHint(message)) wallboard.hint(site_id)
        const frame = JSON.stringify(message)
        for (const connection of registry.ofUser(site_id, user_id)) if (connection.id !== except) connection.sendRaw(frame)
      }),
      bus.subscribe(SUPERVISORS_CHANNEL, (payload) => {
        const { site_id, message } = payload as SupervisorsEnvelope
        if (wallboardHint(message)) wallboard.hint(site_id)
        const frame = JSON.stringify(message)
        for (const connection of registry.supervisorsOf(site_id)) connection.sendRaw(frame)
        if (message.action === 'agentStatus') for (const connection of coworkerWatchers.get(site_id) ?? []) if (!connection.supervisor) connection.sendRaw(frame)
      }),
      bus.subscribe(SERVICE_CHANNEL, (payload) => {
        ownership.onEvent(payload as ServiceEvent).catch((err: unknown) => log.warn({ err }, 'service ownership event failed'))
      }),
    ])

    /** A room of the chat counters: the agent's own, or any of the site for a supervisor; null (and an error frame) otherwise. */
    async function chatRoom(connection: Connection, stepId: number, request: string) {
      const row = await findRoom(db, { siteId: connection.siteId, userId: connection.userId, supervisor: connection.supervisor }, stepId)
      if (!row) connection.send({ action: 'error', detail: message('notFound', connection.lang), request })
      return row
    }

    return {
      stop: () => {
        ownership.stop()
        wallboard.stop()
      },
      close: async () => {
        await Promise.all(unsubscribe.map((off) => off()))
      },
      closed: (connection) => {
        wallboard.unsubscribe(connection)
        watchCoworkers(connection, false)
        return ownership.release(connection)
      },
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
          case 'compare_number_of_messages': {
            const row = await chatRoom(connection, frame.step_id, frame.action)
            if (!row) return
            const count = await messageCount(db, row.id)
            return connection.send({ action: 'numberOfMessages', step_id: row.id, count, equal: count === frame.count })
          }
          case 'count_unread_messages': {
            const row = await chatRoom(connection, frame.step_id, frame.action)
            if (!row) return
            return connection.send({ action: 'unreadMessages', step_id: row.id, count: await unreadCount(db, row.siteId, row.userId ?? 0, row.id) })
          }
          case 'count_unread_all_messages':
            return connection.send({ action: 'unreadAllMessages', count: await unreadCount(db, connection.siteId, connection.userId) })
          case 'sync_step': {
            const row = await chatRoom(connection, frame.step_id, frame.action)
            if (!row) return
            const [room] = await serializeRoomRows(db, [row])
            return connection.send({ action: 'syncStep', step_id: row.id, room: room! })
          }
          case 'after_service_timer':
            await afterServiceTimer(db, who, frame.step_uid)
            return
          case 'wallboard_subscribe':
            if (!connection.supervisor) return connection.send({ action: 'error', detail: message('permissionDenied', connection.lang), request: frame.action })
            return wallboard.subscribe(connection, frame.feed ?? null, frame.revision ?? null)
          case 'wallboard_unsubscribe':
            return wallboard.unsubscribe(connection)
          case 'coworkers_subscribe':
            return watchCoworkers(connection, true)
          case 'coworkers_unsubscribe':
            return watchCoworkers(connection, false)
          default:
            frame satisfies never
        }
      },
    }
  },
})
