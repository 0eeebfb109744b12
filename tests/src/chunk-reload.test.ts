import { describe, expect, it, vi } from 'vitest'
import { CHUNK_RELOAD_KEY, claimChunkReload, isChunkLoadError, reloadForChunkError } from '../../src/app/chunkReload.ts'

function memoryStorage() {
  const data = new Map<string, string>()
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) }
}

describe('chunk reload guard', () => {
  it('allows one reload, then none for 60 s, then again', () => {
    const storage = memoryStorage()
    expect(claimChunkReload(storage, 1_000_000)).toBe(true)
    expect(claimChunkReload(storage, 1_000_000 + 59_999)).toBe(false)
    expect(claimChunkReload(storage, 1_000_000 + 60_000)).toBe(true)
  })

  it('recognises failed dynamic imports only', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true)
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
  })

  it('reloads through sessionStorage at most once per minute', () => {
    sessionStorage.removeItem(CHUNK_RELOAD_KEY)
    const reload = vi.fn()
    const error = new TypeError('Failed to fetch dynamically imported module: /assets/profile.js')
    expect(reloadForChunkError(error, reload)).toBe(true)
    expect(reloadForChunkError(error, reload)).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)
    expect(Number(sessionStorage.getItem(CHUNK_RELOAD_KEY))).toBeGreaterThan(0)
    expect(reloadForChunkError(new Error('other'), reload)).toBe(false)
  })
})
