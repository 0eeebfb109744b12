import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { signedIn, TestClient, useTestApp } from '../helper.ts'

// CRM clients over the API: phones and documents normalised on write, possible duplicates, a merge that keeps every
// record of both, one timeline per client in time order, permissions and tenant isolation of every CRM endpoint.

const t = useTestApp()
const CLIENTS = '/api/v1/crm/clients/'
const OTHER = 'crm-other.example'
let admin: TestClient
let other: TestClient

async function createClient(client: TestClient, body: Record<string, unknown>): Promise<number> {
  const response = await client.post(CLIENTS, body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json().id
}

const execute = (query: ReturnType<typeof sql>) => t.database.db.execute(query) as unknown as Promise<{ rows: Record<string, unknown>[] }>

async function siteId(): Promise<number> {
  return Number((await execute(sql`select id from sites where domain = 'localhost'`)).rows[0]!.id)
}

async function addCall(site: number, clientId: number, at: string, extra: { recording?: boolean; classified?: string } = {}): Promise<number> {
  const uid = crypto.randomUUID()
  const rows = await execute(sql`insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, phone, started_at, decision, client_id,
      recording_path, classification, classified_at)
    values (${site}, ${uid}, 1, ${uid}, 'inbound', 1, 'queue', '5511987654321', ${at}::timestamptz, '{}'::jsonb, ${clientId},
      ${extra.recording ? 'rec.mp3' : null}, ${extra.classified ? sql`'{"classification_id":1}'::jsonb` : null}, ${extra.classified ?? null}::timestamptz) returning id`)
  return Number(rows.rows[0]!.id)
}

async function addChat(site: number, clientId: number, at: string): Promise<number> {
  const channel = Number((await execute(sql`select id from chat_channels where site_id = ${site} limit 1`)).rows[0]!.id)
  const rows = await execute(sql`insert into chat_rooms (uid, site_id, channel_id, contact, address, phone, started_at, ended_at, client_id)
    values (${crypto.randomUUID()}, ${site}, ${channel}, ${crypto.randomUUID().slice(0, 20)}, 'x', '5511987654321', ${at}::timestamptz, ${at}::timestamptz, ${clientId}) returning id`)
  return Number(rows.rows[0]!.id)
}

async function addActivity(site: number, clientId: number, at: string): Promise<number> {
  const user = Number((await execute(sql`select id from users where site_id = ${site} and username = 'agent1'`)).rows[0]!.id)
  const rows = await execute(sql`insert into activities (site_id, user_id, destination, client_id, start, subject)
    values (${site}, ${user}, '11987654321', ${clientId}, ${at}::timestamptz, 'Retornar') returning id`)
  return Number(rows.rows[0]!.id)
}

beforeAll(async () => {
  admin = await signedIn(t.app, 'admin')
  const site = await createSite(t.database.db, { domain: OTHER, name: 'Outra', settings: {} })
  const group = await createGroup(t.database.db, site.id, 'CRM', [PERMISSIONS.viewClient, 'sites.add_client', 'sites.change_client', 'sites.delete_client', PERMISSIONS.viewMailingClient])
  await createUser(t.database.db, { siteId: site.id, username: 'carla', password: 'carlasecret1', groupIds: [group] })
  other = new TestClient(t.app, { host: OTHER })
  expect((await other.login('carla', 'carlasecret1')).statusCode).toBe(200)
})

describe('a client', () => {
  it('is stored with its phones in E.164 and its documents as digits, and refuses a wrong check digit', async () => {
    const id = await createClient(admin, { name: 'Maria Silva', phones: '(11) 98765-4321;11 3322-1100', documents: '529.982.247-25' })
    const record = (await admin.get(`${CLIENTS}${id}/`)).json()
    expect(record).toMatchObject({ name: 'Maria Silva', phones: '+5511987654321;+551133221100', documents: '52998224725' })
    const bad = await admin.post(CLIENTS, { name: 'Errado', documents: '529.982.247-24' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ documents: ['CPF ou CNPJ inválido'] })
  })

  it('is found by the number a call or chat comes from, with or without the ninth digit', async () => {
    const id = await createClient(admin, { name: 'João Achado', phones: '+55 21 99876-5432' })
    const match = (await admin.get('/api/v1/crm/clients/match/?phone=552198765432')).json()
    expect(match).toMatchObject({ phone: '+5521998765432', client: { id, name: 'João Achado' } })
    const unknown = (await admin.get('/api/v1/crm/clients/match/?phone=%2B5531900001111')).json()
    expect(unknown).toEqual({ phone: '+5531900001111', client: null, last_contacts: [] })
  })

  it('is searchable in the list by name, document and phone', async () => {
    const id = await createClient(admin, { name: 'Zuleica Procurada', phones: '(47) 99111-2233', documents: '11.222.333/0001-81' })
    for (const search of ['Zuleica', '11222333000181', '4799111']) {
      const list = (await admin.get(`${CLIENTS}?search=${encodeURIComponent(search)}`)).json()
      expect(list.results.map((r: { id: number }) => r.id), search).toContain(id)
    }
  })

  it('is found by a whole number or document as the agent types it (the lookup keys), in its own site only', async () => {
    const id = await createClient(admin, { name: 'Teodoro Digitado', phones: '+55 21 99555-0101', documents: '529.982.247-25' })
    const ids = async (client: TestClient, search: string) => {
      const list = await client.get(`${CLIENTS}?search=${encodeURIComponent(search)}`)
      expect(list.statusCode).toBe(200)
      return { ids: list.json().results.map((r: { id: number }) => r.id) as number[], count: list.json().count as number }
    }
    // Formatted, without the country code, without the ninth digit: the stored '+5521995550101' each time.
    for (const search of ['(21) 99555-0101', '21 99555 0101', '+55 (21) 99555-0101', '2195550101', '529.982.247-25']) {
      const found = await ids(admin, search)
      expect(found.ids, search).toContain(id)
      expect(found.count, search).toBeGreaterThanOrEqual(1)
    }
    // Part of a number is still a substring search; another number finds nobody; another site never sees it.
    expect((await ids(admin, '5550101')).ids).toContain(id)
    expect((await ids(admin, '(21) 99555-0102')).ids).not.toContain(id)
    expect((await ids(other, '(21) 99555-0101')).ids).toEqual([])
  })
})

describe('duplicates and merge', () => {
  it('shows clients sharing a normalised phone or a document, and a merge keeps every record of both', async () => {
    const site = await siteId()
    const keep = await createClient(admin, { name: 'Ana Souza', phones: '11 97777-0000', documents: '390.533.447-05' })
    const twin = await createClient(admin, { name: 'Ana S.', phones: '+55 11 7777-0000;11 96666-0000', emails: 'ana@example.com' })
    const sameDoc = await createClient(admin, { name: 'Ana Doc', documents: '39053344705' })
    const duplicates = (await admin.get(`${CLIENTS}${keep}/duplicates/`)).json().results
    expect(duplicates).toEqual([
      { id: twin, name: 'Ana S.', shared: [{ kind: 'phone', value: '+5511977770000' }] },
      { id: sameDoc, name: 'Ana Doc', shared: [{ kind: 'document', value: '39053344705' }] },
    ])
    const call = await addCall(site, twin, '2026-01-02T10:00:00Z')
    const chat = await addChat(site, twin, '2026-01-03T10:00:00Z')
    const activity = await addActivity(site, twin, '2026-01-04T10:00:00Z')
    const ownCall = await addCall(site, keep, '2026-01-01T10:00:00Z')

    const merged = await admin.post(`${CLIENTS}${keep}/merge/`, { merge_id: twin })
    expect(merged.statusCode, merged.body).toBe(200)
    expect(merged.json()).toEqual({ id: keep, merged_id: twin, moved: { calls: 1, chats: 1, activities: 1, leads: 0, interactions: 0 } })
    expect((await admin.get(`${CLIENTS}${twin}/`)).statusCode).toBe(404)
    const record = (await admin.get(`${CLIENTS}${keep}/`)).json()
    expect(record).toMatchObject({ phones: '+5511977770000;+5511966660000', emails: 'ana@example.com', documents: '39053344705' })
    const timeline = (await admin.get(`${CLIENTS}${keep}/timeline/?channel=call,chat,activity`)).json().results
    expect(timeline.map((e: { kind: string; id: number }) => [e.kind, e.id])).toEqual([
      ['activity', activity],
      ['chat', chat],
      ['call', call],
      ['call', ownCall],
    ])
    // The second phone is now the kept client's: a call from it finds her.
    expect((await admin.get('/api/v1/crm/clients/match/?phone=11966660000')).json().client.id).toBe(keep)
    const audit = await execute(sql`select action from audit_log where entity = 'crm.clients' and object_id in (${keep}, ${twin}) order by id`)
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'create', 'update', 'delete'])
  })

  it('refuses merging a client into itself', async () => {
    const id = await createClient(admin, { name: 'Só' })
    const response = await admin.post(`${CLIENTS}${id}/merge/`, { merge_id: id })
    expect(response.statusCode).toBe(400)
  })
})

describe('the timeline', () => {
  it('merges calls, chats, activities, interactions, classifications and forms in time order, by channel, page by page', async () => {
    const site = await siteId()
    const id = await createClient(admin, { name: 'Linha do Tempo' })
    const call = await addCall(site, id, '2026-02-01T09:00:00Z', { recording: true, classified: '2026-02-01T09:10:00Z' })
    const chat = await addChat(site, id, '2026-02-02T09:00:00Z')
    const activity = await addActivity(site, id, '2026-02-03T09:00:00Z')
    const form = Number((await execute(sql`insert into service_forms (site_id, description) values (${site}, 'Visita') returning id`)).rows[0]!.id)
    const created = await admin.post('/api/v1/crm/interactions/', { description: 'Visita', slug: 'visita', form })
    expect(created.statusCode, created.body).toBe(201)
    const type = created.json().id
    const interaction = (await admin.post('/api/v1/crm/client-interactions/', { interaction: type, subject: 'Visitou a loja', client: id })).json().id

    const all = (await admin.get(`${CLIENTS}${id}/timeline/`)).json()
    expect(all.results.map((e: { kind: string; id: number }) => [e.kind, e.id])).toEqual([
      ['interaction', interaction],
      ['activity', activity],
      ['chat', chat],
      ['classification', call],
      ['call', call],
    ])
    const callEvent = all.results.find((e: { kind: string }) => e.kind === 'call')
    expect(callEvent.link).toMatch(/^\/recordings\/player\//)
    expect(all.results.find((e: { kind: string }) => e.kind === 'chat').link).toMatch(/^\/chats\?room=/)
    expect(all.next).toBeNull()

    const chats = (await admin.get(`${CLIENTS}${id}/timeline/?channel=chat`)).json()
    expect(chats.results.map((e: { id: number }) => e.id)).toEqual([chat])

    const seen: string[] = []
    let cursor: string | null = ''
    while (cursor !== null) {
      const page: { results: { kind: string; id: number }[]; next: string | null } = (await admin.get(`${CLIENTS}${id}/timeline/?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json()
      seen.push(...page.results.map((e: { kind: string; id: number }) => `${e.kind}:${e.id}`))
      cursor = page.next
    }
    expect(seen).toEqual(all.results.map((e: { kind: string; id: number }) => `${e.kind}:${e.id}`))
    expect((await admin.get(`${CLIENTS}${id}/timeline/?cursor=nonsense`)).statusCode).toBe(400)
    expect((await admin.get(`${CLIENTS}${id}/timeline/?channel=fax`)).statusCode).toBe(400)
  })
})

describe('permissions and tenancy', () => {
  it('needs sites.view_client to read and sites.change_client plus sites.delete_client to merge', async () => {
    const id = await createClient(admin, { name: 'Reservado' })
    const site = await siteId()
    const group = await createGroup(t.database.db, site, 'Só relatórios', [PERMISSIONS.viewReports])
    await createUser(t.database.db, { siteId: site, username: 'relatorios', password: 'relatorios1', groupIds: [group] })
    const agent = new TestClient(t.app)
    expect((await agent.login('relatorios', 'relatorios1')).statusCode).toBe(200)
    for (const path of [`${CLIENTS}${id}/timeline/`, `${CLIENTS}${id}/duplicates/`, '/api/v1/crm/clients/match/?phone=11987654321', CLIENTS])
      expect((await agent.get(path)).statusCode, path).toBe(403)
    expect((await agent.post(`${CLIENTS}${id}/merge/`, { merge_id: id })).statusCode).toBe(403)
  })

  it('answers 404 for another site’s clients and leads, and never finds them by number', async () => {
    const mine = await createClient(admin, { name: 'Da Casa', phones: '11 95555-4444' })
    const theirs = await createClient(other, { name: 'De Fora', phones: '11 95555-4444' })
    for (const path of [`${CLIENTS}${mine}/timeline/`, `${CLIENTS}${mine}/duplicates/`, `${CLIENTS}${mine}/`, '/api/v1/crm/leads/1/calls/'])
      expect((await other.get(path)).statusCode, path).toBe(404)
    expect((await other.post(`${CLIENTS}${theirs}/merge/`, { merge_id: mine })).statusCode).toBe(404)
    expect((await other.get('/api/v1/crm/clients/match/?phone=11955554444')).json().client.id).toBe(theirs)
    expect((await admin.get('/api/v1/crm/clients/match/?phone=11955554444')).json().client.id).toBe(mine)
    expect((await admin.get(`${CLIENTS}${mine}/duplicates/`)).json().results).toEqual([])
  })
})
