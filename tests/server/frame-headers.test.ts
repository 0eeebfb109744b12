import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { entityByKey } from '../../contract/entities/index.ts'
import { createSite } from '../../server/sites/site-repo.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'

// Clickjacking: the app's pages may be framed only by the app itself and by the origins its site allows for the
// embedding (spec 001 §7: business.sites `embed_origins`); API answers and media never.
const t = useTestApp()
const sites = entityByKey('business.sites')

beforeAll(async () => {
  await mkdir(t.config.spaDir, { recursive: true })
  await writeFile(path.join(t.config.spaDir, 'index.html'), '<!doctype html><title>Atende</title>')
  await createSite(t.database.db, { domain: 'outra.example', name: 'Outra' })
})

const page = (host = 'localhost') => new TestClient(t.app, { host }).get('/en-us/settings')

describe('frame-ancestors and X-Frame-Options', () => {
  it('let only the app frame its pages by default, and nothing frame the API', async () => {
    const html = await page()
    expect(html.headers['content-type']).toMatch(/^text\/html/)
    expect(html.headers['content-security-policy']).toBe("frame-ancestors 'self'")
    expect(html.headers['x-frame-options']).toBe('SAMEORIGIN')
    for (const url of ['/api/pre-session/', '/api/v1/business/site-settings/', '/api/v1/nothing-here/']) {
      const response = await new TestClient(t.app).get(url)
      expect(response.headers['content-security-policy'], url).toBe("frame-ancestors 'none'")
      expect(response.headers['x-frame-options'], url).toBe('DENY')
    }
  })

  it("follow the site's allow-list for the embedding, per site, and refuse what is not an origin", async () => {
    const admin = await signedIn(t.app, 'admin')
    const id = (await admin.get(sites.api)).json().results[0].id
    const bad = await admin.patch(`${sites.api}${id}/`, { embed_origins: 'https://crm.example.com/path, javascript:alert(1)' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toHaveProperty('embed_origins')
    const saved = await admin.patch(`${sites.api}${id}/`, { embed_origins: ['https://crm.example.com', 'http://intranet.example:8080'] })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json().embed_origins).toBe('https://crm.example.com,http://intranet.example:8080')

    const html = await page()
    expect(html.headers['content-security-policy']).toBe("frame-ancestors 'self' https://crm.example.com http://intranet.example:8080")
    // X-Frame-Options cannot name an origin: left out, so browsers follow frame-ancestors.
    expect(html.headers['x-frame-options']).toBeUndefined()
    // Another tenant keeps its own policy; the public site settings do not publish the list.
    expect((await page('outra.example')).headers['content-security-policy']).toBe("frame-ancestors 'self'")
    expect(JSON.stringify((await new TestClient(t.app).get('/api/v1/business/site-settings/')).json())).not.toContain('crm.example.com')
  })
})
