import type { EntityKey } from '../entities/keys.ts'

// Prompts (pabx sound entries) and music-on-hold tracks: their uploads are converted once to telephony audio
// (server/media/), and the settings form plays an mp3 rendition of it through an authenticated path — the entity's own
// item path plus `audio/`, asked with the entity's view permission. Paths relative to /api.

/** The file fields whose uploads become telephony audio, with the item path their player asks. */
export const AUDIO_FIELDS = [
  { entity: 'pabx.sounds-entries', field: 'file', path: '/v1/pabx/sounds-entries/:id/audio/' },
  { entity: 'pabx.moh-entries', field: 'file', path: '/v1/pabx/moh-entries/:id/audio/' },
] as const satisfies readonly { entity: EntityKey; field: string; path: string }[]

/** The player's address of one row's audio (cache-busted by the stored file, which changes with every upload), or null. */
export function audioPlayerPath(entity: string, field: string, id: number | string, file: string): string | null {
  const audio = AUDIO_FIELDS.find((a) => a.entity === entity && a.field === field)
  if (!audio) return null
  const version = file.split('/').pop()?.slice(0, 12) ?? ''
  return `/api${audio.path.replace(':id', encodeURIComponent(String(id)))}?v=${encodeURIComponent(version)}`
}
