import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { AVATAR_MAX_BYTES } from '../../contract/api/profile.ts'
import { TestClient, multipartFile, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()
const AVATAR = '/api/v1/business/profile/change-avatar/'

// A real 1×1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
)
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)])

function upload(client: TestClient, filename: string, type: string, data: Buffer, field = 'avatar') {
  const { payload, headers } = multipartFile(field, filename, type, data)
  return client.post(AVATAR, payload, { headers })
}

const avatarFiles = () => readdir(path.join(t.config.mediaDir, 'avatars')).catch(() => [] as string[])

describe('change-avatar', () => {
  it('stores a PNG under a random name and serves it with its type and nosniff', async () => {
    const client = await signedIn(t.app, 'agent1')
    const response = await upload(client, '../../evil name.png', 'image/png', PNG)
    expect(response.statusCode).toBe(200)
    const url: string = response.json().avatar
    expect(url).toMatch(/^\/media\/avatars\/[a-f0-9]{32}\.png$/)
    expect(await avatarFiles()).toContain(url.split('/').pop())

    const served = await new TestClient(t.app).get(url)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')
    expect(served.headers['x-content-type-options']).toBe('nosniff')
    expect(served.headers['content-disposition']).toMatch(/^attachment/)
    expect(served.rawPayload.equals(PNG)).toBe(true)
  })

  it('types the file by its bytes: a JPEG sent as .png is stored and served as JPEG', async () => {
    const client = await signedIn(t.app, 'agent2')
    const url: string = (await upload(client, 'photo.png', 'image/png', JPEG)).json().avatar
    expect(url).toMatch(/\.jpg$/)
    expect((await new TestClient(t.app).get(url)).headers['content-type']).toBe('image/jpeg')
  })

  it('refuses a text file renamed .png', async () => {
    const client = await signedIn(t.app, 'supervisor')
    const before = await avatarFiles()
    const response = await upload(client, 'notes.png', 'image/png', Buffer.from('<script>alert(1)</script>'))
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ avatar: ['Envie uma imagem válida (PNG, JPEG, GIF ou WebP).'] })
    expect(await avatarFiles()).toEqual(before)
    expect((await client.get('/api/v1/business/profile/')).json().avatar).toBeNull()
  })

  it('refuses a file larger than AVATAR_MAX_BYTES', async () => {
    const client = await signedIn(t.app, 'supervisor')
    const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)])
    const response = await upload(client, 'big.png', 'image/png', big)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ avatar: ['O arquivo é maior do que o permitido (2 MB).'] })
    expect((await client.get('/api/v1/business/profile/')).json().avatar).toBeNull()
  })

  it('refuses a request without the avatar field, and one that is not multipart', async () => {
    const client = await signedIn(t.app, 'supervisor')
    expect((await upload(client, 'a.png', 'image/png', PNG, 'picture')).json()).toEqual({ avatar: ['Este campo é obrigatório'] })
    const json = await client.post(AVATAR, { avatar: 'data:image/png;base64,AAAA' })
    expect(json.statusCode).toBe(415)
  })

  it('removes the previous file when a new avatar replaces it, and on DELETE', async () => {
    const client = await signedIn(t.app, 'admin')
    const first: string = (await upload(client, 'a.png', 'image/png', PNG)).json().avatar
    const second: string = (await upload(client, 'b.png', 'image/png', PNG)).json().avatar
    expect(second).not.toBe(first)
    expect((await new TestClient(t.app).get(first)).statusCode).toBe(404)
    expect(await avatarFiles()).not.toContain(first.split('/').pop())

    const removed = await client.delete(AVATAR)
    expect(removed.statusCode).toBe(200)
    expect(removed.json().avatar).toBeNull()
    expect((await new TestClient(t.app).get(second)).statusCode).toBe(404)
  })

  it('needs a signed-in user and the CSRF header', async () => {
    const { payload, headers } = multipartFile('avatar', 'a.png', 'image/png', PNG)
    expect((await new TestClient(t.app).post(AVATAR, payload, { headers })).statusCode).toBe(401)
    const client = await signedIn(t.app, 'agent1')
    expect((await client.post(AVATAR, payload, { headers, csrf: false })).statusCode).toBe(403)
  })

  it('serves nothing outside the avatar store', async () => {
    const client = new TestClient(t.app)
    for (const url of [
      '/media/avatars/..%2f..%2fetc%2fpasswd',
      '/media/avatars/../../package.json',
      `/media/avatars/${'a'.repeat(32)}.png`,
      '/media/avatars/x.svg',
    ]) {
      const response = await client.get(url)
      expect(response.statusCode).toBe(404)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
    }
  })
})
