import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { CHAT_PATHS } from '../../../contract/api/chat.ts'
import type { ChatForms, ChatHistoryRow, ChatList, ChatMessagesPage, ChatRoomDetail, ChatSearchRoomRow } from '../../../contract/api/chat-calls.ts'
import type { ChatMessage } from '../../../contract/api/chat.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { message as text } from '../../../contract/messages.ts'
import { chatRooms } from '../../../server/db/schema/index.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import type { RoomRow } from '../../../server/routes/chat/serialize-rows.ts'
import { TestClient, signedIn, useTestApp } from '../helper.ts'
import { person, siteNamed } from '../agent/agent-helper.ts'
import { channel, message, reload, room, userId } from './chat-fixtures.ts'

// The chat calls of spec 001 §7 through the real app: each answers its shape, refuses bad input with the field's
// error, needs its permission, and names a room of the caller's site only — and there, the caller's own (agent) or
// any (supervisor). Another site's id, or another agent's room, is 404 and changes nothing (QUALITY.md test 14).
const t = useTestApp()
const api = (path: string) => `/api${path}`
const OTHER = 'outra-chat.example'

let agent: TestClient
let agent2: TestClient
let supervisor: TestClient
let stranger: TestClient
let active: RoomRow
let ended: RoomRow
let archived: RoomRow
let theirs: RoomRow
let first: Awaited<ReturnType<typeof message>>
let withFile: Awaited<ReturnType<typeof message>>
let last: Awaited<ReturnType<typeof message>>

beforeAll(async () => {
  const db = t.database.db
  const siteId = (await siteNamed(db, 'localhost')).id
  const agent1Id = await userId(db, siteId, 'agent1')
  const agent2Id = await userId(db, siteId, 'agent2')
  const channelId = await channel(db, siteId)
  const contact = '5511987650000'
  active = await room(db, { siteId, channelId, userId: agent1Id, title: 'Maria Souza', contact })
  ended = await room(db, { siteId, channelId, userId: agent1Id, state: 'ended', title: 'João <b>Antigo</b>', phone: '5521999990000' })
  archived = await room(db, { siteId, channelId, userId: agent1Id, state: 'ended', archived: true, title: 'Arquivada', phone: '5531988887777' })
  theirs = await room(db, { siteId, channelId, userId: agent2Id, title: 'De outro agente' })
  const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12))
  first = await message(db, active, { content: 'Bom dia, preciso de ajuda com o boleto', at: day(1) })
  withFile = await message(db, active, { content: '', attachment: 'boleto.pdf', at: day(2) })
  await message(db, active, { sentBy: 'agent', content: 'Claro, envio a segunda via', at: day(3) })
  last = await message(db, active, { content: 'Obrigado!', at: day(4) })
  await message(db, ended, { content: 'x'.repeat(150) + ' <script>alert(1)</script>' })
  await message(db, theirs, { content: 'segredo' })
  // An earlier conversation of the same customer (the Conversations tab), ended.
  const earlier = await room(db, { siteId, channelId, userId: agent1Id, state: 'ended', title: 'Maria Souza', contact: `${contact}` })
  await message(db, earlier, { content: 'boleto vencido' })

  agent = await signedIn(t.app, 'agent1')
  agent2 = await signedIn(t.app, 'agent2')
  supervisor = await signedIn(t.app, 'supervisor')
  await createSite(db, { domain: OTHER, name: 'Outra' })
  stranger = (
    await person(t.app, db, {
      permissions: [PERMISSIONS.viewChat, PERMISSIONS.viewDashboardSupervisor, PERMISSIONS.downloadChatConversation],
      domain: OTHER,
      name: 'sup',
    })
  ).client
})

describe('reading a room', () => {
  it('pages its messages, oldest first, then older ones before the first', async () => {
    const response = await agent.get(`${api(CHAT_PATHS.messages(active.id))}?limit=2`)
    expect(response.statusCode).toBe(200)
    const page = response.json() as ChatMessagesPage
    expect(page.count).toBe(4)
    expect(page.has_more).toBe(true)
    expect(page.results.map((m) => m.content)).toEqual(['Claro, envio a segunda via', 'Obrigado!'])
    expect(page.results[0]).toMatchObject({ sent_by: 'agent', status: 'accepted', step: active.id })
    const older = (await agent.get(`${api(CHAT_PATHS.messages(active.id))}?limit=2&before=${page.results[0]!.id}`)).json() as ChatMessagesPage
    expect(older.results.map((m) => m.id)).toEqual([first.id, withFile.id])
    expect(older.has_more).toBe(false)
    expect(older.results[1]).toMatchObject({ attachment_name: 'boleto.pdf', attachment: expect.stringMatching(/^\/api\/v1\/chat\/attachments\//) })
  })

  it('answers its forms (none without a queue form or a classification), its detail and its printable conversation', async () => {
    expect((await agent.get(api(CHAT_PATHS.forms(active.id)))).json()).toEqual({ step_id: active.id, classification: null, form: null } satisfies ChatForms)
    const detail = (await agent.get(api(CHAT_PATHS.room(active.id)))).json() as ChatRoomDetail
    expect(detail).toMatchObject({ id: active.id, name: 'Maria Souza', phone: '5511987650000', status: 'active', form: null, classification: null })
    expect(detail.total_duration).toBeGreaterThanOrEqual(0)

    const page = await supervisor.get(api(CHAT_PATHS.exportPdf(ended.id)))
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("default-src 'none'")
    expect(page.body).toContain('@page { size: A4 portrait; margin: 10mm; }')
    expect(page.body).toContain('João &#60;b&#62;Antigo&#60;/b&#62;')
    expect(page.body).not.toContain('<script>')
    // The export needs download_chat_conversation (spec 001 §6): an agent has none.
    expect((await agent.get(api(CHAT_PATHS.exportPdf(active.id)))).statusCode).toBe(403)
  })
})

describe('history and archives', () => {
  it('list ended and archived rooms with the columns of the dialogs, paged and searched', async () => {
    const historic = (await agent.get(api(CHAT_PATHS.historic))).json() as ChatList<ChatHistoryRow>
    expect(historic.results.map((r) => r.id)).toContain(ended.id)
    expect(historic.results.map((r) => r.id)).not.toContain(archived.id)
    expect(historic.results.map((r) => r.id)).not.toContain(active.id)
    const row = historic.results.find((r) => r.id === ended.id)!
    expect(row.last_message).toHaveLength(100)
    expect(Object.keys(row).sort()).toEqual([
      'archived',
      'classification',
      'datetime',
      'id',
      'last_message',
      'phone',
      'status',
      'sub_classification',
      'title',
      'uid',
    ])

    const searched = (await agent.get(`${api(CHAT_PATHS.historic)}?search=antigo`)).json() as ChatList<ChatHistoryRow>
    expect(searched).toMatchObject({ count: 1, results: [{ id: ended.id }] })
    const paged = (await agent.get(`${api(CHAT_PATHS.historic)}?limit=1&offset=1`)).json() as ChatList<ChatHistoryRow>
    expect(paged.count).toBe(2)
    expect(paged.results).toHaveLength(1)

    const archives = (await agent.get(`${api(CHAT_PATHS.archives)}?search=88887`)).json() as ChatList<ChatHistoryRow>
    expect(archives).toMatchObject({ count: 1, results: [{ id: archived.id, archived: true }] })
    // Another agent sees none of agent1's; a supervisor sees them all.
    expect(((await agent2.get(api(CHAT_PATHS.archives))).json() as ChatList<ChatHistoryRow>).count).toBe(0)
    expect(((await supervisor.get(api(CHAT_PATHS.archives))).json() as ChatList<ChatHistoryRow>).count).toBe(1)
  })

  it('lists the live rooms (not ended): a supervisor the site’s, to watch and transfer; an agent their own; another site none', async () => {
    const ids = async (client: typeof agent) => ((await client.get(api(CHAT_PATHS.live))).json() as ChatList<ChatHistoryRow>).results.map((r) => r.id)
    const watched = await ids(supervisor)
    expect(watched).toEqual(expect.arrayContaining([active.id, theirs.id]))
    expect(watched).not.toContain(ended.id)
    expect(watched).not.toContain(archived.id)
    expect(await ids(agent)).toContain(active.id)
    expect(await ids(agent)).not.toContain(theirs.id)
    expect(await ids(stranger)).toEqual([])
    const searched = (await supervisor.get(`${api(CHAT_PATHS.live)}?search=outro`)).json() as ChatList<ChatHistoryRow>
    expect(searched).toMatchObject({ count: 1, results: [{ id: theirs.id, title: 'De outro agente' }] })
  })

  it('unarchives nothing when the room is not archived, and closes nothing already ended', async () => {
    expect((await agent.get(api(CHAT_PATHS.unarchive(active.id)))).json()).toEqual({ success: true })
    expect((await agent.post(api(CHAT_PATHS.close(ended.uid)))).json()).toEqual({ success: true })
    expect((await agent.post(api(CHAT_PATHS.transfer(ended.id)), { user_id: 1 })).json()).toEqual({ success: false, detail: text('chatTransferFailed') })
  })
})

describe('search', () => {
  it('finds a room’s messages by text, datetime range and attachment, sorted', async () => {
    const url = (query: string) => `${api(CHAT_PATHS.searchMessages(active.id))}?${query}`
    const byText = (await agent.get(url('search=BOLETO'))).json() as ChatList<ChatMessage>
    expect(byText.results.map((m) => m.id).sort()).toEqual([first.id, withFile.id].sort())
    const files = (await agent.get(url('attachment=true'))).json() as ChatList<ChatMessage>
    expect(files).toMatchObject({ count: 1, results: [{ id: withFile.id }] })
    const range = (await agent.get(url('datetime__gte=2026-01-02T00:00:00Z&datetime__lte=2026-01-03T23:59:59Z&sort=datetime'))).json() as ChatList<ChatMessage>
    expect(range.results.map((m) => m.content)).toEqual(['', 'Claro, envio a segunda via'])
    const newest = (await agent.get(url('limit=1'))).json() as ChatList<ChatMessage>
    expect(newest).toMatchObject({ count: 4, results: [{ id: last.id }] })
  })

  it('finds the customer’s conversations, this one included', async () => {
    const found = (await agent.get(`${api(CHAT_PATHS.searchRooms(active.id))}?search=boleto`)).json() as ChatList<ChatSearchRoomRow>
    expect(found.count).toBe(2)
    expect(found.results.map((r) => r.title)).toEqual(['Maria Souza', 'Maria Souza'])
    expect(found.results[0]).toMatchObject({ classification: null, sub_classification: null, user: { description: expect.any(String) } })
  })
})

describe('bad input', () => {
  it('answers 400 with the field in error', async () => {
    const cases: [Promise<{ statusCode: number; json(): unknown }>, string][] = [
      [agent.get(`${api(CHAT_PATHS.historic)}?limit=abc`), 'limit'],
      [agent.get(`${api(CHAT_PATHS.archives)}?offset=-1`), 'offset'],
      [agent.get(`${api(CHAT_PATHS.searchMessages(active.id))}?sort=name`), 'sort'],
      [agent.get(`${api(CHAT_PATHS.searchRooms(active.id))}?datetime__gte=ontem`), 'datetime__gte'],
      [agent.get(`${api(CHAT_PATHS.searchMessages(active.id))}?attachment=talvez`), 'attachment'],
      [agent.get(`${api(CHAT_PATHS.messages(active.id))}?limit=500`), 'limit'],
      [agent.get(api(CHAT_PATHS.resend(active.id))), 'message_id'],
      [agent.post(api(CHAT_PATHS.sendMessage(active.id)), { content: 'x'.repeat(5000) }), 'content'],
      [agent.post(api(CHAT_PATHS.sendMessage(active.id)), { uid: 'not-a-uuid', content: 'oi' }), 'uid'],
    ]
    for (const [pending, field] of cases) {
      const response = await pending
      expect(response.statusCode, field).toBe(400)
      expect(Object.keys(response.json() as object), field).toEqual([field])
    }
    const transfer = await agent.post(api(CHAT_PATHS.transfer(active.id)), {})
    expect(transfer.statusCode).toBe(400)
  })

  it('answers 404 for a malformed id, never 5xx', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      expect((await agent.get(api(CHAT_PATHS.room(id)))).statusCode, id).toBe(404)
    }
    expect((await agent.post(api(CHAT_PATHS.close('not-a-uid')))).statusCode).toBe(404)
  })
})

describe('permissions and scoping', () => {
  it('need sites.view_chat (401 anonymous, 403 without it)', async () => {
    const anonymous = new TestClient(t.app)
    expect((await anonymous.get(api(CHAT_PATHS.historic))).statusCode).toBe(401)
    const noChat = (await person(t.app, t.database.db, { permissions: [PERMISSIONS.viewSoftphone], name: 'nochat' })).client
    for (const path of [CHAT_PATHS.historic, CHAT_PATHS.archives, CHAT_PATHS.room(active.id), CHAT_PATHS.messages(active.id)]) {
      const response = await noChat.get(api(path))
      expect(response.statusCode, path).toBe(403)
      expect(response.json()).toEqual({ detail: text('permissionDenied') })
    }
  })

  it('hide another agent’s room (404) but show it to a supervisor', async () => {
    expect((await agent.get(api(CHAT_PATHS.room(theirs.id)))).statusCode).toBe(404)
    expect((await agent.get(api(CHAT_PATHS.messages(theirs.id)))).json()).toEqual({ detail: text('notFound') })
    expect((await supervisor.get(api(CHAT_PATHS.messages(theirs.id)))).statusCode).toBe(200)
  })

  it('answer 404 to another site’s ids on every call, changing nothing', async () => {
    const db = t.database.db
    const ids = [active, ended, archived, theirs]
    const before = await Promise.all(ids.map((r) => reload(db, r.id)))
    const calls = (r: RoomRow) => [
      () => stranger.get(api(CHAT_PATHS.messages(r.id))),
      () => stranger.get(api(CHAT_PATHS.forms(r.id))),
      () => stranger.get(`${api(CHAT_PATHS.resend(r.id))}?message_id=${first.id}`),
      () => stranger.get(api(CHAT_PATHS.room(r.id))),
      () => stranger.get(api(CHAT_PATHS.unarchive(r.id))),
      () => stranger.get(api(CHAT_PATHS.exportPdf(r.id))),
      () => stranger.get(api(CHAT_PATHS.searchMessages(r.id))),
      () => stranger.get(api(CHAT_PATHS.searchRooms(r.id))),
      () => stranger.post(api(CHAT_PATHS.sendMessage(r.id)), { content: 'invasão' }),
      () => stranger.post(api(CHAT_PATHS.transfer(r.id)), { queue_id: 1 }),
      () => stranger.post(api(CHAT_PATHS.close(r.uid))),
    ]
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ids), fc.nat({ max: 10 }), async (target, which) => {
        const response = await calls(target)[which]!()
        expect(response.statusCode).toBe(404)
        expect(response.json()).toEqual({ detail: text('notFound') })
      }),
      { numRuns: 60 },
    )
    for (const call of calls(active)) expect((await call()).statusCode).toBe(404)
    // The stranger's own lists are empty: site A's rooms are not theirs to list.
    expect(((await stranger.get(api(CHAT_PATHS.historic))).json() as ChatList<ChatHistoryRow>).count).toBe(0)
    const after = await Promise.all(ids.map((r) => reload(db, r.id)))
    expect(after).toEqual(before)
    const [row] = await db.select({ archived: chatRooms.archived }).from(chatRooms).where(eq(chatRooms.id, archived.id))
    expect(row!.archived).toBe(true)
  })
})
