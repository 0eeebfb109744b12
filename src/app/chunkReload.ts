// A page chunk that fails to load (a deploy replaced the hashed files) reloads the page once; a second failure within
// 60 s shows the error instead of looping (spec 000 §2, §9).
export const CHUNK_RELOAD_INTERVAL_MS = 60_000
export const CHUNK_RELOAD_KEY = 'atende:chunk-reload-at'

type KeyValue = Pick<Storage, 'getItem' | 'setItem'>

/** Decides, and records, a reload: true at most once per interval. */
export function claimChunkReload(storage: KeyValue, now: number = Date.now()): boolean {
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY) ?? 0)
  if (last && now - last < CHUNK_RELOAD_INTERVAL_MS && now >= last) return false
  storage.setItem(CHUNK_RELOAD_KEY, String(now))
  return true
}

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading chunk .* failed/i

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  return CHUNK_ERROR.test(message)
}

/** Reloads for a chunk error when the guard allows; returns whether it did. */
export function reloadForChunkError(error: unknown, reload = () => window.location.reload()): boolean {
  if (!isChunkLoadError(error)) return false
  if (!claimChunkReload(window.sessionStorage)) return false
  reload()
  return true
}

export function installChunkReloadGuard() {
  // Vite fires this when a dynamic import's preload fails; preventDefault stops the error from propagating.
  window.addEventListener('vite:preloadError', (event) => {
    const payload = (event as Event & { payload?: unknown }).payload
    if (claimChunkReload(window.sessionStorage)) {
      event.preventDefault()
      window.location.reload()
    } else console.error(payload)
  })
}
