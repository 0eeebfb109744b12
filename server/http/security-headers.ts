import type { FastifyInstance } from 'fastify'
import { frameAncestors } from '../sites/embedding.ts'
import { resolveSite } from '../sites/site-repo.ts'

// Headers every answer carries: no MIME sniffing anywhere, and API answers (profiles hold SIP secrets) are never
// stored by browsers or proxies. Static files set their own caching.
//
// Framing (clickjacking): the app's pages (HTML) may be framed by the app itself and by the origins its site allows
// for the embedding (spec 001 §7, server/sites/embedding.ts); nothing else (API answers, media, recordings) is ever
// framed. X-Frame-Options is for browsers without CSP frame-ancestors: SAMEORIGIN when no other origin is allowed
// (it cannot name one), DENY for everything that is not a page.
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff')
    if (request.url.startsWith('/api/') && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store')
    const isPage = String(reply.getHeader('Content-Type') ?? '').startsWith('text/html')
    // A page is served bare (no site work on the way in): its site is resolved here, only for pages.
    const site = isPage ? (request.site ?? (await resolveSite(app.deps.db, request.hostname).catch(() => null))) : null
    const ancestors = isPage ? frameAncestors(site) : "'none'"
    addDirective(reply, `frame-ancestors ${ancestors}`)
    if (!isPage) reply.header('X-Frame-Options', 'DENY')
    else if (ancestors === "'self'") reply.header('X-Frame-Options', 'SAMEORIGIN')
  })
}

/** Adds a directive to a Content-Security-Policy another part of the app may have set already. */
function addDirective(reply: { getHeader(name: string): unknown; header(name: string, value: string): unknown }, directive: string): void {
  const current = reply.getHeader('Content-Security-Policy')
  reply.header('Content-Security-Policy', typeof current === 'string' && current.trim() ? `${current.replace(/;\s*$/, '')}; ${directive}` : directive)
}
