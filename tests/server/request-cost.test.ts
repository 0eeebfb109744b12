import { describe, expect, it, vi } from 'vitest'
import { signedIn, useTestApp } from './helper.ts'

// What a signed-in request costs the database once the instance knows its Host, credential and user (auth-cache.ts):
// the hot reads of every agent's screen make exactly one round trip each, and the pre-session none.
const t = useTestApp()

/** Counts the statements sent through the database handle (PGlite's or the pg pool's `query`) while `run` runs. */
async function queriesOf(run: () => Promise<unknown>): Promise<number> {
  const client = (t.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client
  const spy = vi.spyOn(client, 'query')
  try {
    await run()
    return spy.mock.calls.length
  } finally {
    spy.mockRestore()
  }
}

describe('queries per request', () => {
  it('the profile and the pause check read once, the pre-session not at all', async () => {
    const client = await signedIn(t.app, 'agent1')
    const get = async (url: string) => {
      const response = await client.get(url)
      expect(response.statusCode).toBe(200)
      return response.json()
    }
    // Warm: the first request of a credential reads it and its user.
    const profile = await get('/api/v1/business/profile/')
    expect(profile.team).not.toBeNull()
    expect(await queriesOf(() => get('/api/v1/business/profile/'))).toBe(1)
    expect(await queriesOf(() => get('/api/v1/agent/pause/check/'))).toBe(1)
    expect(await queriesOf(() => get('/api/pre-session/'))).toBe(0)
  })
})
