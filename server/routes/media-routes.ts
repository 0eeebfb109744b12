import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { detailError } from '../http/errors.ts'
import { isFile, sendStoredFile } from '../http/files.ts'
import { avatarDir, mimeOfAvatarName } from '../profile/avatar-store.ts'

// Uploaded files. Names are random (unguessable) and checked against the pattern the store writes, so nothing else on
// disk can be reached. The type comes from the sniffed bytes (kept in the extension), never from the upload.
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const dir = avatarDir(app.deps.config.mediaDir)

  app.get<{ Params: { name: string } }>('/media/avatars/:name', { config: { permission: 'public', bare: true } }, async (request, reply) => {
    const { name } = request.params
    const mime = mimeOfAvatarName(name)
    const file = path.join(dir, name)
    if (!mime || !(await isFile(file))) throw detailError(404, 'notFound', request.lang)
    return sendStoredFile(reply, file, { type: mime, filename: name, immutable: true })
  })
}
