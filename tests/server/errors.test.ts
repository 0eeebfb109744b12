import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { TestClient, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()
const INDEX = '<!doctype html><title>Atende SPA</title>'

beforeAll(async () => {
  await mkdir(path.join(t.config.spaDir, 'assets'), { recursive: true })
  await writeFile(path.join(t.config.spaDir, 'index.html'), INDEX)
  await writeFile(path.join(t.config.spaDir, 'assets', 'app-1234.js'), 'console.log(1)')
})

describe('DRF-shaped errors', () => {
  it('answers 404 {detail} for an unknown /api route, whatever the method', async () => {
    const client = new TestClient(t.app)
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await client.request(method, '/api/v1/does-not-exist/')
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ detail: 'Não encontrado.' })
    }
    expect((await client.get('/api/nope', { headers: { 'accept-language': 'en' } })).json()).toEqual({ detail: 'Not found.' })
  })

  it('answers 400 {detail} for malformed JSON', async () => {
    const client = new TestClient(t.app)
    const json = { 'content-type': 'application/json' }
    for (const body of ['{"username": ', '{"__proto__": {"x": 1}}', '{"a":1}}']) {
      const response = await client.post('/api/session/login/', body, { headers: json })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ detail: 'Requisição malformada.' })
    }
  })

  it('reads an empty JSON body as no body: field errors where one is needed, fine where none is', async () => {
    const client = new TestClient(t.app)
    const json = { 'content-type': 'application/json' }
    const login = await client.post('/api/session/login/', '', { headers: json })
    expect(login.statusCode).toBe(400)
    expect(login.json()).toEqual({ non_field_errors: ['Valor inválido'] })
    const agent = await signedIn(t.app, 'agent1')
    expect((await agent.post('/api/session/logout/', '', { headers: json })).statusCode).toBe(200)
  })

  it('answers 415 {detail} for an unsupported content type', async () => {
    const response = await new TestClient(t.app).post('/api/auth/login/', '<x/>', { headers: { 'content-type': 'application/xml' } })
    expect(response.statusCode).toBe(415)
    expect(response.json()).toEqual({ detail: 'Tipo de conteúdo não suportado.' })
  })

  it('answers 413 {detail} for an oversized body', async () => {
    const client = await signedIn(t.app, 'agent1')
    const response = await client.put('/api/v1/business/profile/', { first_name: 'x'.repeat(2 * 1024 * 1024) })
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ detail: 'A requisição é maior do que o permitido.' })
  })

  it('answers 403 {detail} for a missing codename', async () => {
    // Shown with a route added for the test: the demo agent lacks sites.view_reports.
    const app = await t.buildVariant({})
    app.get('/api/test/reports/', { config: { permission: 'sites.view_reports' } }, async () => ({ ok: true }))
    const agent = await signedIn(app, 'agent1')
    const response = await agent.get('/api/test/reports/')
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ detail: 'Você não tem permissão para executar essa ação.' })
  })
})

describe('SPA', () => {
  it('serves index.html for client-side routes and files from dist', async () => {
    const client = new TestClient(t.app)
    for (const url of ['/', '/login', '/en-us/settings/pabx/queues?x=1']) {
      const response = await client.get(url)
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.body).toBe(INDEX)
    }
    const asset = await client.get('/assets/app-1234.js')
    expect(asset.body).toBe('console.log(1)')
    expect(asset.headers['cache-control']).toMatch(/immutable/)
  })

  it('never answers index.html for /api, /ws or /media paths, nor outside dist', async () => {
    const client = new TestClient(t.app)
    for (const url of ['/api/unknown', '/ws/unknown', '/media/unknown.png']) {
      const response = await client.get(url)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ detail: 'Não encontrado.' })
    }
    const traversal = await client.get('/..%2f..%2fpackage.json')
    expect(traversal.body).not.toContain('"dependencies"')
  })
})
