import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { CHAT_PATHS } from '../../../contract/api/chat.ts'
import type { ChatForms, ChatHistoryRow, ChatList, ChatRoomDetail } from '../../../contract/api/chat-calls.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { activities, chatQueues, chatRooms, teams, users } from '../../../server/db/schema/index.ts'
import { seedRecord } from '../../../server/seed/seed-record.ts'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import type { EntityKey } from '../../../contract/entities/index.ts'
import { signedIn, useTestApp } from '../helper.ts'
import type { TestClient } from '../helper.ts'
import { person } from '../agent/agent-helper.ts'
import { channel, reload, room, userId } from './chat-fixtures.ts'

// A chat ends with an outcome (issue 15 item 4; spec 001 §2 Form and Classification tabs, §5 closing, §7 forms/ and
// tab-form step_type=chat): the form its queue names with the room's data, the classification chain with the comment
// rules and a schedule → activity, both stored on the room; closing refuses with the spec's toasts until both are
// there (a supervisor may force it); the detail, the history and its classification filter show the outcome.

const t = useTestApp()
const api = (path: string) => `/api${path}`
const tabForm = (ref: string | number) => `/api/v1/service/action/tab-form/${ref}/`

let agent: TestClient
let agent2: TestClient
let supervisor: TestClient
let siteId = 0
let agentId = 0
let channelId = 0
let queueId = 0
let formId = 0
const chain = { classification: 0, plain: 0, scheduled: 0 }

async function seed(key: EntityKey, body: Record<string, unknown>): Promise<number> {
  const site = (await resolveSite(t.database.db, 'localhost'))!
  return seedRecord({ db: t.database.db, site, userId: null, lang: 'pt-BR', mediaDir: '' }, key, body, {})
}

/** An inbound chat of the queue, answered by agent1. */
async function queueRoom(title = 'Maria Souza') {
  const row = await room(t.database.db, { siteId, channelId, userId: agentId, title, phone: '5511987650001' })
  await t.database.db.update(chatRooms).set({ queueId, chatType: 20 }).where(eq(chatRooms.id, row.id))
  return reload(t.database.db, row.id)
}

beforeAll(async () => {
  const db = t.database.db
  siteId = (await resolveSite(db, 'localhost'))!.id
  agentId = await userId(db, siteId, 'agent1')
  channelId = await channel(db, siteId)
  const [me] = await db.select({ teamId: users.teamId }).from(users).where(eq(users.id, agentId))
  await db
    .update(teams)
    .set({ enableClassifications: ['20-21'], enableComment: true, minimumCommentSize: 5, maximumCommentSize: 200 })
    .where(eq(teams.id, me!.teamId!))
  formId = await seed('service.forms', {
    description: 'Atendimento por chat',
    fields: [
      { name: 'name', label: 'Nome', type: 'text' },
      { name: 'motivo', label: 'Motivo', type: 'select', options: 'a=Dúvida;b=Reclamação', required: true, tab: 'Detalhes' },
    ],
  })
  queueId = await seed('chat.queues', { description: 'Suporte chat', form: formId, minimum_comment_size: 0, maximum_comment_size: 100 })
  chain.classification = await seed('service.classifications', { description: 'Resolvido', chat_queues: [queueId] })
  chain.plain = await seed('service.sub-classifications', { description: 'Na hora', result: 'positive' })
  chain.scheduled = await seed('service.sub-classifications', { description: 'Retornar', result: 'neutral' })
  await seed('service.unions', { classification: chain.classification, sub_classification: chain.plain })
  await seed('service.unions', {
    classification: chain.classification,
    sub_classification: chain.scheduled,
    enable_schedule: true,
    auto_run_schedule: 2,
    schedule_send_to: 1,
  })
  agent = await signedIn(t.app, 'agent1')
  agent2 = await signedIn(t.app, 'agent2')
  supervisor = await signedIn(t.app, 'supervisor')
})

describe('GET chats/{id}/forms/', () => {
  it("answers the queue's form in tabs, pre-filled from the room, and the classification the team requires", async () => {
    const r = await queueRoom('Ana Lima')
    const forms = (await agent.get(api(CHAT_PATHS.forms(r.id)))).json() as ChatForms
    expect(forms).toMatchObject({
      step_id: r.id,
      classification: { uid: r.uid, required: true, queue_id: queueId, comment: { enabled: true, min: 5, max: 100 }, value: null },
      form: {
        uid: r.uid,
        id: formId,
        description: 'Atendimento por chat',
        sent: false,
        values: null,
        data: { name: 'Ana Lima', phone: '5511987650001', queue: 'Suporte chat', protocol: r.id },
      },
    })
    expect(forms.form!.tabs.map((tab) => [tab.name, tab.fields.map((f) => f.name)])).toEqual([
      ['', ['name']],
      ['Detalhes', ['motivo']],
    ])
  })

  it('answers nulls for a room without a queue form or classification', async () => {
    const r = await room(t.database.db, { siteId, channelId, userId: agentId })
    await t.database.db.update(chatRooms).set({ chatType: 10 }).where(eq(chatRooms.id, r.id))
    expect((await agent.get(api(CHAT_PATHS.forms(r.id)))).json()).toEqual({ step_id: r.id, classification: null, form: null })
  })
})

describe('closing a chat (spec 001 §5)', () => {
  it('refuses without the classification, then without the form, with the spec toasts; closes once both are there', async () => {
    const r = await queueRoom()
    const close = () => agent.post(api(CHAT_PATHS.close(r.uid)), {})
    const blocked = await close()
    expect(blocked.statusCode).toBe(400)
    expect(blocked.json()).toEqual({ success: false, detail: 'Classificação tem campos obrigatórios', code: 'classification_required' })
    expect((await reload(t.database.db, r.id)).endedAt).toBeNull()

    // The comment's minimum (the team's 5) and the queue's maximum (100) hold.
    const short = await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, { classification_id: chain.classification, comment: 'ok' })
    expect(short.statusCode).toBe(400)
    expect(short.json()).toEqual({ comment: ['Este campo é menor do que o permitido que é 5'] })
    const long = await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, { classification_id: chain.classification, comment: 'x'.repeat(101) })
    expect(long.json()).toEqual({ comment: ['Este campo é maior do que o permitido que é 100'] })
    const classified = await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, {
      classification_id: chain.classification,
      sub_classification_id: chain.plain,
      comment: 'Cliente atendido',
    })
    expect(classified.json()).toMatchObject({ success: true, activity: null })

    const noForm = await close()
    expect(noForm.statusCode).toBe(400)
    expect(noForm.json()).toEqual({ success: false, detail: 'Formulário tem campos obrigatórios', code: 'form_required' })
    // A form sent without its required answer still blocks.
    expect((await agent.post(`${tabForm(r.id)}?type=form&form_id=${formId}&step_type=chat`, { name: 'Maria' })).json()).toMatchObject({
      detail: 'Formulário salvo.',
    })
    expect((await close()).json()).toMatchObject({ code: 'form_required' })

    const other = await queueRoom('Paula')
    await agent.post(`${tabForm(other.uid)}?type=classification&step_type=chat`, { classification_id: chain.classification, comment: 'Resolvido' })
    const sent = await agent.post(`${tabForm(other.uid)}?type=form&form_id=${formId}&step_type=chat`, { name: 'Paula', motivo: 'b' })
    expect(sent.json()).toEqual({ success: true, detail: 'Formulário salvo.' })
    // Never resent: the second answer changes nothing.
    const again = await agent.post(`${tabForm(other.uid)}?type=form&form_id=${formId}&step_type=chat`, { name: 'Outra', motivo: 'a' })
    expect(again.json()).toEqual({ success: true, detail: 'O formulário deste chat já foi enviado.' })
    const forms = (await agent.get(api(CHAT_PATHS.forms(other.id)))).json() as ChatForms
    expect(forms.form).toMatchObject({ sent: true, values: { name: 'Paula', motivo: 'b' }, data: { name: 'Paula', motivo: 'b' } })
    expect(forms.classification?.value).toMatchObject({ classification_id: chain.classification, comment: 'Resolvido', classified_by: agentId })

    const closed = await agent.post(api(CHAT_PATHS.close(other.uid)), {})
    expect(closed.json()).toEqual({ success: true })
    expect((await reload(t.database.db, other.id)).endedAt).not.toBeNull()
  })

  it('answers the refusal in the caller’s language', async () => {
    const r = await queueRoom()
    const english = await agent.post(api(CHAT_PATHS.close(r.uid)), {}, { headers: { 'accept-language': 'en-US' } })
    expect(english.json()).toMatchObject({ detail: 'The classification has required fields' })
  })

  it('lets a supervisor force the close; an agent’s force is not enough', async () => {
    const r = await queueRoom()
    expect((await agent.post(api(CHAT_PATHS.close(r.uid)), { force: true })).statusCode).toBe(400)
    expect((await supervisor.post(api(CHAT_PATHS.close(r.uid)), { force: true })).json()).toEqual({ success: true })
    expect((await reload(t.database.db, r.id)).endedBy).toBe('supervisor')
    expect((await supervisor.post(api(CHAT_PATHS.close(r.uid)), { force: 'yes' })).statusCode).toBe(400)
  })
})

describe('tab-form with step_type=chat', () => {
  it('creates the activity of a scheduling sub-classification, for the chat’s phone', async () => {
    const r = await queueRoom()
    const missing = await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, {
      classification_id: chain.classification,
      sub_classification_id: chain.scheduled,
      comment: 'Ligar amanhã',
    })
    expect(missing.json()).toEqual({ schedule_date: ['Este campo é obrigatório'] })
    const at = new Date(Date.now() + 3600_000).toISOString()
    const answer = await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, {
      classification_id: chain.classification,
      sub_classification_id: chain.scheduled,
      comment: 'Ligar amanhã',
      schedule_date: at,
    })
    const activityId = answer.json().activity as number
    expect(activityId).toBeGreaterThan(0)
    const [activity] = await t.database.db.select().from(activities).where(eq(activities.id, activityId))
    expect(activity).toMatchObject({ userId: agentId, destination: '5511987650001', target: r.uid, automaticExecution: false, done: false })
    expect(activity!.start.toISOString()).toBe(at)
    // A correction without the schedule closes that activity.
    await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, { classification_id: chain.classification, comment: 'Resolvido já' })
    const [closed] = await t.database.db.select().from(activities).where(eq(activities.id, activityId))
    expect(closed).toMatchObject({ done: true, active: false })
  })

  it("reaches only the agent's own room; needs sites.view_chat; refuses a chain of another site", async () => {
    const r = await queueRoom()
    const body = { classification_id: chain.classification, comment: 'Resolvido' }
    expect((await agent2.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, body)).statusCode).toBe(404)
    expect((await agent.post(`${tabForm('00000000-0000-4000-8000-000000000000')}?type=classification&step_type=chat`, body)).statusCode).toBe(404)
    const phoneOnly = await person(t.app, t.database.db, { permissions: [PERMISSIONS.viewSoftphone], name: 'so-fone' })
    expect((await phoneOnly.client.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, body)).statusCode).toBe(403)
    expect((await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, { ...body, classification_id: 999_999 })).json()).toEqual({
      classification_id: ['Valor inválido'],
    })
    expect((await agent.post(`${tabForm(r.uid)}?type=form&form_id=999999&step_type=chat`, {})).json()).toEqual({ form_id: ['Valor inválido'] })
    expect((await agent.post(`${tabForm(r.uid)}?type=classification&step_type=fax`, body)).statusCode).toBe(400)
  })
})

describe('the outcome in the detail and the history', () => {
  it('shows the classification, comment and form answers; the history filters by classification', async () => {
    const r = await queueRoom('Detalhe')
    await agent.post(`${tabForm(r.uid)}?type=classification&step_type=chat`, {
      classification_id: chain.classification,
      sub_classification_id: chain.plain,
      comment: 'Tudo certo',
    })
    await agent.post(`${tabForm(r.uid)}?type=form&form_id=${formId}&step_type=chat`, { name: 'Detalhe', motivo: 'a' })
    await agent.post(api(CHAT_PATHS.close(r.uid)), {})
    const detail = (await agent.get(api(CHAT_PATHS.room(r.id)))).json() as ChatRoomDetail
    expect(detail).toMatchObject({
      classification: 'Resolvido',
      sub_classification: 'Na hora',
      comment: 'Tudo certo',
      form: { id: formId, description: 'Atendimento por chat', data: { name: 'Detalhe', motivo: 'a' } },
    })
    const filtered = (
      await agent.get(`${api(CHAT_PATHS.historic)}?classification=${chain.classification}&sub_classification=${chain.plain}&limit=100`)
    ).json() as ChatList<ChatHistoryRow>
    expect(filtered.results.map((row) => row.id)).toContain(r.id)
    expect(filtered.results.every((row) => row.classification === 'Resolvido' && row.sub_classification === 'Na hora')).toBe(true)
    const none = (await agent.get(`${api(CHAT_PATHS.historic)}?sub_classification=${chain.scheduled}`)).json() as ChatList<ChatHistoryRow>
    expect(none.results.map((row) => row.id)).not.toContain(r.id)
    expect((await agent.get(`${api(CHAT_PATHS.historic)}?classification=abc`)).statusCode).toBe(400)
    const [q] = await t.database.db
      .select()
      .from(chatQueues)
      .where(and(eq(chatQueues.id, queueId)))
    expect(q!.formId).toBe(formId)
  })
})
