import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { pabxDevices, users } from '../../../server/db/schema/index.ts'
import { TestClient } from '../helper.ts'
import { multipart, useEntitySuite } from './entity-helper.ts'
import { PNG, WAV } from './valid-body.ts'

// Rules beyond the generic cases: protected references, datatable rows, two-sided m2m, secrets, uploads, the
// write semantics of PUT and PATCH, and what an administrator may not do to themselves.
const s = useEntitySuite()

async function created(path: string, body: unknown) {
  const response = await s.admin.client.post(path, body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

async function soundEntry(description: string) {
  const folder = await created('/api/v1/pabx/sounds/', { description: `Pasta ${description}` })
  const { payload, headers } = multipart({ description, sound: folder.id }, { file: { name: 'a.wav', type: 'audio/wav', data: WAV } })
  const response = await s.admin.client.request('POST', '/api/v1/pabx/sounds-entries/', { payload, headers })
  expect(response.statusCode, response.body).toBe(201)
  return { folder: folder.id as number, entry: response.json() }
}

describe('protected references', () => {
  it('refuse deleting a queue an inbound route sends calls to, naming the route, and keep the queue', async () => {
    const queue = await created('/api/v1/pabx/queues/', { description: 'Fila protegida' })
    await created('/api/v1/pabx/inbound-routes/', { description: 'Rota da fila', destination: { app: 'queue', appdata: queue.id } })
    const refused = await s.admin.client.delete(`/api/v1/pabx/queues/${queue.id}/`, { headers: { 'accept-language': 'en-US' } })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ detail: 'Cannot delete: the record is in use in Inbound routes: Rota da fila.' })
    expect((await s.admin.client.get(`/api/v1/pabx/queues/${queue.id}/`)).statusCode).toBe(200)
  })

  it('look through rows deleted in cascade: a sound folder whose prompt an IVR option plays stays', async () => {
    const { folder, entry } = await soundEntry('Opção')
    const greeting = await soundEntry('Saudação')
    await created('/api/v1/pabx/ivrs/', {
      description: 'URA protegida',
      greeting: greeting.entry.id,
      options: [{ digit: '1', audio: entry.id, destination: { app: 'hangup' } }],
    })
    const refused = await s.admin.client.delete(`/api/v1/pabx/sounds/${folder}/`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().detail).toContain('URA protegida')
    expect((await s.admin.client.get(`/api/v1/pabx/sounds-entries/${entry.id}/`)).statusCode).toBe(200)
  })

  it('let a row go once nothing points at it, clearing optional references to it', async () => {
    const moh = await created('/api/v1/pabx/moh/', { description: 'Música livre' })
    const queue = await created('/api/v1/pabx/queues/', { description: 'Fila com música', moh: moh.id })
    expect((await s.admin.client.delete(`/api/v1/pabx/moh/${moh.id}/`)).statusCode).toBe(204)
    expect((await s.admin.client.get(`/api/v1/pabx/queues/${queue.id}/`)).json()).toMatchObject({ moh: null, moh_description: null })
  })
})

describe('datatable rows and m2m', () => {
  it('store rows in order with their references, and flag a repeated key on the repeating row', async () => {
    const repeated = await s.admin.client.post('/api/v1/pabx/ivrs/', {
      description: 'URA repetida',
      greeting: (await soundEntry('Boas-vindas')).entry.id,
      options: [
        { digit: '1', destination: { app: 'hangup' } },
        { digit: '1', destination: { app: 'number', appdata: '5511999998888' } },
      ],
    })
    expect(repeated.statusCode).toBe(400)
    expect(Object.keys(repeated.json())).toEqual(['options.1.digit'])
    const queue = await created('/api/v1/pabx/queues/', { description: 'Fila com agentes', members: [{ user: 4, penalty: 2 }, { user: 3 }] })
    expect(queue.members).toEqual([
      { user: 4, user_description: 'agent2', penalty: 2 },
      { user: 3, user_description: 'agent1', penalty: 0 },
    ])
  })

  it('edit a two-sided m2m from either side (team outbound routes ↔ route teams)', async () => {
    const team = await created('/api/v1/service/teams/', { name: 'Equipe m2m' })
    const route = await created('/api/v1/pabx/outbound-routes/', { description: 'Rota m2m', dial_patterns: 'NXXXXXXX', teams: [team.id] })
    expect((await s.admin.client.get(`/api/v1/service/teams/${team.id}/`)).json()).toMatchObject({
      outbound_routes: [route.id],
      outbound_routes_description: ['Rota m2m'],
    })
    await s.admin.client.patch(`/api/v1/service/teams/${team.id}/`, { outbound_routes: [] })
    expect((await s.admin.client.get(`/api/v1/pabx/outbound-routes/${route.id}/`)).json().teams).toEqual([])
  })
})

describe('write semantics', () => {
  it('PUT replaces the record (absent fields become empty or their default); PATCH changes only what it sends', async () => {
    const product = await created('/api/v1/crm/products/', { description: 'Produto', code: 'P-1', price: '10,50', details: 'Detalhes' })
    expect(product.price).toBe(10.5)
    const patched = (await s.admin.client.patch(`/api/v1/crm/products/${product.id}/`, { price: 12 })).json()
    expect(patched).toMatchObject({ code: 'P-1', details: 'Detalhes', price: 12 })
    const replaced = (await s.admin.client.put(`/api/v1/crm/products/${product.id}/`, { description: 'Produto novo' })).json()
    expect(replaced).toMatchObject({ description: 'Produto novo', code: '', details: '', price: null, is_active: true })
  })

  it('answers a repeated unique value as a field error in the request language, never a 500', async () => {
    await created('/api/v1/crm/tags/', { description: 'Única' })
    const again = await s.admin.client.post('/api/v1/crm/tags/', { description: 'Única' }, { headers: { 'accept-language': 'es-ES' } })
    expect(again.statusCode).toBe(400)
    expect(again.json()).toEqual({ description: ['Ya existe un registro con este valor.'] })
  })
})

describe('secrets', () => {
  it('keep SIP secrets write-only: HA1 = md5(username:realm:secret), kept by an update without one', async () => {
    const device = await created('/api/v1/pabx/devices/', { description: 'Ramal HA1', username: '10901', secret: 'segredo-sip-1' })
    expect(device).not.toHaveProperty('secret')
    const md5 = (text: string) => createHash('md5').update(text).digest('hex')
    const stored = async () => (await s.t.database.db.select().from(pabxDevices).where(eq(pabxDevices.id, device.id)))[0]!
    expect(await stored()).toMatchObject({ secret: 'segredo-sip-1', secretHa1: md5('10901:localhost:segredo-sip-1') })
    await s.admin.client.put(`/api/v1/pabx/devices/${device.id}/`, { description: 'Ramal HA1', username: '10902', secret: '' })
    expect(await stored()).toMatchObject({ secret: 'segredo-sip-1', secretHa1: md5('10902:localhost:segredo-sip-1') })
  })

  it("give a user's webphone profile the credentials of the device assigned to them", async () => {
    const device = await created('/api/v1/pabx/devices/', { description: 'Ramal do agente', username: '10903', secret: 'segredo-sip-3' })
    await s.admin.client.patch('/api/v1/business/users/3/', { device: device.id })
    const agent = new TestClient(s.t.app)
    await agent.login('agent1', 'ramal1001')
    expect((await agent.get('/api/v1/business/profile/')).json().voip).toMatchObject({ endpoint: '10903', password: 'segredo-sip-3', realm: 'localhost' })
    await s.admin.client.patch(`/api/v1/pabx/devices/${device.id}/`, { secret: 'segredo-sip-4' })
    expect((await agent.get('/api/v1/business/profile/')).json().voip.password).toBe('segredo-sip-4')
  })

  it('hash user passwords (argon2id) under the password policy; the new password signs in', async () => {
    const weak = await s.admin.client.post('/api/v1/business/users/', { username: 'novato', password: 'novato12' })
    expect(weak.statusCode).toBe(400)
    expect(weak.json()).toHaveProperty('password')
    const user = await created('/api/v1/business/users/', { username: 'novato', password: 'caminho2030', groups: [3] })
    expect(user).not.toHaveProperty('password')
    const [row] = await s.t.database.db
      .select({ password: users.password })
      .from(users)
      .where(and(eq(users.id, user.id)))
    expect(row!.password).toMatch(/^\$argon2id\$/)
    expect((await new TestClient(s.t.app).login('novato', 'caminho2030')).statusCode).toBe(200)
  })
})

describe('uploads', () => {
  it('refuse a file whose bytes are not an accepted type, whatever its name and Content-Type say', async () => {
    const folder = await created('/api/v1/pabx/sounds/', { description: 'Pasta falsa' })
    const fake = multipart({ description: 'Falso', sound: folder.id }, { file: { name: 'prompt.wav', type: 'audio/wav', data: PNG } })
    const response = await s.admin.client.request('POST', '/api/v1/pabx/sounds-entries/', fake)
    expect(response.statusCode).toBe(400)
    expect(response.json().file[0]).toMatch(/wav, mp3, ogg/)
    expect((await s.admin.client.get(`/api/v1/pabx/sounds-entries/?sound=${folder.id}`)).json().count).toBe(0)
  })

  it('serve stored files as attachments with nosniff under random names, and drop a replaced file', async () => {
    const { entry } = await soundEntry('Servido')
    expect(entry.file).toMatch(/^\/media\/pabx-sounds-entries\/[a-f0-9]{32}\.wav$/)
    const served = await s.t.app.inject({ method: 'GET', url: entry.file })
    expect(served.statusCode).toBe(200)
    expect(served.headers).toMatchObject({ 'content-type': 'audio/wav', 'x-content-type-options': 'nosniff' })
    expect(served.headers['content-disposition']).toMatch(/^attachment/)
    const replacement = multipart({ description: 'Servido', sound: entry.sound }, { file: { name: 'b.wav', type: 'audio/wav', data: WAV } })
    const replaced = await s.admin.client.request('PUT', `/api/v1/pabx/sounds-entries/${entry.id}/`, replacement)
    expect(replaced.json().file).not.toBe(entry.file)
    expect((await s.t.app.inject({ method: 'GET', url: entry.file })).statusCode).toBe(404)
    expect((await s.t.app.inject({ method: 'GET', url: '/media/pabx-sounds-entries/..%2F..%2Fpgdata' })).statusCode).toBe(404)
  })

  it("refuse a file over its type's size limit, on its field", async () => {
    const channel = await created('/api/v1/chat/channels/', { description: 'Widget grande', type: 'webchat', widget_title: 'Oi' })
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)])
    const response = await s.admin.client.request(
      'PATCH',
      `/api/v1/chat/channels/${channel.id}/`,
      multipart({}, { widget_logo: { name: 'l.png', type: 'image/png', data: big } }),
    )
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ widget_logo: ['O arquivo é maior do que o permitido (2 MB).'] })
    expect((await s.admin.client.get(`/api/v1/chat/channels/${channel.id}/`)).json().widget_logo).toBeNull()
  })

  it('remove an optional file when the body sends null', async () => {
    const channel = await created('/api/v1/chat/channels/', { description: 'Widget', type: 'webchat', widget_title: 'Oi' })
    const logo = multipart({ ...channel, widget_logo: undefined }, { widget_logo: { name: 'l.png', type: 'image/png', data: PNG } })
    const withLogo = (await s.admin.client.request('PUT', `/api/v1/chat/channels/${channel.id}/`, logo)).json()
    expect(withLogo.widget_logo).toMatch(/\.png$/)
    const without = (await s.admin.client.patch(`/api/v1/chat/channels/${channel.id}/`, { widget_logo: null })).json()
    expect(without.widget_logo).toBeNull()
  })
})

describe('the caller and their groups', () => {
  it('cannot delete or deactivate themselves', async () => {
    expect((await s.admin.client.delete('/api/v1/business/users/1/')).statusCode).toBe(400)
    expect((await s.admin.client.patch('/api/v1/business/users/1/', { is_active: false })).statusCode).toBe(400)
  })

  it('only grant codenames that exist, and an inactive group grants none', async () => {
    const unknown = await s.admin.client.post('/api/v1/business/groups/', { name: 'Inventado', permissions: ['pabx.view_queue', 'pabx.fly'] })
    expect(unknown.statusCode).toBe(400)
    const group = await created('/api/v1/business/groups/', { name: 'Filas', permissions: ['pabx.view_queue'] })
    await created('/api/v1/business/users/', { username: 'filas', password: 'rotas2030x', groups: [group.id] })
    const member = new TestClient(s.t.app)
    await member.login('filas', 'rotas2030x')
    expect((await member.get('/api/v1/pabx/queues/')).statusCode).toBe(200)
    await s.admin.client.patch(`/api/v1/business/groups/${group.id}/`, { is_active: false })
    expect((await member.get('/api/v1/pabx/queues/')).statusCode).toBe(403)
  })
})
