import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { dialerPaths } from '../../../contract/api/dialer.ts'
import { crmLeads, dialerLeadStates } from '../../../server/db/schema/index.ts'
import { createCallControl } from '../../../server/telephony/control/index.ts'
import { demo, failureOf, fromDevice, newCallId, stepsOf } from '../call-control-helper.ts'
import { signedIn, useTestApp } from '../helper.ts'

// A preview call's own result on its lead (issue 18, type 18): the agent reserves the lead (make-call-to-mailing-client)
// and dials it with X-Atende-Mailing-Client; call control records the call as the lead's preview call, counts the
// attempt when it goes out, and when Kamailio says it ended or failed writes the dial status on the lead by the
// campaign's rules and releases the hold.

const t = useTestApp({ overrides: { dialer: { runner: false } } })
let clock = new Date()

async function setUp(phones: string[]) {
  const d = await demo(t.database.db)
  const route = await d.seed('pabx.outbound-routes', {
    description: `Celular ${Math.random()}`,
    dial_patterns: '0ZX9XXXXXXXX',
    priority: 0,
    teams: [d.agent1.teamId],
  })
  await d.seed('pabx.outbound-route-trunks', { outbound_route: route, trunk: d.trunk.id, order: 0 })
  const mailing = await d.seed('crm.mailings', { description: `Mailing ${Math.random()}` })
  const leads: number[] = []
  for (const [i, phone] of phones.entries()) leads.push(await d.seed('crm.leads', { mailing, name: `Lead ${i}`, surname: 'Lima', phones: phone }))
  const campaign = await d.seed('service.shipments-campaigns', {
    description: `Preview ${Math.random()}`,
    mailings: [mailing],
    mode: 'preview',
    queue: d.support.id,
    outbound_route: route,
    min_interval: 30,
    inactivate_by_duration: 10,
  })
  const admin = await signedIn(t.app, 'admin')
  expect((await admin.post(dialerPaths.command(campaign, 'start'))).statusCode).toBe(200)
  const control = createCallControl({ db: t.database.db, now: () => clock, random: () => 0 })
  return { d, leads, campaign, control }
}

async function reserve(username: 'agent1' | 'agent2', lead: number) {
  const agent = await signedIn(t.app, username)
  const response = await agent.put(`${dialerPaths.makeCall}?mailing_client=${lead}`)
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { success: boolean; phone: string }
}

const leadOf = async (id: number) => (await t.database.db.select().from(crmLeads).where(eq(crmLeads.id, id)))[0]!
const stateOf = async (id: number) => (await t.database.db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, id)))[0]!

describe("a preview call's result on its lead", () => {
  it('answered and talked past the inactivation: the call is type 18 with the lead, the attempt counted, the lead done', async () => {
    const { leads, control } = await setUp(['011987651001'])
    clock = new Date()
    const made = await reserve('agent1', leads[0]!)
    expect(made.success).toBe(true)
    const callId = newCallId()
    const decision = await control.route(fromDevice('10001', made.phone, callId, { 'X-Atende-Mailing-Client': String(leads[0]) }))
    expect(decision.action).toBe('relay')
    const [step] = await stepsOf(t.database.db, callId)
    expect(step).toMatchObject({ callType: 18, leadId: leads[0], direction: 'outbound' })
    // Out: the attempt is counted and the hold names the call.
    expect(await leadOf(leads[0]!)).toMatchObject({ attempts: 1, status: 'pending' })
    expect((await stateOf(leads[0]!)).callId).toBe(callId)
    // While its call is on, the agent's next preview is not this lead again (the card would offer it twice).
    const agent1 = await signedIn(t.app, 'agent1')
    expect((await agent1.get(dialerPaths.preview)).json()).toBeNull()

    const at = clock.getTime()
    control.event({ event: 'call', call_id: callId, state: 'answered', code: 200, reason: 'OK', by: 'callee', ts: at + 5_000 })
    control.event({ event: 'call', call_id: callId, state: 'ended', code: 0, reason: 'BYE', by: 'caller', ts: at + 65_000 })
    await control.settled()
    // 60 s talked ≥ the campaign's inactivation by duration (10 s): the lead is done, its hold released.
    expect(await leadOf(leads[0]!)).toMatchObject({ attempts: 1, status: 'done' })
    expect(await stateOf(leads[0]!)).toMatchObject({ callId: null, reservedBy: null, lastStatus: 200 })
    // The call's own record stays what the events wrote.
    const [ended] = await stepsOf(t.database.db, callId)
    expect(ended).toMatchObject({ dialStatus: 200, answeredDuration: 60 })
  })

  it('busy: 486 on the lead, due again after the minimum interval; a lead held by another agent is an ordinary call', async () => {
    const { leads, control } = await setUp(['011987651002', '011987651003'])
    clock = new Date()
    const made = await reserve('agent1', leads[0]!)
    const callId = newCallId()
    expect((await control.route(fromDevice('10001', made.phone, callId, { 'X-Atende-Mailing-Client': String(leads[0]) }))).action).toBe('relay')
    // The carrier answers busy: no trunk left, Kamailio replies 486 and says the call failed.
    const after = await control.failure(failureOf(callId, 486, 'Busy Here'))
    expect(after).toMatchObject({ action: 'reject', code: 486 })
    control.event({ event: 'call', call_id: callId, state: 'failed', code: 486, reason: 'Busy Here', by: 'callee', ts: clock.getTime() + 3_000 })
    await control.settled()
    expect(await leadOf(leads[0]!)).toMatchObject({ attempts: 1, status: 'pending' })
    const state = await stateOf(leads[0]!)
    expect(state).toMatchObject({ callId: null, reservedBy: null, lastStatus: 486 })
    expect(state.nextAt!.getTime() - clock.getTime()).toBeGreaterThan(29 * 60_000)

    // agent2 holds the other lead: agent1 naming it dials an ordinary manual call, and the lead is untouched.
    expect((await reserve('agent2', leads[1]!)).success).toBe(true)
    const other = newCallId()
    expect((await control.route(fromDevice('10001', '011987651003', other, { 'X-Atende-Mailing-Client': String(leads[1]) }))).action).toBe('relay')
    const [manual] = await stepsOf(t.database.db, other)
    expect(manual).toMatchObject({ callType: 10, leadId: null })
    expect(await leadOf(leads[1]!)).toMatchObject({ attempts: 0 })
    expect((await stateOf(leads[1]!)).callId).toBeNull()
  })
})
