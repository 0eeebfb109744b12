import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import { activities, crmClients, crmLeads, crmMailings } from '../../../server/db/schema/index.ts'
import { ACTIVITY_MAX_ATTEMPTS } from '../../../contract/api/activities.ts'
import type { Activity, ActivityListResponse } from '../../../contract/api/activities.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { SERVER_MESSAGES } from '../../../contract/realtime/service-socket.ts'
import { useTestApp } from '../helper.ts'
import { FAST_TIMINGS, listen, openSocket } from '../realtime/ws-helper.ts'
import { AGENT, SUPERVISOR, person } from './agent-helper.ts'

// Activities (scheduled callbacks; spec 000 §2, §3, §4): a supervisor schedules one for an agent, the agent's sockets
// hear the due list (`activity`), get_activities answers it, done_activity and the REST done mark only the agent's
// own, and the 50th dial attempt makes an activity done.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
const LIST = '/api/v1/agent/activities/'
const done = (id: number) => `/api/v1/agent/activities/${id}/done/`
const attempt = (id: number) => `/api/v1/agent/activities/${id}/attempt/`
const AGENT_WITH_ACTIVITIES = [...AGENT, PERMISSIONS.viewActivities]
const SCHEDULER = [...SUPERVISOR, PERMISSIONS.addActivity]
let base: string

beforeAll(async () => {
  base = await listen(t.app)
})

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString()

async function row(id: number) {
  const [found] = await t.database.db.select().from(activities).where(eq(activities.id, id))
  return found
}

/** A client, a mailing and one of its leads of the site: the CRM rows an activity may name. */
async function crmRows(siteId: number) {
  const db = t.database.db
  const [client] = await db.insert(crmClients).values({ siteId, name: 'Cliente do retorno' }).returning()
  const [mailing] = await db.insert(crmMailings).values({ siteId, description: 'Retornos' }).returning()
  const [lead] = await db.insert(crmLeads).values({ siteId, mailingId: mailing!.id, clientId: client!.id, name: 'Lead' }).returning()
  return { client: client!.id, mailing: mailing!.id, lead: lead!.id }
}

async function people() {
  const agent = await person(t.app, t.database.db, { permissions: AGENT_WITH_ACTIVITIES, name: 'agent' })
  const supervisor = await person(t.app, t.database.db, { permissions: SCHEDULER, name: 'sup' })
  return { agent, supervisor }
}

async function schedule(supervisor: Awaited<ReturnType<typeof people>>['supervisor'], body: Record<string, unknown>): Promise<Activity> {
  const response = await supervisor.client.post(LIST, body)
  expect(response.statusCode).toBe(201)
  return response.json() as Activity
}

describe('scheduling an activity', () => {
  it("stores the spec's fields and pushes the agent's due list to every socket of the agent", async () => {
    const { agent, supervisor } = await people()
    const tab = await openSocket(base, { cookie: agent.cookie })
    const crm = await crmRows(agent.user.siteId)
    // A client, mailing or lead that is not the site's is a field error, never a 500.
    const foreign = await supervisor.client.post(LIST, { user: agent.user.id, destination: '1001', start: minutes(1), client: 2_000_000, mailing: crm.mailing, mailing_client: 2_000_000 })
    expect(foreign.statusCode).toBe(400)
    expect(foreign.json()).toEqual({ client: ['Valor inválido'], mailing_client: ['Valor inválido'] })
    const created = await schedule(supervisor, {
      user: agent.user.id,
      destination: '5511999990000',
      start: minutes(-5),
      end: minutes(25),
      subject: 'Retornar orçamento',
      target: 'cliente pediu retorno',
      client: crm.client,
      mailing: crm.mailing,
      mailing_client: crm.lead,
      campaign: 2,
      dialer: 1,
    })
    expect(created).toMatchObject({
      user: agent.user.id,
      destination: '5511999990000',
      subject: 'Retornar orçamento',
      type: 'call',
      target: 'cliente pediu retorno',
      client: crm.client,
      mailing: crm.mailing,
      mailing_client: crm.lead,
      campaign: 2,
      dialer: 1,
      count: 0,
      done: false,
      active: true,
      automatic_execution: true,
      created_by: supervisor.user.id,
    })
    const pushed = await tab.next('activity')
    expect(v.is(SERVER_MESSAGES.activity, pushed)).toBe(true)
    expect(pushed.activities).toEqual([created])

    tab.send({ action: 'get_activities' })
    expect((await tab.next('activity')).activities.map((a) => a.id)).toEqual([created.id])
    const listed = (await agent.client.get(LIST)).json() as ActivityListResponse
    expect(listed).toEqual({ count: 1, results: [created] })
    tab.close()
  })

  it('lists only due activities on the socket and by default; ?upcoming=true adds future ones; other agents never', async () => {
    const { agent, supervisor } = await people()
    const other = await person(t.app, t.database.db, { permissions: AGENT_WITH_ACTIVITIES })
    const later = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: minutes(60) })
    const due = await schedule(supervisor, { user: agent.user.id, destination: '1002', start: minutes(-1) })
    const earlier = await schedule(supervisor, { user: agent.user.id, destination: '1003', start: minutes(-30) })
    const inactive = await schedule(supervisor, { user: agent.user.id, destination: '1004', start: minutes(-2), active: false })
    await schedule(supervisor, { user: other.user.id, destination: '1005', start: minutes(-2) })

    const socket = await openSocket(base, { cookie: agent.cookie })
    socket.send({ action: 'get_activities' })
    expect((await socket.next('activity')).activities.map((a) => a.id)).toEqual([earlier.id, due.id])
    expect(((await agent.client.get(LIST)).json() as ActivityListResponse).results.map((a) => a.id)).toEqual([earlier.id, due.id])
    const all = (await agent.client.get(`${LIST}?upcoming=true`)).json() as ActivityListResponse
    expect(all.results.map((a) => a.id)).toEqual([earlier.id, due.id, later.id])
    expect(all.results.map((a) => a.id)).not.toContain(inactive.id)
    expect((await agent.client.get(`${LIST}?upcoming=maybe`)).statusCode).toBe(400)
    socket.close()
  })

  it('validates the body in DRF field shapes and writes nothing', async () => {
    const { agent, supervisor } = await people()
    const before = await t.database.db.select().from(activities).where(eq(activities.userId, agent.user.id))
    const missing = await supervisor.client.post(LIST, { user: agent.user.id })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ destination: ['Este campo é obrigatório'], start: ['Este campo é obrigatório'] })
    const backwards = await supervisor.client.post(LIST, { user: agent.user.id, destination: '1001', start: minutes(10), end: minutes(5) })
    expect(backwards.json()).toEqual({ end: ['O fim deve ser posterior ao início.'] })
    const english = await supervisor.client.post(
      LIST,
      { user: agent.user.id, destination: 'call me', start: 'tomorrow' },
      { headers: { 'accept-language': 'en-US' } },
    )
    expect(english.json()).toEqual({ destination: ['Invalid value'], start: ['Invalid value'] })
    const long = await supervisor.client.post(LIST, { user: agent.user.id, destination: '1', start: minutes(1), subject: 'x'.repeat(256) })
    expect(long.json()).toEqual({ subject: ['Este campo é maior do que o permitido que é 255'] })
    expect(await t.database.db.select().from(activities).where(eq(activities.userId, agent.user.id))).toHaveLength(before.length)
  })

  it('reads a zone-less start as UTC', async () => {
    const { agent, supervisor } = await people()
    const created = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: '2030-05-04T10:30' })
    expect(created.start).toBe('2030-05-04T10:30:00.000Z')
  })

  it('needs sites.add_activity (403), and an agent of another site does not exist (404); nothing is written', async () => {
    const { agent } = await people()
    const plainSupervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    const body = { user: agent.user.id, destination: '1001', start: minutes(-1) }
    expect((await plainSupervisor.client.post(LIST, body)).statusCode).toBe(403)
    expect((await agent.client.post(LIST, body)).statusCode).toBe(403)

    const foreign = await person(t.app, t.database.db, { permissions: AGENT_WITH_ACTIVITIES, domain: 'outro.example' })
    const { supervisor } = await people()
    const response = await supervisor.client.post(LIST, { ...body, user: foreign.user.id })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ detail: 'Não encontrado.' })
    expect(await t.database.db.select().from(activities).where(eq(activities.userId, foreign.user.id))).toEqual([])
    expect(await t.database.db.select().from(activities).where(eq(activities.userId, agent.user.id))).toEqual([])
  })

  it('needs sites.view_activities to list and mark done', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    expect((await agent.client.get(LIST)).statusCode).toBe(403)
    expect((await agent.client.post(done(1))).statusCode).toBe(403)
  })
})

describe('marking an activity done', () => {
  it('done_activity marks the agent’s own one and every tab hears the shorter list', async () => {
    const { agent, supervisor } = await people()
    const first = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: minutes(-3) })
    const second = await schedule(supervisor, { user: agent.user.id, destination: '1002', start: minutes(-2) })
    const tab = await openSocket(base, { cookie: agent.cookie })
    const otherTab = await openSocket(base, { cookie: agent.cookie })
    tab.send({ action: 'done_activity', id: first.id })
    expect((await otherTab.next('activity')).activities.map((a) => a.id)).toEqual([second.id])
    expect((await tab.next('activity')).activities.map((a) => a.id)).toEqual([second.id])
    expect(await row(first.id)).toMatchObject({ done: true })
    expect(await row(second.id)).toMatchObject({ done: false })
    tab.close()
    otherTab.close()
  })

  it("another user's id changes nothing, on the socket and over REST (404)", async () => {
    const { agent, supervisor } = await people()
    const intruder = await person(t.app, t.database.db, { permissions: AGENT_WITH_ACTIVITIES })
    const theirs = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: minutes(-3) })
    const victim = await openSocket(base, { cookie: agent.cookie })
    const socket = await openSocket(base, { cookie: intruder.cookie })
    socket.send({ action: 'done_activity', id: theirs.id })
    await socket.roundTrip()
    expect(await row(theirs.id)).toMatchObject({ done: false })
    expect(socket.has('activity')).toBe(false)
    expect(socket.has('error')).toBe(false)

    const response = await intruder.client.post(done(theirs.id))
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ detail: 'Não encontrado.' })
    expect(await row(theirs.id)).toMatchObject({ done: false })
    await victim.roundTrip()
    expect(victim.has('activity')).toBe(false)
    socket.close()
    victim.close()
  })

  it('REST done answers the activity; marking it again answers it unchanged', async () => {
    const { agent, supervisor } = await people()
    const created = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: minutes(-3) })
    const first = await agent.client.post(done(created.id))
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ id: created.id, done: true })
    const again = await agent.client.post(done(created.id))
    expect(again.json()).toMatchObject({ id: created.id, done: true, updated: first.json().updated })
    expect(((await agent.client.get(LIST)).json() as ActivityListResponse).count).toBe(0)
    expect((await agent.client.post('/api/v1/agent/activities/abc/done/')).statusCode).toBe(404)
  })

  it('a malformed done_activity is answered with an error frame and marks nothing', async () => {
    const { agent } = await people()
    const socket = await openSocket(base, { cookie: agent.cookie })
    socket.send({ action: 'done_activity', id: 'x' })
    const error = await socket.next('error')
    expect(error).toMatchObject({ request: 'done_activity', errors: { id: ['Valor inválido'] } })
    socket.close()
  })
})

describe('dial attempts', () => {
  it(`an activity is done at its ${ACTIVITY_MAX_ATTEMPTS}th attempt and leaves the due list`, async () => {
    const { agent, supervisor } = await people()
    const created = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: minutes(-3) })
    await t.database.db
      .update(activities)
      .set({ count: ACTIVITY_MAX_ATTEMPTS - 2 })
      .where(eq(activities.id, created.id))
    const socket = await openSocket(base, { cookie: agent.cookie })

    const penultimate = (await agent.client.post(attempt(created.id))).json() as Activity
    expect(penultimate).toMatchObject({ count: ACTIVITY_MAX_ATTEMPTS - 1, done: false })
    expect((await socket.next('activity')).activities).toEqual([penultimate])

    const last = (await agent.client.post(attempt(created.id))).json() as Activity
    expect(last).toMatchObject({ count: ACTIVITY_MAX_ATTEMPTS, done: true })
    expect((await socket.next('activity')).activities).toEqual([])

    const after = (await agent.client.post(attempt(created.id))).json() as Activity
    expect(after).toMatchObject({ count: ACTIVITY_MAX_ATTEMPTS, done: true })
    expect(await row(created.id)).toMatchObject({ count: ACTIVITY_MAX_ATTEMPTS, done: true })
    socket.close()
  })

  it('counts concurrent attempts one by one', async () => {
    const { agent, supervisor } = await people()
    const created = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: minutes(-3) })
    await Promise.all(Array.from({ length: 5 }, () => agent.client.post(attempt(created.id))))
    expect(await row(created.id)).toMatchObject({ count: 5, done: false })
  })

  it("another user's activity is 404 and keeps its count", async () => {
    const { agent, supervisor } = await people()
    const intruder = await person(t.app, t.database.db, { permissions: AGENT_WITH_ACTIVITIES })
    const created = await schedule(supervisor, { user: agent.user.id, destination: '1001', start: minutes(-3) })
    expect((await intruder.client.post(attempt(created.id))).statusCode).toBe(404)
    expect(await row(created.id)).toMatchObject({ count: 0 })
  })
})
