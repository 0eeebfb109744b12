import { CSRF_COOKIE, CSRF_HEADER } from '../../contract/api/auth-paths.ts'
import { readCookie } from '../app/locale.ts'
import { ApiError, normaliseError } from './errors.ts'

// The one fetch client (spec 000 §7): base /api, JSON, the active language, token or session + CSRF, 401 → /401.
export const API_BASE = '/api'

type ClientConfig = {
  locale: () => string
  token: string | null
  onUnauthorized: () => void
  fetch: typeof fetch
}

const config: ClientConfig = {
  locale: () => 'pt-BR',
  token: null,
  onUnauthorized: () => {},
  fetch: (...args) => globalThis.fetch(...args),
}

export function configureClient(patch: Partial<ClientConfig>) {
  Object.assign(config, patch)
}

/** Until when a 401 is expected: a remote logout is counting down (spec 000 §4) and will sign out by itself. */
let signOutDueAt = 0

/**
 * A remote logout announced its countdown: the session may already be gone on the server (a password changed
 * elsewhere), so a 401 meanwhile is not sent to /401 — the countdown ends on the sign-in page as announced.
 */
export function expectSignOut(withinMs: number, now = Date.now()) {
  signOutDueAt = now + withinMs
}

export type Query = Record<string, string | number | boolean | null | undefined>

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Query
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown
  signal?: AbortSignal
  /** The session probe answers 401 when nobody is signed in: that is "go to /login", not "show /401". */
  allowUnauthorized?: boolean
}

/**
 * The URL of an API path: relative to /api ('/v1/…'), or whole as contract/ names its paths ('/api/v1/…', e.g.
 * `apiPath(key)`, `dialerPaths`), so callers never strip the prefix themselves.
 */
export function buildUrl(path: string, query?: Query): string {
  const relative = path.startsWith(`${API_BASE}/`) ? path.slice(API_BASE.length) : path
  const url = API_BASE + (relative.startsWith('/') ? relative : `/${relative}`)
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.set(key, String(value))
  const search = params.toString()
  return search ? `${url}?${search}` : url
}

function headersFor(body: unknown): Headers {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': config.locale() })
  if (config.token) headers.set('Authorization', `Token ${config.token}`)
  const csrf = readCookie(CSRF_COOKIE)
  if (csrf) headers.set(CSRF_HEADER, csrf)
  if (body !== undefined && !(body instanceof FormData)) headers.set('Content-Type', 'application/json')
  return headers
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined
  const text = await response.text()
  if (!text) return undefined
  if ((response.headers.get('Content-Type') ?? '').includes('json')) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET'
  const body = options.body === undefined || options.body instanceof FormData ? options.body : JSON.stringify(options.body)
  let response: Response
  try {
    response = await config.fetch(buildUrl(path, options.query), {
      method,
      headers: headersFor(options.body),
      body: body as BodyInit | undefined,
      credentials: 'same-origin',
      signal: options.signal,
    })
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error
    throw new ApiError({ message: (error as Error)?.message ?? String(error), noResponse: true })
  }
  const data = await readBody(response)
  if (response.ok) return data as T
  const isTokenLogout = method === 'POST' && path.startsWith('/auth/logout/')
  if (response.status === 401 && !isTokenLogout && !options.allowUnauthorized && Date.now() >= signOutDueAt) config.onUnauthorized()
  throw normaliseError(response.status, response.statusText, data)
}

export const api = {
  get: <T>(path: string, query?: Query, options?: Omit<RequestOptions, 'method' | 'query'>) => request<T>(path, { ...options, query }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method'>) => request<T>(path, { ...options, method: 'DELETE' }),
}
