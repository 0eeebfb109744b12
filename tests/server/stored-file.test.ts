import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendStoredFile } from '../../server/http/files.ts'

// The one way a stored file (avatar, settings upload, recording) leaves the server: server/http/files.ts.
const app = Fastify({ logger: false })
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'atende-stored-'))
  await writeFile(path.join(dir, 'a.png'), 'not really a png')
  app.get('/attachment', (_request, reply) => sendStoredFile(reply, path.join(dir, 'a.png'), { type: 'image/png', filename: 'a.png', immutable: true }))
  app.get('/inline', (_request, reply) => sendStoredFile(reply, path.join(dir, 'a.png'), { type: 'audio/mpeg', filename: 'c.mp3', disposition: 'inline' }))
})

afterAll(async () => {
  await app.close()
  await rm(dir, { recursive: true, force: true })
})

describe('sendStoredFile', () => {
  it('streams the file as an attachment with its own type, nosniff, a sandboxing CSP and a year of cache', async () => {
    const response = await app.inject('/attachment')
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe('not really a png')
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'attachment; filename="a.png"',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'public, max-age=31536000, immutable',
    })
  })

  it('plays inline when asked, and leaves caching to the app when the name is not immutable', async () => {
    const response = await app.inject('/inline')
    expect(response.headers).toMatchObject({
      'content-type': 'audio/mpeg',
      'content-disposition': 'inline; filename="c.mp3"',
      'content-security-policy': "default-src 'none'; sandbox",
    })
    expect(response.headers['cache-control']).toBeUndefined()
  })
})
