import type { Locale } from '../../contract/locales.ts'
import { LOCALES } from '../../contract/locales.ts'
import type { PromptKey } from '../media/demo-prompts.ts'
import { DEMO_MUSIC_TRACKS, PROMPT_KEYS, demoMusic, demoPrompt, promptDescription } from '../media/demo-prompts.ts'
import { demoToneWav } from './demo-audio.ts'

// The demo's sound library. With `soundsDir` (npm start: DATA_DIR/demo-sounds) a folder of spoken prompts per
// language — every PROMPT_KEYS entry, the digits for position announcements included — and a music class of two
// melodies, made on this machine by espeak-ng and sox (server/media/demo-prompts.ts). Without it (the tests' seed) one
// folder of tones: the same rows the rest of the demo points at, in a fraction of the time.

type Seed = (key: 'pabx.sounds' | 'pabx.sounds-entries' | 'pabx.moh' | 'pabx.moh-entries', body: Record<string, unknown>, options?: { files?: Record<string, Buffer> }) => Promise<number>

export type DemoSounds = { welcome: number; invalid: number; pleaseHold: number; moh: number }

const FOLDER_NAMES: Record<Locale, string> = {
  'pt-BR': 'Áudios do sistema (português)',
  'en-US': 'System prompts (English)',
  'es-ES': 'Audios del sistema (español)',
}

export async function seedDemoSounds(seed: Seed, options: { mediaDir?: string; soundsDir?: string }): Promise<DemoSounds> {
  const { soundsDir, mediaDir } = options
  if (!soundsDir || !mediaDir) {
    const tone = mediaDir ? { files: { file: demoToneWav() } } : {}
    const sounds = await seed('pabx.sounds', { description: 'Áudios da demonstração', language: 'pt-BR' })
    const welcome = await seed('pabx.sounds-entries', { sound: sounds, description: 'Boas-vindas' }, tone)
    const invalid = await seed('pabx.sounds-entries', { sound: sounds, description: 'Opção inválida' }, tone)
    const moh = await seed('pabx.moh', { description: 'Música padrão' })
    await seed('pabx.moh-entries', { moh, description: 'Tom de espera', order: 0 }, tone)
    return { welcome, invalid, pleaseHold: welcome, moh }
  }
  const ids = {} as Record<Locale, Record<PromptKey, number>>
  for (const locale of LOCALES) {
    const folder = await seed('pabx.sounds', { description: FOLDER_NAMES[locale], language: locale })
    ids[locale] = {} as Record<PromptKey, number>
    // Two at a time: espeak-ng and sox run as children, and this machine has two cores.
    const files = await inPairs(PROMPT_KEYS, (key) => demoPrompt(soundsDir, locale, key))
    for (const [i, key] of PROMPT_KEYS.entries()) {
      ids[locale][key] = await seed('pabx.sounds-entries', { sound: folder, description: promptDescription(key, locale) }, { files: { file: files[i]! } })
    }
  }
  const moh = await seed('pabx.moh', { description: 'Música padrão' })
  for (let track = 0; track < DEMO_MUSIC_TRACKS; track++) {
    await seed('pabx.moh-entries', { moh, description: `Melodia ${track + 1}`, order: track }, { files: { file: await demoMusic(soundsDir, track) } })
  }
  const pt = ids['pt-BR']
  return { welcome: pt['ivr-menu'], invalid: pt.invalid, pleaseHold: pt['please-hold'], moh }
}

async function inPairs<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < items.length; i += 2) out.push(...(await Promise.all(items.slice(i, i + 2).map(work))))
  return out
}
