import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../server/db/client.ts'
import { agentStates, callRecords, pabxDevices, pabxQueues, pabxTrunks, sites, teams, userExtras, users } from '../../server/db/schema/index.ts'
import type { EntityKey } from '../../contract/entities/index.ts'
import { seedRecord } from '../../server/seed/seed-record.ts'
import { beforeAll } from 'vitest'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'

// The demo site (localhost: agent1/10001, agent2/10002, the test trunk, queues Suporte/Vendas) as call control sees it.

export async function demo(db: Db) {
  const [site] = await db.select().from(sites).where(eq(sites.domain, 'localhost'))
  const byName = async (username: string) =>
    (
      await db
        .select()
        .from(users)
        .where(and(eq(users.siteId, site!.id), eq(users.username, username)))
    )[0]!
  const [trunk] = await db.select().from(pabxTrunks).where(eq(pabxTrunks.siteId, site!.id))
  const queues = await db.select().from(pabxQueues).where(eq(pabxQueues.siteId, site!.id))
  // Call control tests: an agent is free again the moment a call ends. The demo teams' after-service would keep them
  // from the queue for its duration (after-service.test.ts proves that; a test that wants it turns it on).
  await db.update(teams).set({ enableAfterService: false }).where(eq(teams.siteId, site!.id))
  return {
    site: site!,
    agent1: await byName('agent1'),
    agent2: await byName('agent2'),
    supervisor: await byName('supervisor'),
    trunk: trunk!,
    support: queues.find((q) => q.description === 'Suporte')!,
    sales: queues.find((q) => q.description === 'Vendas')!,
    seed: (key: EntityKey, body: Record<string, unknown>, override?: Record<string, unknown>) =>
      seedRecord({ db, site: site!, userId: null, lang: 'pt-BR', mediaDir: '' }, key, body, override ? { override } : {}),
  }
}

/** Puts an agent on line: signed in to telephony with the given status. */
export async function setAgent(db: Db, user: { id: number; siteId: number }, status: string | null, loggedIn = true) {
  await db
    .insert(agentStates)
    .values({
      userId: user.id,
      siteId: user.siteId,
      telephonyStatus: status,
      telephonyChangedAt: new Date(),
    })
    .onConflictDoUpdate({
      target: agentStates.userId,
      set: { telephonyStatus: status },
    })
  await db
    .insert(userExtras)
    .values({
      userId: user.id,
      siteId: user.siteId,
      loginChannelTelephony: loggedIn,
    })
    .onConflictDoUpdate({
      target: userExtras.userId,
      set: { loginChannelTelephony: loggedIn },
    })
}

export async function deviceOf(db: Db, username: string) {
  return (await db.select().from(pabxDevices).where(eq(pabxDevices.username, username)))[0]!
}

export async function stepsOf(db: Db, callId: string) {
  return db.select().from(callRecords).where(eq(callRecords.callId, callId)).orderBy(callRecords.step)
}

let counter = 0
export const newCallId = () => `call-${Date.now()}-${++counter}@test`

export function fromDevice(user: string, dialled: string, callId = newCallId(), headers: Record<string, string> = {}) {
  return {
    event: 'route',
    tindex: 1,
    tlabel: 2,
    call_id: callId,
    from_user: user,
    from_domain: 'localhost',
    ruri_user: dialled,
    ruri_domain: 'localhost',
    src_ip: '127.0.0.1',
    src_port: 5070,
    transport: 'ws',
    source: 'device',
    trunk_id: null,
    x_headers: headers,
  }
}

export function fromTrunk(trunkId: number, caller: string, did: string, callId = newCallId()) {
  return {
    ...fromDevice(caller, did, callId),
    source: 'trunk',
    transport: 'udp',
    trunk_id: trunkId,
    src_port: 5090,
  }
}

export const failureOf = (callId: string, code: number, reason: string) => ({
  event: 'failure',
  tindex: 1,
  tlabel: 2,
  call_id: callId,
  code,
  reason,
})

/**
 * Call control over the test app's database at a fixed clock, with the demo site, for a test file: `event` reports a
 * call answered or ended as Kamailio would and waits until it is recorded. Read `d` and `control` inside tests.
 */
export function useCallControl(database: () => Db, clock: Date) {
  const state = {} as { d: Awaited<ReturnType<typeof demo>>; control: CallControlService }
  beforeAll(async () => {
    state.d = await demo(database())
    state.control = createCallControl({ db: database(), now: () => clock, random: () => 0 })
  })
  const event = async (callId: string, callState: 'answered' | 'ended') => {
    state.control.event({
      event: 'call',
      call_id: callId,
      state: callState,
      code: 200,
      reason: 'OK',
      by: callState === 'ended' ? 'caller' : '',
      ts: clock.getTime(),
    })
    await state.control.settled()
  }
  return { state, event }
}

/** Ends every open after-service of the site's steps, as the agents' webphones would (tab-form ?type=hangup). */
export async function finishAfterServices(db: Db, siteId: number) {
  await db
    .update(callRecords)
    .set({ afterServiceFinishedAt: new Date() })
    .where(and(eq(callRecords.siteId, siteId), isNull(callRecords.afterServiceFinishedAt)))
}
