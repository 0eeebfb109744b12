import { describe, expect, it } from 'vitest'
import { chatTemplates } from '../../../server/db/schema/index.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { closeRoom } from '../../../server/chat/lifecycle.ts'
import { sendTemplateMessage } from '../../../server/chat/outbound.ts'
import { loadRoom } from '../../../server/chat/serialize.ts'
import { answerOffer, declineOffer } from '../../../server/chat/acd/queue.ts'
import { registerAudienceHook } from '../../../server/chat/events.ts'
import { routeNewRoom } from '../../../server/chat/acd/route.ts'
import { HttpError } from '../../../server/errors/http-error.ts'
import { useTestApp } from '../helper.ts'
import { chatWorld, waitFor } from './acd-fixture.ts'

// The ACD inside the chat engine: a customer's first message (receiveInbound) is routed and offered, the agent
// answers, closing frees the agent for the next waiting customer, the serialized room shows its queue position, and
// a paused agent cannot open an outgoing chat from a template.
const t = useTestApp({ seed: false })

const inbound = (siteId: number, channelId: number, contact: string, content: string) => ({
  siteId,
  channelId,
  customer: { contact, name: 'Cliente' },
  externalId: `wamid.${contact}.${Math.random().toString(36).slice(2)}`,
  type: 'text' as const,
  content,
  sentAt: new Date(),
})

describe('from the first message to the next customer', () => {
  it('a customer writes → offered to the agent → answered; the second customer waits with position 1 until the first room closes', async () => {
    await t.app.ready()
    const w = await chatWorld(t)
    const team = await w.team({ limit: 1 })
    const agent = await w.agent({ teamId: team.id })
    const channel = await w.channel()
    const queue = await w.queue({ ringTime: 120 }, [agent.id])
    await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })

    const first = await receiveInbound(w.deps, inbound(w.siteId, channel.id, '5511988880001', 'Olá'))
    expect(first.newRoom).toBe(true)
    const offer = await waitFor(async () => w.eventsOf('offer', agent.id)[0])
    expect(offer).toMatchObject({ type: 'offer', ring_seconds: 120, room: { id: first.roomId, status: 'offered', queue: { id: queue.id } } })
    const answered = await answerOffer(w.deps, { siteId: w.siteId, userId: agent.id, roomId: first.roomId })
    expect(answered.ok).toBe(true)

    const second = await receiveInbound(w.deps, inbound(w.siteId, channel.id, '5511988880002', 'Oi'))
    const waiting = await loadRoom(w.deps, w.siteId, second.roomId)
    expect(waiting).toMatchObject({ status: 'queued', queue_position: 1, user: null })

    await closeRoom(w.deps, { siteId: w.siteId, roomId: first.roomId, byUserId: agent.id })
    const next = await waitFor(async () => {
      const row = await w.roomRow(second.roomId)
      return row.state === 'offered' ? row : null
    })
    expect(next.userId).toBe(agent.id)
  })
})

describe('watchers', () => {
  it('a supervisor watching (audience hook) sees the room queued, offered and back in the queue, never the offer itself', async () => {
    const w = await chatWorld(t)
    const supervisor = await w.agent({ loggedIn: false, name: 'Sup' })
    const stop = registerAudienceHook((_deps, room) => (room.siteId === w.siteId ? [supervisor.id] : []))
    try {
      const team = await w.team()
      const agent = await w.agent({ teamId: team.id })
      const channel = await w.channel()
      const queue = await w.queue({}, [agent.id])
      await w.inbound(channel.id, { app: 'queue', appdata: String(queue.id) })
      const room = await w.room(channel.id)
      await routeNewRoom(w.deps, room.id)
      await declineOffer(w.deps, { siteId: w.siteId, userId: agent.id, roomId: room.id })
      await w.settled()
      const seen = w.eventsOf('room', supervisor.id).map((e) => (e.type === 'room' ? [e.room.status, e.room.user?.id ?? null] : []))
      expect(seen).toEqual([
        ['queued', null],
        ['offered', agent.id],
        ['queued', null],
      ])
      expect(w.eventsOf('offer', supervisor.id)).toHaveLength(0)
      expect(w.eventsOf('room', agent.id)).toHaveLength(0)
    } finally {
      stop()
    }
  })
})

describe('outgoing chats from a template', () => {
  it("refused with 'Usuário esta pausado' while the agent's pause disallows outgoing chats", async () => {
    const w = await chatWorld(t)
    const agent = await w.agent()
    const channel = await w.channel()
    const [template] = await w.db
      .insert(chatTemplates)
      .values({ siteId: w.siteId, channelId: channel.id, description: 'boas_vindas', content: 'Olá {{1}}' })
      .returning()
    await w.pause(agent.id, { allowOutgoingChat: false })
    const attempt = sendTemplateMessage(w.deps, {
      siteId: w.siteId,
      userId: agent.id,
      channelId: channel.id,
      templateId: template!.id,
      params: [{ name: '1', value: 'Ana' }],
      phone: '5511977770000',
    })
    const error = await attempt.then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).statusCode).toBe(400)
    expect((error as HttpError).body).toEqual({ detail: 'Usuário esta pausado' })
  })
})
