import type { Db } from '../../db/client.ts'
import type { LeadValues } from './rows.ts'

// Where an import's leads go while it runs, so that a failure keeps none of them (issue 17: nothing half-imported):
// - PostgreSQL: one transaction on a connection of its own, a multi-row INSERT per batch (arrays through unnest: four
//   parameters whatever the batch size, one plan); the rest of the server keeps the pool's other connections.
// - PGlite serves one query at a time and a transaction holds it whole, so a long one would stall every request of
//   the embedded server: batches go to a temporary table between other queries, and one INSERT … SELECT moves them
//   into crm_leads at the end (the only moment the engine is held; a crash drops the temporary table with the session).

export type LeadWriter = {
  write(batch: LeadValues[]): Promise<void>
  /** Makes every written lead visible at once; the count moved. */
  commit(): Promise<number>
  /** Keeps none of them. Safe to call after a failed commit. */
  abort(): Promise<void>
}

type Target = { siteId: number; mailingId: number; importId: number }

type Queryable = { query(text: string, params?: unknown[]): Promise<unknown> }

const INSERT_LEADS = `INSERT INTO crm_leads (site_id, mailing_id, name, surname, phones, data)
  SELECT $1, $2, n, s, p, d::jsonb FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS t(n, s, p, d)`

function columns(batch: LeadValues[]): [string[], string[], string[], string[]] {
  const names: string[] = []
  const surnames: string[] = []
  const phones: string[] = []
  const data: string[] = []
  for (const lead of batch) {
    names.push(lead.name)
    surnames.push(lead.surname)
    phones.push(lead.phones)
    data.push(lead.data)
  }
  return [names, surnames, phones, data]
}

export async function openLeadWriter(db: Db, target: Target): Promise<LeadWriter> {
  const client = (db as unknown as { $client: unknown }).$client
  // node-postgres' Pool counts its connections; PGlite is one engine.
  const postgres = typeof (client as { totalCount?: unknown }).totalCount === 'number'
  return postgres ? postgresWriter(client as PgPool, target) : pgliteWriter(client as Queryable, target)
}

type PgPool = { connect(): Promise<Queryable & { release(error?: Error | boolean): void }> }

async function postgresWriter(pool: PgPool, target: Target): Promise<LeadWriter> {
  const connection = await pool.connect()
  let open = true
  const finish = async (sql: string) => {
    if (!open) return
    open = false
    try {
      await connection.query(sql)
      connection.release()
    } catch (error) {
      // A connection whose transaction state is unknown is not given back to the pool.
      connection.release(true)
      throw error
    }
  }
  let count = 0
  try {
    await connection.query('BEGIN')
  } catch (error) {
    connection.release(true)
    throw error
  }
  return {
    async write(batch) {
      await connection.query(INSERT_LEADS, [target.siteId, target.mailingId, ...columns(batch)])
      count += batch.length
    },
    async commit() {
      await finish('COMMIT')
      return count
    },
    abort: () => finish('ROLLBACK').catch(() => {}),
  }
}

async function pgliteWriter(client: Queryable & { transaction?: unknown }, target: Target): Promise<LeadWriter> {
  const table = `lead_import_${target.importId}`
  await client.query(`DROP TABLE IF EXISTS pg_temp.${table}`)
  await client.query(`CREATE TEMP TABLE ${table} (n text, s text, p text, d text)`)
  const drop = () => client.query(`DROP TABLE IF EXISTS pg_temp.${table}`)
  let count = 0
  return {
    async write(batch) {
      await client.query(`INSERT INTO pg_temp.${table} SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])`, columns(batch))
      count += batch.length
    },
    async commit() {
      const pglite = client as unknown as { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }
      await pglite.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO crm_leads (site_id, mailing_id, name, surname, phones, data) SELECT $1, $2, n, s, p, d::jsonb FROM pg_temp.${table}`,
          [target.siteId, target.mailingId],
        )
        await tx.query(`DROP TABLE pg_temp.${table}`)
      })
      return count
    },
    abort: () => drop().then(() => undefined, () => undefined),
  }
}
