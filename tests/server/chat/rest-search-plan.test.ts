import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { CHAT_PATHS } from '../../../contract/api/chat.ts'
import type { ChatHistoryRow, ChatList } from '../../../contract/api/chat-calls.ts'
import type { ChatMessage } from '../../../contract/api/chat.ts'
import { signedIn, useTestApp } from '../helper.ts'
import { siteNamed } from '../agent/agent-helper.ts'
import { channel, room, userId } from './chat-fixtures.ts'

// The chat searches stay fast at scale: over many rooms and messages, the history search (title, phone) and the
// message search (content) are served by the trigram indexes of migration 0012, not by reading every row — checked
// on the plan PostgreSQL (or PGlite) chooses for the very query the route runs.
const t = useTestApp()
const ROOMS = 20_000
const MESSAGES = 60_000

let siteId: number
let channelId: number
let big: number

beforeAll(async () => {
  const db = t.database.db
  siteId = (await siteNamed(db, 'localhost')).id
  channelId = await channel(db, siteId)
  const agent = await userId(db, siteId, 'agent1')
  await db.execute(sql`
    insert into chat_rooms (uid, site_id, channel_id, contact, address, phone, title, user_id, state, ended_at, started_at)
    select gen_random_uuid()::text, ${siteId}, ${channelId}, 'c' || g, 'c' || g, '55119' || lpad(g::text, 8, '0'),
           'Cliente ' || md5(g::text), ${agent}, 'ended', now(), now() - make_interval(secs => g)
    from generate_series(1, ${ROOMS}) g`)
  big = (await room(db, { siteId, channelId, userId: agent, title: 'Sala grande' })).id
  await db.execute(sql`
    insert into chat_room_messages (uid, site_id, room_id, channel_id, sent_by, content, created_at)
    select gen_random_uuid()::text, ${siteId}, first.id + (g % ${ROOMS}),
           ${channelId}, 'client', 'mensagem ' || md5(g::text), now() - make_interval(secs => g)
    from generate_series(1, ${MESSAGES}) g, (select min(id) as id from chat_rooms where channel_id = ${channelId}) first`)
  await db.execute(sql`
    insert into chat_room_messages (uid, site_id, room_id, channel_id, sent_by, content)
    values (gen_random_uuid()::text, ${siteId}, ${big}, ${channelId}, 'client', 'o protocolo zyxwvu chegou')`)
  await db.execute(sql`analyze chat_rooms`)
  await db.execute(sql`analyze chat_room_messages`)
}, 120_000)

/** The plan of the statement the route ran last, found by running EXPLAIN on the same text the route sends. */
async function planOf(statement: string, params: unknown[]): Promise<string> {
  const db = t.database.db
  const rendered = statement.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1]
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`
  })
  const result = (await db.execute(sql.raw(`explain ${rendered}`))) as unknown as { rows: Record<string, string>[] }
  return result.rows.map((r) => Object.values(r)[0]).join('\n')
}

describe('chat search at scale', () => {
  it('finds history rows by a piece of the title through the trigram index', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const sample = (await t.database.db.execute(sql`select title from chat_rooms where site_id = ${siteId} and title like 'Cliente %' limit 1`)) as unknown as {
      rows: { title: string }[]
    }
    const piece = sample.rows[0]!.title.slice(8, 20)
    const found = (await supervisor.get(`/api${CHAT_PATHS.historic}?search=${piece}`)).json() as ChatList<ChatHistoryRow>
    expect(found.count).toBe(1)
    // At 20,000 rooms a sequential scan still costs less (the planner picks it, rightly); with it disallowed the plan
    // shows that both halves of the search are served by their trigram indexes, as they are at a million rooms.
    await t.database.db.execute(sql`set enable_seqscan = off`)
    const plan = await planOf(
      `select * from chat_rooms where site_id = $1 and archived = false and ended_at is not null and (title ilike $2 or phone ilike $2) order by started_at desc, id desc limit 10`,
      [siteId, `%${piece}%`],
    )
    await t.database.db.execute(sql`reset enable_seqscan`)
    expect(plan).toMatch(/chat_rooms_title_trgm_idx/)
    expect(plan).toMatch(/chat_rooms_phone_trgm_idx/)
  })

  it('finds a message by a piece of its content over many rooms through the trigram index', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const found = (await agent.get(`/api${CHAT_PATHS.searchMessages(big)}?search=zyxwvu`)).json() as ChatList<ChatMessage>
    expect(found).toMatchObject({ count: 1, results: [{ content: 'o protocolo zyxwvu chegou' }] })
    const plan = await planOf(`select id from chat_room_messages where site_id = $1 and content ilike $2 limit 10`, [siteId, '%zyxwvu%'])
    expect(plan).toMatch(/chat_room_messages_content_trgm_idx/)
  })
})
