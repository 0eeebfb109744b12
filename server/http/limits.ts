import type { FastifyInstance, FastifyServerOptions, RouteOptions } from 'fastify'
import type { ServerOptions } from 'node:http'
import underPressure from '@fastify/under-pressure'
import { message } from '../../contract/messages.ts'
import type { HttpLimits } from '../config.ts'
import { HttpError, RETRY_AFTER_SECONDS } from './errors.ts'

// What one request may cost the server, so none can stall it for the others:
// - a body that stops arriving is cut once the request is older than requestTimeoutMs (Node answers 408);
// - a public route (sign-in, pre-session) takes a small body: anyone can send one, and a sign-in is a few hundred
//   bytes, so a larger one is refused (413) from its Content-Length before a byte is parsed; every other route
//   refuses an anonymous caller (401) before reading its body;
// - while the event loop lags (@fastify/under-pressure) or too many writes are already being handled, a request
//   answers 503 with Retry-After at once instead of joining a queue of hundreds.

/** JSON bodies of this API are small; anything bigger is refused with 413 before it is parsed. */
export const BODY_LIMIT_BYTES = 1024 * 1024
/** The largest body a route that needs no sign-in accepts. */
export const PUBLIC_BODY_LIMIT_BYTES = 16 * 1024

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Fastify's server options for these limits. */
export function serverLimits(limits: HttpLimits): Pick<FastifyServerOptions, 'bodyLimit' | 'requestTimeout'> & { http: ServerOptions } {
  const checkEvery = limits.requestTimeoutMs > 0 ? Math.min(30_000, Math.max(10, Math.floor(limits.requestTimeoutMs / 4))) : 30_000
  // Node applies requestTimeout only when it is given to createServer (setting it on the server later does nothing).
  const http: ServerOptions = { connectionsCheckingInterval: checkEvery, requestTimeout: limits.requestTimeoutMs }
  return { bodyLimit: BODY_LIMIT_BYTES, requestTimeout: limits.requestTimeoutMs, http }
}

/** Registers the small body limit of public routes; call before any route is added. */
export function limitPublicBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.permission === 'public' && route.bodyLimit === undefined) route.bodyLimit = PUBLIC_BODY_LIMIT_BYTES
  })
}

function busy(lang: string): HttpError {
  return new HttpError(503, { detail: message('serviceUnavailable', lang) }, { 'Retry-After': String(RETRY_AFTER_SECONDS) })
}

/** Back-pressure: 503 + Retry-After while the event loop lags or the writes being handled reach the limit. */
export async function registerBackPressure(app: FastifyInstance, limits: HttpLimits): Promise<void> {
  if (limits.maxEventLoopDelayMs > 0) {
    // Its 503 reaches the error handler, which answers it in the DRF shape and the request's language.
    // Sampled about as often as the lag it guards against, so a stall is seen before many requests queue behind it.
    const sampleInterval = limits.eventLoopSampleMs ?? Math.min(1000, Math.max(10, limits.maxEventLoopDelayMs))
    await app.register(underPressure, { maxEventLoopDelay: limits.maxEventLoopDelayMs, sampleInterval, retryAfter: RETRY_AFTER_SECONDS })
  }
  if (limits.maxWritesInFlight <= 0) return
  let writing = 0
  // Counted from the handler on, when a JSON body has arrived (a multipart one streams into the handler; the request
  // timeout cuts one that stalls).
  app.addHook('preHandler', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return
    if (writing >= limits.maxWritesInFlight) throw busy(request.lang)
    writing++
    reply.raw.once('close', () => writing--)
  })
}
