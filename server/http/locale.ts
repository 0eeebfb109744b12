import type { FastifyRequest } from 'fastify'
import type { Locale } from '../../contract/locales.ts'
import { DEFAULT_LOCALE, LOCALE_COOKIE, pickLocale, toLocale } from '../../contract/locales.ts'

/** The language of server texts: Accept-Language first, then the SPA's locale cookie, then pt-BR. */
export function requestLocale(request: FastifyRequest): Locale {
  return pickLocale(request.headers['accept-language']) ?? toLocale(request.cookies?.[LOCALE_COOKIE]) ?? DEFAULT_LOCALE
}
