import { describe, expect, it } from 'vitest'
import type { TestClient } from '../helper.ts'
import { useEntitySuite } from '../entities/entity-helper.ts'

// Several files per interaction (issue 17 item 4): checked by their first bytes and size, stored under random names,
// listed on the interaction and on the client's timeline, downloaded as attachments with nosniff; each site its own.
const s = useEntitySuite()
const API = '/api/v1/crm/client-interactions/'
const FILES = (id: number) => `${API}${id}/attachments/`

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const HTML = Buffer.from('<html><script>alert(1)</script></html>')

type File = { name: string; type: string; data: Buffer }

function upload(client: TestClient, id: number, files: File[], field = 'file') {
  const boundary = '----atendeCrmFiles'
  const parts: Buffer[] = []
  for (const file of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return client.request('POST', FILES(id), { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
}

async function interaction(client = s.admin) {
  const type = await client.ensure('crm.interactions')
  const customer = await client.client.post('/api/v1/crm/clients/', { name: 'Cliente dos anexos' })
  const created = await client.client.post(API, {
    interaction: type,
    subject: 'Com anexos',
    client: customer.json().id,
    form_data: await answers(client, type),
  })
  expect(created.statusCode, created.body).toBe(201)
  return { id: created.json().id as number, client: customer.json().id as number }
}

/** The answers the ensured type's form requires (the valid body generator may have made one required). */
async function answers(client = s.admin, type: number) {
  const definition = (await client.client.get(`/api/v1/crm/interaction-types/${type}/`)).json().form_definition
  const data: Record<string, unknown> = {}
  for (const field of definition?.fields ?? []) if (field.required) data[field.name] = 'x'
  return data
}

describe('interaction files', () => {
  it('keeps several files, lists them on the interaction and the timeline, downloads them safely', async () => {
    const { id, client } = await interaction()
    const sent = await upload(s.admin.client, id, [
      { name: '../../etc/foto 1.png', type: 'text/plain', data: PNG },
      { name: 'contrato.pdf', type: 'image/png', data: PDF },
    ])
    expect(sent.statusCode, sent.body).toBe(201)
    expect(sent.json().results.map((f: { name: string; mime: string }) => [f.name, f.mime])).toEqual([
      ['foto 1.png', 'image/png'],
      ['contrato.pdf', 'application/pdf'],
    ])
    const more = await upload(s.admin.client, id, [{ name: 'segunda.pdf', type: 'application/pdf', data: PDF }])
    expect(more.statusCode).toBe(201)
    const listed = (await s.admin.client.get(FILES(id))).json().results
    expect(listed.map((f: { name: string }) => f.name)).toEqual(['foto 1.png', 'contrato.pdf', 'segunda.pdf'])

    const download = await s.admin.client.get(listed[1].url)
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toBe('application/pdf')
    expect(download.headers['x-content-type-options']).toBe('nosniff')
    expect(download.headers['content-disposition']).toBe('attachment; filename="contrato.pdf"')
    expect(download.rawPayload.equals(PDF)).toBe(true)

    const timeline = (await s.admin.client.get(`/api/v1/crm/clients/${client}/timeline/?channel=interaction`)).json()
    expect(timeline.results[0].data.attachments.map((f: { name: string; url: string }) => [f.name, f.url])).toEqual(
      listed.map((f: { name: string; url: string }) => [f.name, f.url]),
    )

    expect((await s.admin.client.delete(listed[0].url)).statusCode).toBe(204)
    expect((await s.admin.client.get(listed[0].url)).statusCode).toBe(404)
    expect((await s.admin.client.get(FILES(id))).json().results).toHaveLength(2)
    // The interaction's delete takes its files.
    expect((await s.admin.client.delete(`${API}${id}/`)).statusCode).toBe(204)
    expect((await s.admin.client.get(listed[1].url)).statusCode).toBe(404)
  })

  it('refuses bad uploads with 4xx and keeps nothing', async () => {
    const { id } = await interaction()
    const html = await upload(s.admin.client, id, [
      { name: 'ok.png', type: 'image/png', data: PNG },
      { name: 'page.png', type: 'image/png', data: HTML },
    ])
    expect(html.statusCode).toBe(400)
    expect(Object.keys(html.json())).toEqual(['file'])
    expect((await upload(s.admin.client, id, [{ name: 'vazio.pdf', type: 'application/pdf', data: Buffer.alloc(0) }])).statusCode).toBe(400)
    expect((await upload(s.admin.client, id, [{ name: 'x.pdf', type: 'application/pdf', data: PDF }], 'other')).statusCode).toBe(400)
    expect((await s.admin.client.post(FILES(id), { name: 'json' })).statusCode).toBe(415)
    const truncated = await s.admin.client.request('POST', FILES(id), {
      payload: Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-'),
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    })
    expect(truncated.statusCode).toBeGreaterThanOrEqual(400)
    expect(truncated.statusCode).toBeLessThan(500)
    const huge = await upload(s.admin.client, id, [{ name: 'grande.pdf', type: 'application/pdf', data: Buffer.concat([PDF, Buffer.alloc(26 * 1024 * 1024)]) }])
    expect(huge.statusCode).toBe(413)
    expect((await s.admin.client.get(FILES(id))).json().results).toEqual([])
    expect((await s.admin.client.get(`${FILES(id)}abc/`)).statusCode).toBe(404)
    expect((await s.admin.client.get(`${API}abc/attachments/`)).statusCode).toBe(404)
  })

  it('caps the files of one interaction', async () => {
    const { id } = await interaction()
    const ten = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.pdf`, type: 'application/pdf', data: PDF }))
    expect((await upload(s.admin.client, id, ten)).statusCode).toBe(201)
    expect((await upload(s.admin.client, id, ten)).statusCode).toBe(201)
    const over = await upload(s.admin.client, id, [ten[0]!])
    expect(over.statusCode).toBe(400)
    expect(over.json().file[0]).toContain('20')
  })

  it('keeps each site to its own files and asks for the interactions codenames', async () => {
    const { id } = await interaction()
    const [file] = (await upload(s.admin.client, id, [{ name: 'a.pdf', type: 'application/pdf', data: PDF }])).json().results
    expect((await s.otherSite.client.get(FILES(id))).statusCode).toBe(404)
    expect((await s.otherSite.client.get(file.url)).statusCode).toBe(404)
    expect((await upload(s.otherSite.client, id, [{ name: 'b.pdf', type: 'application/pdf', data: PDF }])).statusCode).toBe(404)
    expect((await s.otherSite.client.delete(file.url)).statusCode).toBe(404)
    // Another site's own interaction cannot reach site A's file by its id.
    const theirs = await interaction(s.otherSite)
    expect((await s.otherSite.client.get(`${FILES(theirs.id)}${file.id}/`)).statusCode).toBe(404)

    expect((await s.nobody.get(FILES(id))).statusCode).toBe(403)
    expect((await s.nobody.get(file.url)).statusCode).toBe(403)
    await s.restricted.grant(['crm.view_clientinteraction'])
    expect((await s.restricted.client.get(file.url)).statusCode).toBe(200)
    expect((await upload(s.restricted.client, id, [{ name: 'c.pdf', type: 'application/pdf', data: PDF }])).statusCode).toBe(403)
    expect((await s.restricted.client.delete(file.url)).statusCode).toBe(403)
    await s.restricted.grant(['crm.view_clientinteraction', 'crm.change_clientinteraction'])
    expect((await upload(s.restricted.client, id, [{ name: 'c.pdf', type: 'application/pdf', data: PDF }])).statusCode).toBe(201)
    expect((await s.admin.client.get(FILES(id))).json().results).toHaveLength(2)
  })
})
