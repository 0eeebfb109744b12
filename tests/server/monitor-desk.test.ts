import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { callRecords, pabxDevices, users } from '../../server/db/schema/index.ts'
import type { UserRow } from '../../server/db/schema/index.ts'
import type { MediaBrain } from '../../server/media/app/brain.ts'
import { MonitorDesk } from '../../server/media/app/monitor.ts'
import { seedDemoIfEmpty } from '../../server/seed/demo-seed.ts'
import { openTestDatabase } from './helper.ts'
import type { TestDatabase } from './helper.ts'

// Which call a monitoring start finds (server/media/app/monitor.ts), against the database with the media app faked: the
// agent's answered, unfinished step, whether the agent took it (user_id) or placed it (caller_user_id: a call out
// through a trunk has no answering user). The whole path with the real engines and browsers: e2e/monitor.spec.ts.

let database: TestDatabase
const sent: { cmd: string; call?: string; coach?: { side: string } }[] = []
let desk: MonitorDesk
let agent: UserRow
let supervisor: UserRow

beforeAll(async () => {
  database = await openTestDatabase()
  await seedDemoIfEmpty(database.db, { port: 8000 })
  const db = database.db
  agent = (await db.select().from(users).where(eq(users.username, 'agent1')))[0]!
  const [device] = await db.select().from(pabxDevices).where(eq(pabxDevices.username, '10002'))
  await db.update(users).set({ deviceId: null }).where(eq(users.username, 'agent2'))
  supervisor = (await db.update(users).set({ deviceId: device!.id }).where(eq(users.username, 'supervisor')).returning())[0]!
  // The media app answers every start at once, as if the supervisor had picked up.
  const brain = {
    connected: true,
    onSpy: null,
    command(command: { cmd: string; id: string; call?: string; coach?: { side: string } }) {
      sent.push(command)
      if (command.cmd === 'spy_start') queueMicrotask(() => brain.onSpy?.({ ev: 'spy_started', id: command.id }))
    },
  } as unknown as MediaBrain & { onSpy: ((event: { ev: 'spy_started'; id: string }) => void) | null }
  desk = new MonitorDesk(db, brain)
})

afterAll(async () => {
  await database?.close()
})

async function step(callId: string, values: { userId: number | null; callerUserId: number | null }) {
  await database.db.insert(callRecords).values({
    siteId: agent.siteId,
    callId,
    step: 1,
    uid: crypto.randomUUID(),
    direction: values.userId === null ? 'outbound' : 'inbound',
    callType: 1,
    kind: values.userId === null ? 'trunk' : 'device',
    startedAt: new Date(),
    answeredAt: new Date(),
    decision: {},
    ...values,
  })
}

describe('MonitorDesk.start', () => {
  it('finds a call out the agent placed (no answering user): the agent is its caller side', async () => {
    await step('outbound-call-1', { userId: null, callerUserId: agent.id })
    const session = await desk.start({ user: supervisor, lang: 'pt-BR' }, agent.id, 'listen')
    expect(session.call_id).toBe('outbound-call-1')
    const start = sent.find((command) => command.cmd === 'spy_start')!
    expect(start.call).toBe('outbound-call-1')
    expect(start.coach?.side).toBe('caller')
    await database.db.update(callRecords).set({ endedAt: new Date() }).where(eq(callRecords.callId, 'outbound-call-1'))
  })

  it('finds a call the agent took: the agent is its callee side', async () => {
    sent.length = 0
    await step('inbound-call-1', { userId: agent.id, callerUserId: null })
    const session = await desk.start({ user: supervisor, lang: 'pt-BR' }, agent.id, 'listen')
    expect(session.call_id).toBe('inbound-call-1')
    expect(sent.find((command) => command.cmd === 'spy_start')!.coach?.side).toBe('callee')
  })
})
