import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { activities, callRecords, crmLeads, crmMailings, pabxInboundRoutes, pabxQueues, serviceUnions, teams } from '../../server/db/schema/index.ts'
import { dialerLeadStates } from '../../server/db/schema/dialer.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { demo, finishAfterServices, fromDevice, fromTrunk, newCallId, setAgent, stepsOf } from './call-control-helper.ts'
import { signedIn, useTestApp } from './helper.ts'
import type { TestClient } from './helper.ts'

// What an agent records at the end of a call (issue 15 items 1, 2): the form the call's queue (else its inbound route)
// names, sent once with tab-form ?type=form; the classification chain filtered by the call's queue, readable by the
// agent; a scheduling sub-classification requires its schedule and creates the callback activity as auto_run_schedule
// and schedule_send_to say.

const t = useTestApp()
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService
let agent1: TestClient
let formId = 0
const chain = { classification: 0, other: 0, plain: 0, scheduled: 0, union: 0 }

const tabForm = (uid: string) => `/api/v1/service/action/tab-form/${encodeURIComponent(uid)}/`

/** A customer calls the support queue's DID; agent1 answers; the customer hangs up. */
async function queueCall() {
  await finishAfterServices(t.database.db, d.site.id)
  await setAgent(t.database.db, d.agent1, 'not_inuse')
  await setAgent(t.database.db, d.agent2, 'unavailable')
  const callId = newCallId()
  await control.route(fromTrunk(d.trunk.id, '11987654321', '551130000001', callId))
  control.event({ event: 'call', call_id: callId, state: 'answered', code: 200, reason: 'OK', by: 'callee', ts: Date.now() })
  control.event({ event: 'call', call_id: callId, state: 'ended', code: 200, reason: '', by: 'caller', ts: Date.now() })
  await control.settled()
  const step = (await stepsOf(t.database.db, callId)).find((s) => s.userId === d.agent1.id)!
  expect(step).toBeDefined()
  return step
}

beforeAll(async () => {
  d = await demo(t.database.db)
  const db = t.database.db
  control = createCallControl({ db, random: () => 0 })
  await db
    .update(teams)
    .set({ enableClassifications: ['20-21'] })
    .where(eq(teams.id, d.agent1.teamId!))
  formId = await d.seed('service.forms', {
    description: 'Atendimento',
    fields: [
      { name: 'nome', label: 'Nome', type: 'text', required: true },
      { name: 'motivo', label: 'Motivo', type: 'select', options: 'a=Dúvida;b=Reclamação', tab: 'Detalhes' },
    ],
  })
  chain.classification = await d.seed('service.classifications', { description: 'Retorno', queues: [d.support.id] })
  chain.other = await d.seed('service.classifications', { description: 'Só vendas', queues: [d.sales.id] })
  chain.plain = await d.seed('service.sub-classifications', { description: 'Encerrado', result: 'positive' })
  chain.scheduled = await d.seed('service.sub-classifications', { description: 'Ligar depois', result: 'neutral' })
  await d.seed('service.unions', { classification: chain.classification, sub_classification: chain.plain })
  chain.union = await d.seed('service.unions', {
    classification: chain.classification,
    sub_classification: chain.scheduled,
    enable_schedule: true,
    auto_run_schedule: 1,
    schedule_send_to: 1,
  })
  agent1 = await signedIn(t.app, 'agent1')
})

describe('the form beside the call', () => {
  it("names the queue's form (else the inbound route's) with its definition; answers are stored once and read back", async () => {
    const db = t.database.db
    const none = await queueCall()
    expect((await agent1.get(tabForm(none.uid))).json()).toMatchObject({ form: null, form_definition: null, classification_required: true })

    await db.update(pabxQueues).set({ formId }).where(eq(pabxQueues.id, d.support.id))
    const step = await queueCall()
    const metadata = (await agent1.get(tabForm(step.uid))).json()
    expect(metadata).toMatchObject({
      form: formId,
      form_definition: {
        id: formId,
        description: 'Atendimento',
        fields: [
          { name: 'nome', label: 'Nome', type: 'text', required: true },
          { name: 'motivo', type: 'select', options: 'a=Dúvida;b=Reclamação', tab: 'Detalhes' },
        ],
      },
      form_values: null,
    })
    const sent = await agent1.post(`${tabForm(step.uid)}?type=form&form_id=${formId}`, { nome: 'Ana', motivo: 'a' })
    expect(sent.json()).toMatchObject({ success: true, detail: 'Formulário salvo.' })
    const again = await agent1.post(`${tabForm(step.uid)}?type=form&form_id=${formId}`, { nome: 'Outra' })
    expect(again.json()).toMatchObject({ success: true })
    expect((await agent1.get(tabForm(step.uid))).json()).toMatchObject({ form_values: { nome: 'Ana', motivo: 'a' } })

    // Without a queue form, the inbound route's.
    await db.update(pabxQueues).set({ formId: null }).where(eq(pabxQueues.id, d.support.id))
    await db.update(pabxInboundRoutes).set({ formId }).where(eq(pabxInboundRoutes.siteId, d.site.id))
    try {
      const routed = await queueCall()
      expect((await agent1.get(tabForm(routed.uid))).json()).toMatchObject({ form: formId })
    } finally {
      await db.update(pabxInboundRoutes).set({ formId: null }).where(eq(pabxInboundRoutes.siteId, d.site.id))
    }
  })

  it('tab-form answers every type and refuses an unknown one', async () => {
    const step = await queueCall()
    expect((await agent1.post(`${tabForm(step.uid)}?type=fax`)).statusCode).toBe(400)
    expect((await agent1.post(`${tabForm(step.uid)}?type=form`)).statusCode).toBe(400)
    expect((await agent1.post(`${tabForm(step.uid)}?type=classification`, { classification_id: chain.classification })).statusCode).toBe(200)
    expect((await agent1.post(`${tabForm(step.uid)}?type=form&form_id=${formId}`, { nome: 'Ana' })).statusCode).toBe(200)
    expect((await agent1.post(`${tabForm(step.uid)}?type=hangup&after_service_type=3&after_service_duration=12`)).statusCode).toBe(200)
    const [row] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, step.id))
    expect(row).toMatchObject({ formId, formValues: { nome: 'Ana' }, afterServiceType: 3, afterServiceDuration: 12 })
  })
})

describe('the classification chain', () => {
  it("the agent reads the classifications of the call's queue and the sub-classifications of one", async () => {
    const list = await agent1.get(`/api/v1/service/classifications/?queue_id=${d.support.id}&limit=999999`)
    expect(list.statusCode).toBe(200)
    const names = (list.json().results as { description: string }[]).map((r) => r.description)
    expect(names).toContain('Retorno')
    expect(names).not.toContain('Só vendas')
    const subs = await agent1.get(`/api/v1/service/sub-classifications/?classification_id=${chain.classification}&limit=999999`)
    expect((subs.json().results as { description: string }[]).map((r) => r.description).sort()).toEqual(['Encerrado', 'Ligar depois'])
    const unions = await agent1.get(`/api/v1/service/unions/?classification=${chain.classification}`)
    expect(unions.statusCode).toBe(200)
    // Reading is all the agent may do.
    expect((await agent1.post('/api/v1/service/classifications/', { description: 'x' })).statusCode).toBe(403)
  })

  it("a lead's call names its mailing, and the classifications filter by mailing (?mailing_id=)", async () => {
    const db = t.database.db
    const [mailing] = await db.insert(crmMailings).values({ siteId: d.site.id, description: 'Campanha de renovação' }).returning()
    const [elsewhere] = await db.insert(crmMailings).values({ siteId: d.site.id, description: 'Outra campanha' }).returning()
    const [lead] = await db.insert(crmLeads).values({ siteId: d.site.id, mailingId: mailing!.id, name: 'Bia', phones: '11987654321' }).returning()
    const renewal = await d.seed('service.classifications', { description: 'Renovou', mailings: [mailing!.id] })
    await d.seed('service.classifications', { description: 'Só da outra', mailings: [elsewhere!.id] })

    const names = async (query: string) => {
      const list = await agent1.get(`/api/v1/service/classifications/?${query}&limit=999999`)
      expect(list.statusCode).toBe(200)
      return (list.json().results as { description: string }[]).map((r) => r.description)
    }
    expect(await names(`mailing_id=${mailing!.id}`)).toEqual(['Renovou'])
    expect(await names(`mailing_id=${elsewhere!.id}`)).toEqual(['Só da outra'])
    // The queue's classifications are not the mailing's, nor the other way round.
    expect(await names(`queue_id=${d.support.id}`)).not.toContain('Renovou')
    expect(await names(`mailing_id=${mailing!.id}`)).not.toContain('Retorno')
    expect((await agent1.get('/api/v1/service/classifications/?mailing_id=abc')).statusCode).toBe(400)
    // The classification reads back with its mailings (the settings form's multi-select).
    expect((await agent1.get(`/api/v1/service/classifications/${renewal}/`)).json()).toMatchObject({ mailings: [mailing!.id] })

    // tab-form tells the webphone the call's lead and its mailing; a call without a lead names none.
    const step = await queueCall()
    expect((await agent1.get(tabForm(step.uid))).json().data).toMatchObject({ mailing: null, mailing_client: null })
    await db.update(callRecords).set({ leadId: lead!.id }).where(eq(callRecords.id, step.id))
    expect((await agent1.get(tabForm(step.uid))).json().data).toMatchObject({ mailing: mailing!.id, mailing_client: lead!.id })
  })

  it("a dialer campaign's form comes before the queue's; the call names its campaign (its header, else the lead's hold)", async () => {
    const db = t.database.db
    const [mailing] = await db.insert(crmMailings).values({ siteId: d.site.id, description: 'Cobrança' }).returning()
    const [lead] = await db.insert(crmLeads).values({ siteId: d.site.id, mailingId: mailing!.id, name: 'Caio', phones: '11912345678' }).returning()
    const campaignForm = await d.seed('service.forms', { description: 'Cobrança', fields: [{ name: 'valor', label: 'Valor', type: 'text', required: true }] })
    const campaign = await d.seed('service.shipments-campaigns', { description: 'Cobrança', mailings: [mailing!.id], queue: d.support.id, form: campaignForm })
    const plain = await d.seed('service.shipments-campaigns', { description: 'Sem formulário', mailings: [mailing!.id], queue: d.support.id })
    await db.update(pabxQueues).set({ formId }).where(eq(pabxQueues.id, d.support.id))
    try {
      const step = await queueCall()
      expect((await agent1.get(tabForm(step.uid))).json()).toMatchObject({ form: formId, data: { campaign: null, dialer: null } })
      // The lead's hold names the campaign: its form, not the queue's.
      await db.update(callRecords).set({ leadId: lead!.id }).where(eq(callRecords.id, step.id))
      await db.insert(dialerLeadStates).values({ leadId: lead!.id, siteId: d.site.id, campaignId: campaign })
      const held = (await agent1.get(tabForm(step.uid))).json()
      expect(held).toMatchObject({ form: campaignForm, data: { campaign, dialer: campaign } })
      expect(held.form_definition.fields.map((f: { name: string }) => f.name)).toEqual(['valor'])
      // The dialer's header wins; a campaign without a form leaves the queue's.
      const decision = { ...(step.decision as object), headers: `X-Atende-Campaign: ${plain}\r\n` }
      await db.update(callRecords).set({ decision }).where(eq(callRecords.id, step.id))
      expect((await agent1.get(tabForm(step.uid))).json()).toMatchObject({ form: formId, data: { campaign: plain } })
    } finally {
      await db.update(pabxQueues).set({ formId: null }).where(eq(pabxQueues.id, d.support.id))
    }
  })

  it('a scheduling sub-classification requires its schedule and creates the callback (auto_run_schedule, schedule_send_to)', async () => {
    const db = t.database.db
    const classify = (uid: string, body: Record<string, unknown>) =>
      agent1.post(`${tabForm(uid)}?type=classification`, { classification_id: chain.classification, sub_classification_id: chain.scheduled, ...body })
    const when = new Date(Date.now() + 3600_000).toISOString()
    const activityOf = async (id: number) => (await db.select().from(activities).where(eq(activities.id, id)))[0]!

    const step = await queueCall()
    const missing = await classify(step.uid, {})
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ schedule_date: ['Este campo é obrigatório'] })

    // 1 run automatically, 1 to the agent.
    const first = await classify(step.uid, { schedule_date: when })
    expect(first.statusCode).toBe(200)
    const id = first.json().activity as number
    expect(await activityOf(id)).toMatchObject({ userId: d.agent1.id, destination: '11987654321', automaticExecution: true, done: false, mailingId: null })
    expect((await activityOf(id)).start.toISOString()).toBe(when)
    // A correction moves the same activity.
    const later = new Date(Date.now() + 7200_000).toISOString()
    expect((await classify(step.uid, { schedule_date: later })).json().activity).toBe(id)
    expect((await activityOf(id)).start.toISOString()).toBe(later)
    // Re-classified without scheduling: the callback is closed.
    await agent1.post(`${tabForm(step.uid)}?type=classification`, { classification_id: chain.classification, sub_classification_id: chain.plain })
    expect(await activityOf(id)).toMatchObject({ done: true, active: false })

    const setUnion = (values: Partial<typeof serviceUnions.$inferInsert>) => db.update(serviceUnions).set(values).where(eq(serviceUnions.id, chain.union))
    try {
      // 2 never (hidden): not automatic, whatever the agent says.
      await setUnion({ autoRunSchedule: 2 })
      const never = await classify((await queueCall()).uid, { schedule_date: when, schedule_auto_run: true })
      expect(await activityOf(never.json().activity)).toMatchObject({ automaticExecution: false })
      // 3 optional: the agent's choice.
      await setUnion({ autoRunSchedule: 3 })
      const optional = await classify((await queueCall()).uid, { schedule_date: when, schedule_auto_run: false })
      expect(await activityOf(optional.json().activity)).toMatchObject({ automaticExecution: false })
      const optionalDefault = await classify((await queueCall()).uid, { schedule_date: when })
      expect(await activityOf(optionalDefault.json().activity)).toMatchObject({ automaticExecution: true })
      // schedule_send_to 2: the member of the call's queue with the fewest pending activities.
      await setUnion({ scheduleSendTo: 2 })
      const anyMember = await classify((await queueCall()).uid, { schedule_date: when })
      expect(await activityOf(anyMember.json().activity)).toMatchObject({ userId: d.agent2.id })
      // 3 with the union's mailing.
      const [list] = await db.insert(crmMailings).values({ siteId: d.site.id, description: 'Retornos' }).returning()
      await setUnion({ scheduleSendTo: 3, mailing: list!.id })
      const mailing = await classify((await queueCall()).uid, { schedule_date: when })
      expect(await activityOf(mailing.json().activity)).toMatchObject({ userId: d.agent1.id, mailingId: list!.id })
      // A mailing the site no longer has leaves the callback without one, instead of failing the classification.
      await setUnion({ scheduleSendTo: 3, mailing: 2_000_000 })
      const gone = await classify((await queueCall()).uid, { schedule_date: when })
      expect(await activityOf(gone.json().activity)).toMatchObject({ userId: d.agent1.id, mailingId: null })
      // 4 the agent chooses: required, of the site.
      await setUnion({ scheduleSendTo: 4 })
      const chooser = (await queueCall()).uid
      expect((await classify(chooser, { schedule_date: when })).json()).toEqual({ schedule_user_id: ['Este campo é obrigatório'] })
      expect((await classify(chooser, { schedule_date: when, schedule_user_id: 999_999 })).json()).toEqual({ schedule_user_id: ['Valor inválido'] })
      const chosen = await classify(chooser, { schedule_date: when, schedule_user_id: d.agent2.id })
      expect(await activityOf(chosen.json().activity)).toMatchObject({ userId: d.agent2.id })
      expect((await agent1.get(tabForm(chooser))).json().classification).toMatchObject({ activity_id: chosen.json().activity, schedule_date: when })
    } finally {
      await setUnion({ autoRunSchedule: 1, scheduleSendTo: 1, mailing: null })
    }
  })
})

describe('the call record tells the truth; supervisors see outcomes', () => {
  type Row = { call_id: string; phone: string; user: number | null; dial_status: number | null; dial_status_text: string; classification: string | null }

  it("a call the caller cancelled is 487, never 500; an internal call shows the other extension and, in an agent's list, the agent", async () => {
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await finishAfterServices(t.database.db, d.site.id)
    const cancelled = newCallId()
    await control.route(fromTrunk(d.trunk.id, '11955554444', '551130000001', cancelled))
    control.event({ event: 'call', call_id: cancelled, state: 'failed', code: 500, reason: 'Internal Server Error', by: 'caller', ts: Date.now() })
    await control.settled()
    const supervisor = await signedIn(t.app, 'supervisor')
    const list = (await supervisor.get('/api/v1/report/calls/?search=11955554444')).json().results as Row[]
    expect(list.find((row) => row.call_id === cancelled)).toMatchObject({ dial_status: 487, dial_status_text: 'Cancelada ou tempo esgotado' })

    const internal = newCallId()
    await control.route(fromDevice('10001', '10002', internal))
    control.event({ event: 'call', call_id: internal, state: 'answered', code: 200, reason: 'OK', by: 'callee', ts: Date.now() })
    control.event({ event: 'call', call_id: internal, state: 'ended', code: 200, reason: '', by: 'caller', ts: Date.now() })
    await control.settled()
    const own = ((await agent1.get('/api/v1/report/calls/?limit=50')).json().results as Row[]).find((row) => row.call_id === internal)
    expect(own).toMatchObject({ phone: '10002', user: d.agent1.id })
  })

  it('the calls list filters by classification; a call shows its form answers and the activity its classification scheduled', async () => {
    const step = await queueCall()
    await t.database.db.update(pabxQueues).set({ formId }).where(eq(pabxQueues.id, d.support.id))
    try {
      const fresh = await queueCall()
      await agent1.post(`${tabForm(fresh.uid)}?type=form&form_id=${formId}`, { nome: 'Bia' })
      const when = new Date(Date.now() + 3600_000).toISOString()
      const classified = await agent1.post(`${tabForm(fresh.uid)}?type=classification`, {
        classification_id: chain.classification,
        sub_classification_id: chain.scheduled,
        schedule_date: when,
      })
      const activity = classified.json().activity as number
      const supervisor = await signedIn(t.app, 'supervisor')
      const rows = (await supervisor.get(`/api/v1/report/calls/?classification=${chain.classification}&limit=100`)).json().results as (Row & {
        form: unknown
        activity: number | null
      })[]
      expect(rows.map((row) => row.call_id)).toContain(fresh.callId)
      expect(rows.map((row) => row.call_id)).not.toContain(step.callId)
      expect(rows.find((row) => row.call_id === fresh.callId)).toMatchObject({
        classification: 'Retorno',
        form: { id: formId, description: 'Atendimento', values: { nome: 'Bia' } },
        activity,
      })
      const bySub = (await supervisor.get(`/api/v1/report/calls/?sub_classification=${chain.scheduled}&limit=100`)).json().results as Row[]
      expect(bySub.map((row) => row.call_id)).toContain(fresh.callId)
      expect((await supervisor.get('/api/v1/report/calls/?classification=abc')).statusCode).toBe(400)
      const steps = (await supervisor.get(`/api/v1/report/call-steps/${encodeURIComponent(fresh.callId)}/`)).json().results as Record<string, unknown>[]
      expect(steps.find((s) => s.uid === fresh.uid)).toMatchObject({
        classification: 'Retorno',
        sub_classification: 'Ligar depois',
        schedule_date: when,
        activity,
      })
    } finally {
      await t.database.db.update(pabxQueues).set({ formId: null }).where(eq(pabxQueues.id, d.support.id))
    }
  })
})
