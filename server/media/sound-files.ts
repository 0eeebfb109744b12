import path from 'node:path'
import { rm } from 'node:fs/promises'
import { entityMessage } from '../../contract/entities/index.ts'
import { detailError, fieldErrors } from '../http/errors.ts'
import { mediaFolder, newStoredName, renditionPath } from '../entities/media-store.ts'
import { registerUploadConverter } from '../entities/stored-files.ts'
import type { UploadConverter } from '../entities/stored-files.ts'
import { AUDIO_FIELDS } from '../../contract/api/sounds.ts'
import type { AudioExt } from './convert.ts'
import { AudioToolMissingError, UnreadableAudioError, convertUpload } from './convert.ts'

// Sound entries (prompts) and music-on-hold tracks: what the settings forms upload is never stored as sent. It is
// converted once, here, to the telephony WAV the media app hands rtpengine (`<hex>.wav`, the field's stored name); the
// settings player gets an mp3 rendition of it (`renditions/<hex>.mp3`, made on the first play and served only through
// the authenticated audio route). Audio no tool can decode is a 400 on the field; a missing tool a 503 naming it.

/** The stored file's rendition for the browser (null for a name the store did not write). */
export function soundRendition(mediaDir: string, dir: string, name: string): string | null {
  return renditionPath(mediaDir, dir, name, 'mp3')
}

export const convertSoundUpload: UploadConverter = async (ctx, dir, upload, field) => {
  const folder = await mediaFolder(ctx.mediaDir, dir)
  const name = newStoredName('wav')
  const wav = path.join(folder, name)
  try {
    await convertUpload(upload.bytes, upload.kind.ext as AudioExt, wav)
    return name
  } catch (error) {
    await rm(wav, { force: true })
    if (error instanceof UnreadableAudioError) throw fieldErrors({ [field]: [entityMessage('unreadableAudio', ctx.lang)] })
    if (error instanceof AudioToolMissingError) throw detailError(503, 'audioToolMissing', ctx.lang, { tool: error.tool })
    throw error
  }
}

for (const { entity, field } of AUDIO_FIELDS) registerUploadConverter(entity, field, convertSoundUpload)
