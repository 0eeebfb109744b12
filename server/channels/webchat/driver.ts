import { copyFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { ATTACHMENT_NAME } from '../../../contract/realtime/visitor-socket.ts'
import type { ChannelDriver, DeliverResult, OutboxJob } from '../../chat/types.ts'
import { chatRoomMessages } from '../../db/schema/chat.ts'
import { users } from '../../db/schema/users.ts'
import type { AppDeps } from '../../deps.ts'
import { visitorDir } from './attachments.ts'
import { pushToVisitor } from './conversations.ts'
import { toVisitorMessage } from './core-conversations.ts'

// The webchat channel's outbound driver: the core's outbox hands it an agent's message (job.recipient = the visitor
// id) and it publishes the message to the visitor's sockets on the bus, whichever instance holds them. There is no
// provider: the message is "dispatched" once published, "received" when a widget got it and "consumed" when the
// visitor read it (the socket reports both under the message's uid, which is its external id here). A visitor who is
// not connected gets it with the history when the widget comes back.

export const webchatDriver: ChannelDriver = {
  type: 'webchat',
  async deliver(deps: AppDeps, job: OutboxJob): Promise<DeliverResult> {
    // The widget hears reads as status events; nothing to send (the core queues receipts for WhatsApp only).
    if (job.markRead) return { outcome: 'sent', externalId: job.markRead }
    const visitorId = job.recipient
    if (!/^[0-9a-f-]{36}$/.test(visitorId)) return { outcome: 'failed', error: { code: null, reason: 'not a visitor id', external_error: false } }
    const [row] = await deps.db
      .select({ message: chatRoomMessages, agentName: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')` })
      .from(chatRoomMessages)
      .leftJoin(users, eq(users.id, chatRoomMessages.userId))
      .where(eq(chatRoomMessages.id, job.message.id))
    if (!row) return { outcome: 'failed', error: { code: null, reason: 'message gone', external_error: false } }
    // An agent's file: a copy beside the visitor's uploads, so /widget/files/ serves it under the same capability.
    const file = row.message.attachmentFile
    if (job.message.attachmentPath && file && ATTACHMENT_NAME.test(file)) {
      const dir = visitorDir(deps.config.mediaDir, job.channelId, visitorId)
      await mkdir(dir, { recursive: true })
      await copyFile(job.message.attachmentPath, path.join(dir, file)).catch(() => {})
    }
    const message = toVisitorMessage({ channelId: job.channelId, visitorId }, { ...row.message, agentName: row.agentName })
    await pushToVisitor(deps.bus, { channelId: job.channelId, visitorId }, { action: 'message', message })
    return { outcome: 'sent', externalId: job.message.uid, status: 'dispatched' }
  },
}
