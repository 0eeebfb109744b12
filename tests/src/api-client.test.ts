import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api, buildUrl, configureClient, expectSignOut } from '../../src/api/client.ts'
import { ApiError, normaliseError, submitErrors } from '../../src/api/errors.ts'

function respond(status: number, body: unknown, init: { statusText?: string; json?: boolean } = {}) {
  const json = init.json ?? typeof body !== 'string'
  return new Response(body === undefined ? null : json ? JSON.stringify(body) : String(body), {
    status,
    statusText: init.statusText ?? '',
    headers: { 'Content-Type': json ? 'application/json' : 'text/html' },
  })
}

describe('API client', () => {
  const fetchMock = vi.fn<typeof fetch>()
  const onUnauthorized = vi.fn()

  beforeEach(() => {
    fetchMock.mockReset()
    onUnauthorized.mockReset()
    configureClient({ fetch: fetchMock, onUnauthorized, locale: () => 'en-US', token: null })
    document.cookie = 'csrftoken=abc123; path=/'
  })
  afterEach(() => {
    document.cookie = 'csrftoken=; Max-Age=0; path=/'
  })

  it('sends JSON, the active language, the CSRF cookie and same-origin credentials to /api', async () => {
    fetchMock.mockResolvedValue(respond(200, { ok: true }))
    await api.post('/session/login/', { username: 'admin' })
    const [url, init] = fetchMock.mock.calls[0]!
    const headers = init!.headers as Headers
    expect(url).toBe('/api/session/login/')
    expect(headers.get('Accept')).toBe('application/json')
    expect(headers.get('Accept-Language')).toBe('en-US')
    expect(headers.get('X-CSRFToken')).toBe('abc123')
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(headers.get('Authorization')).toBeNull()
    expect(init!.credentials).toBe('same-origin')
    expect(init!.body).toBe('{"username":"admin"}')
  })

  it('adds the token header when a token is set', async () => {
    configureClient({ token: 'tok' })
    fetchMock.mockResolvedValue(respond(200, {}))
    await api.get('/v1/business/profile/')
    expect((fetchMock.mock.calls[0]![1]!.headers as Headers).get('Authorization')).toBe('Token tok')
  })

  it('builds query strings without empty values', () => {
    expect(buildUrl('/v1/x/', { limit: 10, search: 'a b', skip: undefined, none: null })).toBe('/api/v1/x/?limit=10&search=a+b')
    // contract/ names whole paths: the prefix is not doubled.
    expect(buildUrl('/api/v1/x/')).toBe('/api/v1/x/')
  })

  it('maps a DRF object body to field errors with the detail as message', async () => {
    fetchMock.mockResolvedValue(respond(400, { old_password: ['Senha atual incorreta.'], non_field_errors: ['Falhou'] }, { statusText: 'Bad Request' }))
    const error = (await api.post('/v1/business/profile/change-password/', {}).catch((e) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(400)
    expect(error.fieldErrors).toEqual({ old_password: ['Senha atual incorreta.'], non_field_errors: ['Falhou'] })
    expect(error.message).toBe('Falhou')
  })

  it('turns a non-object body into a non_field_errors entry with the status text', async () => {
    fetchMock.mockResolvedValue(respond(502, '<html>Bad gateway</html>', { statusText: 'Bad Gateway' }))
    const error = (await api.get('/v1/anything/').catch((e) => e)) as ApiError
    expect(error.status).toBe(502)
    expect(error.fieldErrors).toEqual({ non_field_errors: ['Bad Gateway'] })
    expect(error.message).toBe('Bad Gateway')
  })

  it('falls back to status 500 when there is none and marks network failures as no response', async () => {
    expect(normaliseError(0, '', undefined).status).toBe(500)
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    const error = (await api.get('/v1/x/').catch((e) => e)) as ApiError
    expect(error.noResponse).toBe(true)
    expect(error.status).toBe(500)
    expect(submitErrors(error, ['a'])).toEqual({ fields: {}, form: [], toast: 'Failed to fetch' })
  })

  it('sends every 401 to the unauthorised handler except the token logout', async () => {
    fetchMock.mockImplementation(async () => respond(401, { detail: 'As credenciais de autenticação não foram fornecidas.' }))
    await api.get('/v1/business/profile/').catch(() => {})
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
    await api.post('/auth/logout/').catch(() => {})
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
    await api.get('/v1/business/profile/', undefined, { allowUnauthorized: true }).catch(() => {})
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('keeps the 401s of a remote logout countdown from the handler (the countdown signs out), and only during it', async () => {
    fetchMock.mockImplementation(async () => respond(401, { detail: 'Token inválido.' }))
    const now = Date.now()
    expectSignOut(60_000, now)
    await api.get('/v1/agent/pause/check/').catch(() => {})
    expect(onUnauthorized).toHaveBeenCalledTimes(0)
    expectSignOut(0, now - 1)
    await api.get('/v1/agent/pause/check/').catch(() => {})
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('splits submit errors into field, above-the-form and unknown-field messages', () => {
    const error = normaliseError(400, 'Bad Request', { email: ['E-mail inválido'], detail: 'Dados inválidos', team: ['x'] })
    expect(submitErrors(error, ['email', 'first_name'])).toEqual({ fields: { email: 'E-mail inválido' }, form: ['Dados inválidos', 'x'] })
  })
})
