import { mkdir, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { precompressDir } from '../../server/spa-precompress.ts'
import { TestClient, useTestApp } from './helper.ts'

// The SPA goes out precompressed (brotli or gzip twins written at build) with immutable caching of hashed assets;
// index.html is revalidated on every visit.
const t = useTestApp({ seed: false })
const INDEX = `<!doctype html><title>Atende SPA</title>${'<meta name="x" content="padding so the page compresses">'.repeat(40)}`
const APP = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `palavra ${i % 37}`))};\n`
const TINY = 'console.log(1)'

beforeAll(async () => {
  const assets = path.join(t.config.spaDir, 'assets')
  await mkdir(assets, { recursive: true })
  await writeFile(path.join(t.config.spaDir, 'index.html'), INDEX)
  await writeFile(path.join(assets, 'app-Ab12Cd34.js'), APP)
  await writeFile(path.join(assets, 'tiny-Zz99Yy88.js'), TINY)
  await precompressDir(t.config.spaDir)
})

describe('precompressDir', () => {
  it('writes .br and .gz twins that decompress to the file, and none for files too small to gain', async () => {
    const files = await readdir(path.join(t.config.spaDir, 'assets'))
    expect(files.sort()).toEqual(['app-Ab12Cd34.js', 'app-Ab12Cd34.js.br', 'app-Ab12Cd34.js.gz', 'tiny-Zz99Yy88.js'])
  })
})

describe('serving the SPA', () => {
  const client = () => new TestClient(t.app)
  const raw = (url: string, encoding?: string) => t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} })

  it('sends the brotli twin when the browser accepts br, gzip when only gzip, the file itself otherwise', async () => {
    const br = await raw('/assets/app-Ab12Cd34.js', 'gzip, deflate, br, zstd')
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(APP)
    expect(br.rawPayload.length).toBeLessThan(APP.length / 3)

    const gz = await raw('/assets/app-Ab12Cd34.js', 'gzip')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(APP)

    const plain = await raw('/assets/app-Ab12Cd34.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(APP)
  })

  it('caches hashed assets for a year as immutable, compressed or not', async () => {
    for (const [url, encoding] of [
      ['/assets/app-Ab12Cd34.js', 'br'],
      ['/assets/tiny-Zz99Yy88.js', 'br'],
      ['/assets/app-Ab12Cd34.js', undefined],
    ] as const) {
      const response = await raw(url, encoding)
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
    // A file without a twin goes out as it is even when the browser asks for br.
    const tiny = await raw('/assets/tiny-Zz99Yy88.js', 'br')
    expect(tiny.headers['content-encoding']).toBeUndefined()
    expect(tiny.body).toBe(TINY)
  })

  it('sends index.html compressed with no-cache, for the root and for client-side routes', async () => {
    for (const url of ['/', '/login', '/en-us/settings/pabx/queues?x=1']) {
      const response = await client().get(url, { headers: { 'accept-encoding': 'br' } })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.headers['content-encoding']).toBe('br')
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(INDEX)
    }
  })
})
