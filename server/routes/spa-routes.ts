import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { detailError } from '../http/errors.ts'
import { isFile } from '../http/files.ts'

// The built SPA: real files from dist/, and index.html for every other GET that is not an API, socket or media path
// (client-side routes such as /en-us/settings). Hashed assets are cached for good; index.html never is. Each file goes
// out as the brotli or gzip twin the build made beside it (server/spa-precompress.ts) when the browser accepts one.
const SERVER_PATHS = /^\/(api|ws|media|recordings|widget)(\/|$)/

export async function spaRoutes(app: FastifyInstance): Promise<void> {
  const root = app.deps.config.spaDir
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true })

  app.get('/*', { config: { permission: 'public', bare: true } }, async (request, reply) => {
    const pathname = decodePath(request.url.split('?')[0]!)
    if (pathname === null || SERVER_PATHS.test(pathname)) throw detailError(404, 'notFound', request.lang)
    const relative = path.normalize(pathname).replace(/^[/\\]+/, '')
    if (relative && !relative.startsWith('..') && (await isFile(path.join(root, relative)))) {
      const immutable = relative.startsWith(`assets${path.sep}`)
      return reply.sendFile(relative, immutable ? { maxAge: '1y', immutable: true } : { maxAge: 0 })
    }
    if (!(await isFile(path.join(root, 'index.html')))) throw detailError(404, 'notFound', request.lang)
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', { maxAge: 0, cacheControl: false })
  })
}

function decodePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname)
  } catch {
    return null
  }
}
