import { describe, expect, it } from 'vitest'
import { useEntitySuite } from './entity-helper.ts'
import { cnpj, PNG } from './valid-body.ts'

// CSV imports: a preview that detects columns and suggests the mapping, then all rows or none.
const s = useEntitySuite()

function csvUpload(csv: string | Buffer, fields: Record<string, string> = {}) {
  const boundary = '----atendecsv'
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  const payload = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rows.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

const post = (path: string, csv: string | Buffer, fields?: Record<string, string>) => s.admin.client.request('POST', path, csvUpload(csv, fields))
const count = async (path: string) => (await s.admin.client.get(`${path}?limit=1`)).json().count as number

describe('CSV import', () => {
  it('previews columns, the first rows and a suggested mapping (names or labels, any language, ; or ,)', async () => {
    const csv = '\uFEFFDescrição;Telefones;Direction\r\nTrote;"5511987650000,5511987650001";both\r\n'
    const response = await post('/api/v1/service/blacklists/import/preview/', csv)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      columns: ['Descrição', 'Telefones', 'Direction'],
      rows: [['Trote', '5511987650000,5511987650001', 'both']],
      count: 1,
      mapping: { Descrição: 'description', Telefones: 'phones', Direction: 'direction' },
    })
  })

  it('writes nothing when any row fails, answering each bad row with its line and field', async () => {
    const before = await count('/api/v1/service/blacklists/')
    const csv = 'description,phones,direction\nBom,5511987650002,both\nSem número,,both\nRuim,123,sideways\n'
    const response = await post('/api/v1/service/blacklists/import/', csv)
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual([
      { row: 3, field: 'phones', messages: ['Este campo é obrigatório'] },
      { row: 4, field: 'phones', messages: [expect.stringContaining('123')] },
      { row: 4, field: 'direction', messages: ['Opção inválida'] },
    ])
    expect(await count('/api/v1/service/blacklists/')).toBe(before)
  })

  it('inserts every row of a good file in one go, with the mapping given, audited', async () => {
    const before = await count('/api/v1/service/blacklists/')
    const csv = 'Nome,Números,Ignorada\n"Lista, com vírgula","5511987650003,5521987650004",x\nOutra,5511987650005,y\n'
    const mapping = JSON.stringify({ Nome: 'description', Números: 'phones', Ignorada: null })
    const response = await post('/api/v1/service/blacklists/import/', csv, { mapping })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toEqual({ created: 2 })
    expect(await count('/api/v1/service/blacklists/')).toBe(before + 2)
    const list = (await s.admin.client.get('/api/v1/service/blacklists/?search=com%20v%C3%ADrgula')).json()
    expect(list.results[0]).toMatchObject({ description: 'Lista, com vírgula', phones: '5511987650003,5521987650004', direction: 'both' })
    const audit = (await s.admin.client.get(`/api/v1/system/audit-log/?entity=service.blacklists&object_id=${list.results[0].id}`)).json()
    expect(audit.results[0]).toMatchObject({ action: 'create', after: { imported: true } })
  })

  it('imports organizations and products, refusing documents and codes repeated in the file or already stored', async () => {
    const doc = cnpj()
    const good = await post('/api/v1/crm/organizations/import/', `description,document,city,state\nAlfa Ltda,${doc},Recife,PE\nBeta SA,,Natal,RN\n`)
    expect(good.json()).toEqual({ created: 2 })
    const clash = await post('/api/v1/crm/organizations/import/', `description,document\nGama,${doc}\nDelta,${cnpj()}\nÉpsilon,00.000.000/0000-00\n`)
    expect(clash.json().errors).toEqual([
      { row: 2, field: 'document', messages: ['Já existe um registro com este valor.'] },
      { row: 4, field: 'document', messages: ['CNPJ inválido'] },
    ])
    const products = await post('/api/v1/crm/products/import/', 'Description;Code;Price\nPlano A;PA;49,90\nPlano B;PA;59,90\n')
    expect(products.json().errors).toEqual([{ row: 3, field: 'code', messages: ['Já existe um registro com este valor.'] }])
    const fine = await post('/api/v1/crm/products/import/', 'Description;Code;Price\nPlano A;PA;49,90\n')
    expect(fine.json()).toEqual({ created: 1 })
    expect((await s.admin.client.get('/api/v1/crm/products/?code=PA')).json().results[0].price).toBe(49.9)
  })

  it('refuses what is not a CSV, unknown mapped columns, too many rows, and callers without the add codename', async () => {
    const binary = await post('/api/v1/crm/products/import/', PNG)
    expect(binary.statusCode).toBe(400)
    expect(binary.json()).toHaveProperty('file')
    const unknown = await post('/api/v1/crm/products/import/', 'description\nX\n', { mapping: JSON.stringify({ description: 'secret_field' }) })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json()).toHaveProperty('mapping')
    const huge = `description\n${'Linha\n'.repeat(50_001)}`
    const tooMany = await post('/api/v1/crm/products/import/', huge)
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json().file[0]).toContain('50000')
    expect((await s.nobody.request('POST', '/api/v1/crm/products/import/', csvUpload('description\nX\n'))).statusCode).toBe(403)
  })

  it('refuses a line past the cap as soon as it is read, without echoing it back', async () => {
    const oneLine = `description,${'x'.repeat(4 * 1024 * 1024)}`
    const response = await post('/api/v1/crm/products/import/preview/', oneLine)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ file: ['A linha 1 do arquivo é maior do que o permitido (65536 caracteres).'] })
    expect(response.body.length).toBeLessThan(200)
  })
})
