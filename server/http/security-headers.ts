import type { FastifyInstance } from 'fastify'

// Headers every answer carries: no MIME sniffing anywhere, and API answers (profiles hold SIP secrets) are never
// stored by browsers or proxies. Static files set their own caching.
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff')
    if (request.url.startsWith('/api/') && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store')
  })
}
