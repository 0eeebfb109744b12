import { describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import type { Profile } from '../../contract/api/profile.ts'
import { lazyQueryClient } from '../../src/app/lazyQueryClient.ts'
import { createQueryClient } from '../../src/app/queryClient.ts'
import { signedInSiteSettings } from '../../src/app/siteSettings.ts'

// The query cache is created by the first page that needs it (never by the sign-in page), and the theme, which sits
// above it, follows the signed-in user's site through the store that the cache keeps in step.

describe('lazyQueryClient', () => {
  it('creates the client once, on the first load, however many ask at the same time', async () => {
    const client = new QueryClient()
    const create = vi.fn(async () => client)
    const queries = lazyQueryClient(create)
    expect(queries.current()).toBeUndefined()
    expect(create).not.toHaveBeenCalled()
    const [a, b] = await Promise.all([queries.load(), queries.load()])
    expect(a).toBe(client)
    expect(b).toBe(client)
    expect(await queries.load()).toBe(client)
    expect(queries.current()).toBe(client)
    expect(create).toHaveBeenCalledTimes(1)
  })

  it('asks again after a failed load (a chunk that did not arrive)', async () => {
    const client = new QueryClient()
    const create = vi.fn<() => Promise<QueryClient>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(client)
    const queries = lazyQueryClient(create)
    await expect(queries.load()).rejects.toThrow('offline')
    expect(queries.current()).toBeUndefined()
    expect(await queries.load()).toBe(client)
    expect(create).toHaveBeenCalledTimes(2)
  })

  it('takes an existing client as it is (tests)', async () => {
    const client = new QueryClient()
    const queries = lazyQueryClient(client)
    expect(queries.current()).toBe(client)
    expect(await queries.load()).toBe(client)
  })
})

describe('site settings of the signed-in user', () => {
  const profile = (primary: string) =>
    ({ id: 1, username: 'ada', site: { id: 1, domain: 'x', name: 'X', settings: { primary_color: primary } } }) as unknown as Profile

  it('follow the profile in the query cache: set, updated, and forgotten on logout or a lost session', () => {
    const client = createQueryClient()
    expect(signedInSiteSettings.get()).toBeUndefined()
    client.setQueryData(['profile'], profile('#112233'))
    expect(signedInSiteSettings.get()).toEqual({ primary_color: '#112233' })
    client.setQueryData(['profile'], profile('#445566'))
    expect(signedInSiteSettings.get()).toEqual({ primary_color: '#445566' })
    // Other queries leave them alone.
    client.setQueryData(['entities', 'x'], { results: [] })
    expect(signedInSiteSettings.get()).toEqual({ primary_color: '#445566' })
    client.removeQueries({ queryKey: ['profile'] })
    expect(signedInSiteSettings.get()).toBeUndefined()
    client.setQueryData(['profile'], profile('#778899'))
    client.clear()
    expect(signedInSiteSettings.get()).toBeUndefined()
  })

  it('start empty with a new cache', () => {
    const first = createQueryClient()
    first.setQueryData(['profile'], profile('#112233'))
    createQueryClient()
    expect(signedInSiteSettings.get()).toBeUndefined()
  })
})

describe('public site settings of the sign-in page', () => {
  it('are fetched once while fresh, again once stale, and a failure (after one retry) leaves the defaults', async () => {
    const { configureClient } = await import('../../src/api/client.ts')
    const { loadPublicSite, publicSite, PUBLIC_SITE_STALE_MS } = await import('../../src/app/siteSettings.ts')
    let fail = true
    const fetch = vi.fn(async () =>
      fail
        ? new Response('down', { status: 503 })
        : new Response(JSON.stringify({ id: 1, domain: 'x', name: 'Demo', settings: {} }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    )
    configureClient({ fetch: fetch as unknown as typeof globalThis.fetch })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    await loadPublicSite()
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(publicSite.get()).toBeUndefined()

    fail = false
    await Promise.all([loadPublicSite(), loadPublicSite()])
    expect(fetch).toHaveBeenCalledTimes(3)
    expect(publicSite.get()?.name).toBe('Demo')
    await loadPublicSite()
    expect(fetch).toHaveBeenCalledTimes(3)
    await loadPublicSite(Date.now() + PUBLIC_SITE_STALE_MS + 1)
    expect(fetch).toHaveBeenCalledTimes(4)
  })
})
