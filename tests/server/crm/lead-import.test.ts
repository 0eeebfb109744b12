import { mkdir, writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import { crmLeadImports, crmLeads } from '../../../server/db/schema/index.ts'
import { startImportRunner } from '../../../server/crm/lead-import/runner.ts'
import { importsDir, uploadFile } from '../../../server/crm/lead-import/store.ts'
import { copyField, openLeadWriter } from '../../../server/crm/lead-import/writer.ts'
import type { LeadValues } from '../../../server/crm/lead-import/rows.ts'
import type { TestClient } from '../helper.ts'
import { useEntitySuite } from '../entities/entity-helper.ts'
import { PNG } from '../entities/valid-body.ts'

// CSV imports of leads into a mailing by a saved layout (issue 17): a durable job per upload, progress polled,
// bad rows skipped and listed in an error file, and nothing kept of a file that fails.
const s = useEntitySuite()
const IMPORTS = '/api/v1/crm/lead-imports/'

function upload(csv: string | Buffer, fields: Record<string, string>) {
  const boundary = '----atendeleads'
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  const payload = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leads.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

async function mailingAndLayout(client: TestClient, layout: Record<string, string> = {}) {
  const mailing = await client.post('/api/v1/crm/mailings/', { description: `Campanha ${Math.random()}` })
  expect(mailing.statusCode, mailing.body).toBe(201)
  const saved = await client.post('/api/v1/service/shipments-layouts/', {
    description: `Layout ${Math.random()}`,
    name_column: 'Nome',
    surname_column: 'Sobrenome',
    phone_columns: 'Celular;Fixo',
    ...layout,
  })
  expect(saved.statusCode, saved.body).toBe(201)
  return { mailing: String(mailing.json().id), layout: String(saved.json().id) }
}

/** Polls the import as the page does until it ends. */
async function finished(client: TestClient, id: number) {
  for (;;) {
    const body = (await client.get(`${IMPORTS}${id}/`)).json()
    if (body.status === 'done' || body.status === 'failed') return body
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const leadsOf = async (mailing: string) =>
  (await s.t.database.db.select().from(crmLeads).where(eq(crmLeads.mailingId, Number(mailing))).orderBy(crmLeads.id))

function rows(n: number, from = 0): string {
  let out = ''
  for (let i = from; i < from + n; i++) out += `Cliente ${i};Silva;(11) 9${String(8000_0000 + i).padStart(8, '0')};;cidade ${i}\n`
  return out
}

describe('lead import', () => {
  it('imports a good file into the mailing by the layout, keeping the other columns, with progress to 1', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const csv = '\uFEFFNome;Sobrenome;Celular;Fixo;Cidade\r\nAna;Souza;11 98765-4321;(11) 3322-1100;Recife\r\n"Bruno, o Grande";;+55 21 8765-4321;;Natal\r\n'
    const response = await s.admin.client.request('POST', IMPORTS, upload(csv, ids))
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toMatchObject({ status: 'queued', rows_imported: 0, file_name: 'leads.csv' })
    const done = await finished(s.admin.client, response.json().id)
    expect(done).toMatchObject({ status: 'done', rows_read: 2, rows_imported: 2, rows_failed: 0, progress: 1, error: null })
    const leads = await leadsOf(ids.mailing)
    expect(leads.map((l) => [l.name, l.surname, l.phones, l.data, l.status])).toEqual([
      ['Ana', 'Souza', '+5511987654321;+551133221100', { Cidade: 'Recife' }, 'pending'],
      // Brazil's ninth digit folded in by contract/phone.ts.
      ['Bruno, o Grande', '', '+5521987654321', { Cidade: 'Natal' }, 'pending'],
    ])
    const list = await s.admin.client.get(`/api/v1/crm/leads/?mailing=${ids.mailing}`)
    expect(list.json().count).toBe(2)
    expect((await s.admin.client.get(`${IMPORTS}${done.id}/errors/`)).statusCode).toBe(404)
  })

  it('skips bad rows (missing name, bad or missing phone) and lists them in a downloadable CSV', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const csv = 'nome,sobrenome,celular,fixo\nAna,Souza,11987654321,\n,Sem nome,11987654322,\nCarla,Lima,123,\nDavi,Reis,,\n'
    const response = await s.admin.client.request('POST', IMPORTS, upload(csv, ids))
    const done = await finished(s.admin.client, response.json().id)
    expect(done).toMatchObject({ status: 'done', rows_read: 4, rows_imported: 1, rows_failed: 3 })
    expect((await leadsOf(ids.mailing)).map((l) => l.name)).toEqual(['Ana'])
    const errors = await s.admin.client.get(`${IMPORTS}${done.id}/errors/`)
    expect(errors.statusCode).toBe(200)
    expect(errors.headers['content-type']).toContain('text/csv')
    expect(errors.headers['content-disposition']).toContain('attachment')
    expect(errors.body.replace(/^\uFEFF/, '').trim().split('\n')).toEqual([
      'linha;campo;mensagem;nome;sobrenome;celular;fixo',
      '3;name;Este campo é obrigatório;;Sem nome;11987654322;',
      '4;phones;Telefone inválido: 123;Carla;Lima;123;',
      '5;phones;Este campo é obrigatório;Davi;Reis;;',
    ])
  })

  it('keeps nothing of a file that fails mid-way (after whole batches were written)', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    // 12,000 good rows (more than two batches), then a quote that never closes.
    const csv = `Nome;Sobrenome;Celular;Fixo;Cidade\n${rows(12_000)}Fim;"aberta;11987654321;;x\n`
    const response = await s.admin.client.request('POST', IMPORTS, upload(csv, ids))
    expect(response.statusCode, response.body).toBe(202)
    const done = await finished(s.admin.client, response.json().id)
    expect(done.status).toBe('failed')
    expect(done.rows_imported).toBe(0)
    expect(done.error).toContain('CSV')
    expect(await leadsOf(ids.mailing)).toEqual([])
  })

  it('fails a file whose header lacks a column the layout names, in the caller language', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const response = await s.admin.client.request('POST', `${IMPORTS}`, { ...upload('Nome;Telefone\nAna;11987654321\n', ids), headers: { ...upload('', {}).headers, 'accept-language': 'en-US' } })
    expect(response.statusCode, response.body).toBe(202)
    const done = await finished(s.admin.client, response.json().id)
    expect(done).toMatchObject({ status: 'failed', error: 'Unknown column: Sobrenome.' })
  })

  it('takes again an import whose process died (a restart), importing it once', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const db = s.t.database.db
    await mkdir(importsDir(s.t.config.dataDir), { recursive: true })
    const stored = 'f'.repeat(32) + '.csv'
    await writeFile(uploadFile(s.t.config.dataDir, stored), 'Nome;Celular\nZé;11987650001\nIvo;11987650002\n')
    const siteId = (await resolveSite(db, 'localhost'))!.id
    // A job a crashed instance left running: its heartbeat stopped long ago.
    const [job] = await db
      .insert(crmLeadImports)
      .values({
        siteId,
        mailingId: Number(ids.mailing),
        layout: { name: 'nome', surname: '', phones: ['celular'] },
        storedName: stored,
        status: 'running',
        attempts: 1,
        totalBytes: 10,
        heartbeatAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning()
    const runner = startImportRunner(db, s.t.config.dataDir, { error: () => {} }, { staleMs: 60_000 })
    try {
      const done = await finished(s.admin.client, job!.id)
      expect(done).toMatchObject({ status: 'done', rows_imported: 2 })
    } finally {
      await runner.stop()
    }
    expect((await leadsOf(ids.mailing)).map((l) => l.phones)).toEqual(['+5511987650001', '+5511987650002'])
    const [row] = await db.select().from(crmLeadImports).where(and(eq(crmLeadImports.id, job!.id)))
    expect(row!.attempts).toBe(2)
  })

  it('refuses what is not a CSV, a mailing or layout of another site, and callers without sites.add_mailingclient', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const binary = await s.admin.client.request('POST', IMPORTS, upload(PNG, ids))
    expect(binary.statusCode).toBe(400)
    expect(binary.json()).toHaveProperty('file')
    const theirs = await mailingAndLayout(s.otherSite.client)
    const foreignMailing = await s.admin.client.request('POST', IMPORTS, upload('Nome;Celular\nA;11987654321\n', { ...ids, mailing: theirs.mailing }))
    expect(foreignMailing.statusCode).toBe(400)
    expect(foreignMailing.json()).toHaveProperty('mailing')
    const foreignLayout = await s.admin.client.request('POST', IMPORTS, upload('Nome;Celular\nA;11987654321\n', { ...ids, layout: theirs.layout }))
    expect(foreignLayout.json()).toHaveProperty('layout')
    const noFields = await s.admin.client.request('POST', IMPORTS, upload('Nome;Celular\n', {}))
    expect(noFields.statusCode).toBe(400)
    expect((await s.nobody.request('POST', IMPORTS, upload('Nome;Celular\n', ids))).statusCode).toBe(403)
    expect((await s.nobody.get(IMPORTS)).statusCode).toBe(403)
    await s.restricted.grant(['sites.view_mailingclient'])
    expect((await s.restricted.client.request('POST', IMPORTS, upload('Nome;Celular\n', ids))).statusCode).toBe(403)
  })

  it("shows a site only its own imports: another site's id is 404", async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const response = await s.admin.client.request('POST', IMPORTS, upload('Nome;Celular\nA;11987654321\n', ids))
    const id = response.json().id
    await finished(s.admin.client, id)
    expect((await s.otherSite.client.get(`${IMPORTS}${id}/`)).statusCode).toBe(404)
    expect((await s.otherSite.client.get(`${IMPORTS}${id}/errors/`)).statusCode).toBe(404)
    expect((await s.otherSite.client.get(IMPORTS)).json().results.map((r: { id: number }) => r.id)).not.toContain(id)
    expect((await s.admin.client.get(IMPORTS)).json().results.map((r: { id: number }) => r.id)).toContain(id)
  })

  // On PostgreSQL the leads go through one COPY … FROM STDIN (writer.ts); on PGlite through a temporary table. The same
  // values must arrive either way, whatever the CSV held.
  it('stores tabs, newlines, backslashes, quotes and any unicode of the CSV exactly', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const odd = ['tab\there', 'line\nbreak', 'cr\r\nlf', 'back\\slash \\N \\t', 'say "hi"', 'José Ñandú 日本 🙂', '\\', '']
    const cell = (v: string) => `"${v.replace(/"/g, '""')}"`
    let csv = 'Nome;Sobrenome;Celular;Fixo;Nota\n'
    odd.forEach((v, i) => (csv += `${cell(`N${i} ${v}`)};${cell(v)};1198765${String(4000 + i)};;${cell(v)}\n`))
    const response = await s.admin.client.request('POST', IMPORTS, upload(csv, ids))
    const done = await finished(s.admin.client, response.json().id)
    expect(done, done.error).toMatchObject({ status: 'done', rows_imported: odd.length, rows_failed: 0 })
    const leads = await leadsOf(ids.mailing)
    expect(leads.map((l) => [l.name, l.surname, l.data])).toEqual(
      odd.map((v, i) => [`N${i} ${v}`.trim(), v.trim(), v ? { Nota: v } : {}]),
    )
  })

  it('keeps nothing when a row is refused by the database after earlier batches went in', async () => {
    const ids = await mailingAndLayout(s.admin.client)
    const siteId = (await resolveSite(s.t.database.db, 'localhost'))!.id
    const lead = (i: number): LeadValues => ({ name: `L${i}`, surname: '', phones: `+55119876${String(50000 + i)}`, data: '{}' })
    const writer = await openLeadWriter(s.t.database.db, { siteId, mailingId: Number(ids.mailing), importId: 999_001 })
    await writer.write(Array.from({ length: 3000 }, (_, i) => lead(i)))
    await writer.write(Array.from({ length: 3000 }, (_, i) => lead(3000 + i)))
    // data that is not JSON: the row the database refuses, in the last batch.
    await expect(
      (async () => {
        await writer.write([lead(6000), { ...lead(6001), data: '{not json' }])
        await writer.commit()
      })(),
    ).rejects.toThrow()
    await writer.abort()
    expect(await leadsOf(ids.mailing)).toEqual([])
    // The server is fine afterwards: the next import goes in.
    const again = await openLeadWriter(s.t.database.db, { siteId, mailingId: Number(ids.mailing), importId: 999_002 })
    await again.write([lead(1)])
    expect(await again.commit()).toBe(1)
    expect((await leadsOf(ids.mailing)).map((l) => l.name)).toEqual(['L1'])
  })

  it('escapes COPY text fields', () => {
    expect(copyField('plain é 🙂')).toBe('plain é 🙂')
    expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e')
    expect(copyField('\\N')).toBe('\\\\N')
    expect(copyField('nul\0byte')).toBe('nulbyte')
  })
})
