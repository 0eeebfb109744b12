import { authChanged } from '../../auth/auth-cache.ts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AVATAR_MAX_BYTES, PROFILE_PATHS } from '../../../contract/api/profile.ts'
import { message } from '../../../contract/messages.ts'
import { detailError, fieldErrors } from '../../http/errors.ts'
import { readMultipart } from '../../http/multipart.ts'
import { removeAvatarFile, saveAvatarFile, sniffImageType } from '../../profile/avatar-store.ts'
import { replaceAvatar } from '../../profile/profile-update.ts'
import { currentProfile } from './profile-routes.ts'

// change-avatar: POST a multipart `avatar` image, DELETE to go back to none. Both answer with the profile.
export async function avatarRoutes(app: FastifyInstance): Promise<void> {
  const { mediaDir } = app.deps.config

  async function setAvatar(request: FastifyRequest, name: string | null) {
    const user = request.auth!.user
    const previous = await replaceAvatar(app.deps.db, user.siteId, user.id, name)
    await authChanged(app.deps.db, app.deps.bus, { kind: 'user', user_id: user.id })
    if (previous && previous !== name) await removeAvatarFile(mediaDir, previous)
    return currentProfile(app, request)
  }

  app.post(PROFILE_PATHS.avatar, { config: { permission: 'authenticated' } }, async (request) => {
    if (!request.isMultipart()) throw detailError(415, 'unsupportedMediaType', request.lang)
    const bytes = await readAvatarPart(request)
    const type = sniffImageType(bytes)
    if (!type) throw fieldErrors({ avatar: [message('invalidImage', request.lang)] })
    return setAvatar(request, await saveAvatarFile(mediaDir, bytes, type))
  })

  app.delete(PROFILE_PATHS.avatar, { config: { permission: 'authenticated' } }, (request) => setAvatar(request, null))
}

async function readAvatarPart(request: FastifyRequest): Promise<Buffer> {
  let bytes: Buffer | undefined
  const tooLarge = () => fieldErrors({ avatar: [message('fileTooLarge', request.lang, { n: AVATAR_MAX_BYTES / (1024 * 1024) })] })
  await readMultipart(
    request,
    async () => {
      for await (const part of request.parts({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10 } })) {
        if (part.type === 'file' && part.fieldname === 'avatar') bytes = await part.toBuffer()
        else if (part.type === 'file') part.file.resume()
      }
    },
    tooLarge,
  )
  if (!bytes || bytes.length === 0) throw fieldErrors({ avatar: [message('required', request.lang)] })
  return bytes
}
