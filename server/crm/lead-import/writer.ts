import type { Writable } from 'node:stream'
import { from as copyFrom } from 'pg-copy-streams'
import type { Db } from '../../db/client.ts'
import type { LeadValues } from './rows.ts'

// Where an import's leads go while it runs, so that a failure keeps none of them (issue 17: nothing half-imported):
// - PostgreSQL: one transaction on a connection of its own holding one `COPY crm_leads … FROM STDIN` (pg-copy-streams)
//   for the whole file: each batch is encoded as COPY text and written with back-pressure, the server checks and
//   indexes the rows as they arrive (multi-insert, no per-statement overhead), and COMMIT makes them visible at once.
//   A failed row or a failed file ends the COPY with CopyFail and rolls the transaction back; the rest of the server
//   keeps the pool's other connections. No staging table: the values are already checked (rows.ts), so the COPY can
//   go straight into crm_leads, and writing the rows once instead of twice is most of the speed.
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

type PgConnection = Queryable & { query(stream: Writable): Writable; release(error?: Error | boolean): void }
type PgPool = { connect(): Promise<PgConnection> }

export const COPY_LEADS = 'COPY crm_leads (site_id, mailing_id, name, surname, phones, data) FROM STDIN'

const COPY_SPECIAL = /[\\\t\n\r\0]/
const COPY_SPECIAL_ALL = /[\\\t\n\r\0]/g
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '' }

/** A value as a field of COPY's text format: backslash, tab, newline and carriage return escaped; NUL (which no
 * PostgreSQL text holds) dropped. Most values need nothing, so the test comes before any copy. */
export function copyField(value: string): string {
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]!) : value
}

/** A batch as COPY text lines of crm_leads' columns (site, mailing, name, surname, phones, data). */
export function copyLines(batch: LeadValues[], target: Target): string {
  const prefix = `${target.siteId}\t${target.mailingId}\t`
  let text = ''
  for (const lead of batch) {
    text += `${prefix}${copyField(lead.name)}\t${copyField(lead.surname)}\t${copyField(lead.phones)}\t${copyField(lead.data)}\n`
  }
  return text
}

/** Resolves when the stream takes writes again, or will never (closed, failed); its listeners go with it. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done)
      stream.off('close', done)
      stream.off('error', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('close', done)
    stream.on('error', done)
  })
}

async function postgresWriter(pool: PgPool, target: Target): Promise<LeadWriter> {
  const connection = await pool.connect()
  let open = true
  let failure: Error | null = null
  const close = (error?: Error | boolean) => {
    if (!open) return false
    open = false
    connection.release(error)
    return true
  }
  let copy: Writable
  try {
    await connection.query('BEGIN')
    // The GIN (trigram) indexes of crm_leads take new rows into their pending list and merge it in work_mem-sized
    // runs: a larger one for this transaction only makes fewer, larger merges.
    await connection.query("SET LOCAL work_mem = '64MB'")
    copy = connection.query(copyFrom(COPY_LEADS))
  } catch (error) {
    close(true)
    throw error
  }
  // The server's refusal (a bad value, a lost connection) arrives as an error event; the next write or commit throws it.
  copy.on('error', (error: Error) => {
    failure ??= error
  })
  let count = 0
  return {
    async write(batch) {
      if (failure) throw failure
      if (!copy.write(copyLines(batch, target))) {
        await drained(copy)
        if (failure) throw failure
      }
      count += batch.length
    },
    async commit() {
      if (failure) throw failure
      const done = new Promise<void>((resolve, reject) => {
        copy.once('finish', resolve)
        copy.once('error', reject)
      })
      copy.end()
      await done
      try {
        await connection.query('COMMIT')
      } catch (error) {
        // A connection whose transaction state is unknown is not given back to the pool.
        close(true)
        throw error
      }
      close()
      return count
    },
    async abort() {
      if (!open) return
      try {
        // After the server's own error the COPY is over (and the stream has let go of the connection).
        if (!failure && !copy.writableFinished && !copy.destroyed) {
          // CopyFail: the server ends the COPY with an error, which is the answer awaited here.
          await new Promise<void>((resolve) => {
            copy.once('close', resolve)
            copy.destroy(new Error('lead import aborted'))
          })
        }
        await connection.query('ROLLBACK')
        close()
      } catch {
        close(true)
      }
    },
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
