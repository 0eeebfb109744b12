import { spawn } from 'node:child_process'
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Locale } from '../../contract/locales.ts'
import { toTelephonyWav } from './convert.ts'

// The demo's prompts and music, made on this machine the first time a demo is seeded — never downloaded, never in the
// repository: espeak-ng speaks each prompt in pt-BR, en-US and es-ES, sox plays two short plucked melodies for the
// music-on-hold class. Both land in `<DATA_DIR>/demo-sounds/` already as telephony WAVs, so a second seed (a
// deleted database) reuses them. The seed then uploads them through the same path as an administrator's files.
//
// A prompt's description starts with its key (`digit-5: cinco`): that is how a queue finds "you are number", the
// digits of a position and the like in its language (library.ts `resolvePromptSet`).

export const PROMPT_KEYS = [
  'welcome',
  'ivr-menu',
  'please-hold',
  'you-are-number',
  'in-line',
  'estimated-wait',
  'minutes',
  'invalid',
  'closed',
  'voicemail',
  'nps-question',
  'goodbye',
  'digit-0',
  'digit-1',
  'digit-2',
  'digit-3',
  'digit-4',
  'digit-5',
  'digit-6',
  'digit-7',
  'digit-8',
  'digit-9',
] as const
export type PromptKey = (typeof PROMPT_KEYS)[number]

const DIGITS: Record<Locale, readonly string[]> = {
  'pt-BR': ['zero', 'um', 'dois', 'três', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove'],
  'en-US': ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
  'es-ES': ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'],
}

const digitTexts = (locale: Locale) => Object.fromEntries(DIGITS[locale].map((word, d) => [`digit-${d}`, word])) as Record<`digit-${number}`, string>

export const PROMPT_TEXTS: Record<Locale, Record<PromptKey, string>> = {
  'pt-BR': {
    welcome: 'Olá! Obrigado por ligar para a Atende.',
    'ivr-menu': 'Olá! Obrigado por ligar para a Atende. Para suporte, tecle 1. Para vendas, tecle 2.',
    'please-hold': 'Por favor, aguarde. Em breve você será atendido.',
    'you-are-number': 'Você é o número',
    'in-line': 'na fila.',
    'estimated-wait': 'Tempo estimado de espera:',
    minutes: 'minutos.',
    invalid: 'Opção inválida.',
    closed: 'Nosso atendimento está fechado agora. Ligue novamente em horário comercial.',
    voicemail: 'Deixe sua mensagem após o sinal.',
    'nps-question': 'De zero a dez, quanto você recomendaria o nosso atendimento? Tecle a sua nota.',
    goodbye: 'Obrigado pela ligação. Até logo!',
    ...digitTexts('pt-BR'),
  } as Record<PromptKey, string>,
  'en-US': {
    welcome: 'Hello! Thank you for calling Atende.',
    'ivr-menu': 'Hello! Thank you for calling Atende. For support, press 1. For sales, press 2.',
    'please-hold': 'Please hold. An agent will be with you shortly.',
    'you-are-number': 'You are number',
    'in-line': 'in line.',
    'estimated-wait': 'Estimated wait time:',
    minutes: 'minutes.',
    invalid: 'Invalid option.',
    closed: 'We are closed right now. Please call again during business hours.',
    voicemail: 'Please leave your message after the tone.',
    'nps-question': 'From zero to ten, how likely are you to recommend our service? Press your score.',
    goodbye: 'Thank you for calling. Goodbye!',
    ...digitTexts('en-US'),
  } as Record<PromptKey, string>,
  'es-ES': {
    welcome: '¡Hola! Gracias por llamar a Atende.',
    'ivr-menu': '¡Hola! Gracias por llamar a Atende. Para soporte, marque 1. Para ventas, marque 2.',
    'please-hold': 'Por favor, espere. En breve le atenderemos.',
    'you-are-number': 'Usted es el número',
    'in-line': 'en la cola.',
    'estimated-wait': 'Tiempo de espera estimado:',
    minutes: 'minutos.',
    invalid: 'Opción no válida.',
    closed: 'Ahora estamos cerrados. Llame de nuevo en horario comercial.',
    voicemail: 'Deje su mensaje después de la señal.',
    'nps-question': 'De cero a diez, ¿cuánto recomendaría nuestra atención? Marque su nota.',
    goodbye: 'Gracias por su llamada. ¡Hasta luego!',
    ...digitTexts('es-ES'),
  } as Record<PromptKey, string>,
}

/** espeak-ng's voice for each language. */
const VOICES: Record<Locale, string> = { 'pt-BR': 'pt-br', 'en-US': 'en-us', 'es-ES': 'es' }

/** The description a demo prompt is stored with: its key, then what it says. */
export const promptDescription = (key: PromptKey, locale: Locale) => `${key}: ${PROMPT_TEXTS[locale][key]}`

function run(tool: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: 'ignore' })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} exited ${code}`))))
  })
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 44
  } catch {
    return false
  }
}

/** Makes `target` once with `make(tmp)` (a telephony WAV written to a temporary name, then renamed into place). */
async function cached(target: string, make: (tmp: string) => Promise<void>): Promise<Buffer> {
  if (!(await exists(target))) {
    await mkdir(path.dirname(target), { recursive: true })
    const tmp = `${target}.${process.pid}.tmp.wav`
    try {
      await make(tmp)
      await rename(tmp, target)
    } finally {
      await rm(tmp, { force: true })
    }
  }
  return readFile(target)
}

/** One spoken prompt as a telephony WAV (cached in `cacheDir`). */
export function demoPrompt(cacheDir: string, locale: Locale, key: PromptKey): Promise<Buffer> {
  return cached(path.join(cacheDir, locale, `${key}.wav`), async (tmp) => {
    const spoken = `${tmp}.espeak.wav`
    try {
      // A little slower than espeak's default, and a short silence after it, for the telephone.
      await run('espeak-ng', ['-v', VOICES[locale], '-s', '150', '-w', spoken, PROMPT_TEXTS[locale][key]])
      await toTelephonyWav(spoken, tmp, ['pad', '0', '0.3'])
    } finally {
      await rm(spoken, { force: true })
    }
  })
}

/** Two calm plucked melodies (C major and A minor arpeggios, a soft echo, fades), about 20 s each. */
const MELODIES = [
  ['C4', 'E4', 'G4', 'C5', 'G4', 'E4', 'F4', 'A4', 'C5', 'F5', 'C5', 'A4', 'G4', 'B4', 'D5', 'G5', 'D5', 'B4', 'C5', 'G4', 'E4', 'C4', 'E4', 'G4'],
  ['A3', 'C4', 'E4', 'A4', 'E4', 'C4', 'D4', 'F4', 'A4', 'D5', 'A4', 'F4', 'E4', 'G4', 'B4', 'E5', 'B4', 'G4', 'A4', 'E4', 'C4', 'A3', 'C4', 'E4'],
] as const

export const DEMO_MUSIC_TRACKS = MELODIES.length

/** Demo music track `index` (0 or 1) as a telephony WAV (cached in `cacheDir`). */
export function demoMusic(cacheDir: string, index: number): Promise<Buffer> {
  const notes = MELODIES[index]!
  return cached(path.join(cacheDir, 'music', `melody-${index + 1}.wav`), async (tmp) => {
    const parts: string[] = []
    try {
      for (const [i, note] of notes.entries()) {
        const part = `${tmp}.${i}.wav`
        parts.push(part)
        // A plucked note and its fifth, quietly: music on hold is background, never louder than a prompt.
        await run('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', part, 'synth', '0.8', 'pluck', note, 'vol', '0.35', 'fade', '0', '0.8', '0.3'])
      }
      const joined = `${tmp}.joined.wav`
      parts.push(joined)
      await run('sox', [...parts.slice(0, -1), joined, 'echo', '0.8', '0.7', '60', '0.25'])
      await toTelephonyWav(joined, tmp)
    } finally {
      for (const part of parts) await rm(part, { force: true })
    }
  })
}
