import { describe, expect, it } from 'vitest'
import { localeFromPrefix, localeRedirect, resolveLocale, switchLocalePath } from '../../src/app/locale.ts'

describe('locale resolution', () => {
  it('takes the URL prefix first', () => {
    expect(resolveLocale({ prefix: 'es-es', cookie: 'en-us', browser: ['pt-BR'] })).toBe('es-ES')
    expect(resolveLocale({ prefix: 'en-us', cookie: 'pt-br', browser: ['es'] })).toBe('en-US')
  })

  it('then the i18n_redirected cookie', () => {
    expect(resolveLocale({ prefix: undefined, cookie: 'es-es', browser: ['en-US'] })).toBe('es-ES')
    expect(resolveLocale({ prefix: 'profile', cookie: 'en-us', browser: ['es'] })).toBe('en-US')
  })

  it('then the browser language, then pt-BR', () => {
    expect(resolveLocale({ browser: ['fr-FR', 'es-MX'] })).toBe('es-ES')
    expect(resolveLocale({ cookie: 'xx', browser: ['de'] })).toBe('pt-BR')
    expect(resolveLocale({})).toBe('pt-BR')
  })

  it('tells known, absent and unknown prefixes apart', () => {
    expect(localeFromPrefix('en-us')).toBe('en-US')
    expect(localeFromPrefix(undefined)).toBeUndefined()
    expect(localeFromPrefix('fr-fr')).toBeNull()
  })

  it('redirects an unprefixed page to the cookie or browser language unless it is pt-BR', () => {
    expect(localeRedirect('/profile', { cookie: 'en-us' })).toBe('en-US')
    expect(localeRedirect('/profile', { browser: ['es-ES'] })).toBe('es-ES')
    expect(localeRedirect('/profile', { cookie: 'pt-br', browser: ['en-US'] })).toBeUndefined()
    expect(localeRedirect('/en-us/profile', { cookie: 'es-es' })).toBeUndefined()
    expect(localeRedirect('/', { browser: ['pt-BR'] })).toBeUndefined()
  })

  it('moves a path to another prefix', () => {
    expect(switchLocalePath('/profile/change-password', 'en-US')).toBe('/en-us/profile/change-password')
    expect(switchLocalePath('/en-us/profile', 'es-ES')).toBe('/es-es/profile')
    expect(switchLocalePath('/es-es/profile/', 'pt-BR')).toBe('/profile/')
    expect(switchLocalePath('/en-us', 'pt-BR')).toBe('/')
    expect(switchLocalePath('/', 'es-ES')).toBe('/es-es')
  })
})
