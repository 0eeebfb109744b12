import { IVR_OPTIONS } from '../constants.ts'
import { CALL_DESTINATIONS } from './apps.ts'
import { defineEntity, opt, t } from './define.ts'
import { calendarCondition, choice, description, destination, embed, fk, integer, isActive, parentRef, rows, toggle, upload, when } from './fields.ts'
import { LANGUAGES } from './options.ts'

// Settings → PABX media: sound folders and their audio files (prompts, announcements), music-on-hold classes and
// their tracks, and IVRs built from them. rtpengine plays the files into parked legs (TELEPHONY.md).

const AUDIO = 'audio/mpeg,audio/wav,audio/x-wav,audio/ogg'
const GENERAL = t('Geral', 'General', 'General')
const FILES = t('Arquivos', 'Files', 'Archivos')

export const moh = defineEntity({
  area: 'pabx',
  name: 'moh',
  model: 'moh',
  route: 'pabx/moh',
  label: { singular: t('Música de espera', 'Music on hold', 'Música en espera'), plural: t('Músicas de espera', 'Music on hold', 'Músicas en espera') },
  fields: [description(), isActive(), toggle('shuffle', t('Ordem aleatória', 'Shuffle', 'Orden aleatorio')), embed('entries', FILES, 'pabx.moh-entries')],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'shuffle'] },
      { key: 'entries', label: FILES, fields: ['entries'] },
    ],
  },
})

export const mohEntries = defineEntity({
  area: 'pabx',
  name: 'moh-entries',
  model: 'mohentry',
  route: 'pabx/moh/$id/entries',
  itemParam: 'eid',
  parent: { entity: 'pabx.moh', field: 'moh' },
  label: { singular: t('Faixa', 'Track', 'Pista'), plural: t('Faixas', 'Tracks', 'Pistas') },
  fields: [
    parentRef('moh', t('Música de espera', 'Music on hold', 'Música en espera'), 'pabx.moh'),
    description(),
    isActive(),
    upload('file', t('Arquivo de áudio', 'Audio file', 'Archivo de audio'), AUDIO, { required: true }),
    integer('order', t('Ordem', 'Order', 'Orden'), { default: 0 }),
  ],
  list: { columns: ['id', 'is_active', 'description', 'order'], ordering: ['order', 'id'] },
})

export const sounds = defineEntity({
  area: 'pabx',
  name: 'sounds',
  model: 'sound',
  route: 'pabx/sounds',
  label: { singular: t('Pasta de áudios', 'Sound folder', 'Carpeta de audios'), plural: t('Áudios', 'Sounds', 'Audios') },
  fields: [
    description(),
    isActive(),
    choice('language', t('Idioma', 'Language', 'Idioma'), LANGUAGES, { required: true, default: 'pt-BR' }),
    embed('entries', FILES, 'pabx.sounds-entries'),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'language'] },
      { key: 'entries', label: FILES, fields: ['entries'] },
    ],
  },
})

/** One prompt: what IVRs, queues, NPS surveys, voicemails and the `announce` app play. */
export const soundsEntries = defineEntity({
  area: 'pabx',
  name: 'sounds-entries',
  model: 'soundentry',
  route: 'pabx/sounds/$id/entries',
  itemParam: 'eid',
  parent: { entity: 'pabx.sounds', field: 'sound' },
  label: { singular: t('Áudio', 'Sound', 'Audio'), plural: t('Áudios', 'Sounds', 'Audios') },
  fields: [
    parentRef('sound', t('Pasta de áudios', 'Sound folder', 'Carpeta de audios'), 'pabx.sounds'),
    description(),
    isActive(),
    upload('file', t('Arquivo de áudio', 'Audio file', 'Archivo de audio'), AUDIO, { required: true }),
    // Issue 16 item 5: the `announce` app plays this prompt, then the caller continues here (none: the call ends).
    destination(
      'then',
      t('Como anúncio, depois de tocar seguir para', 'As an announcement, after playing continue to', 'Como anuncio, después de reproducirse continuar a'),
      'pabx',
      CALL_DESTINATIONS,
      {
        hint: t(
          'Usado quando um destino é este anúncio; vazio encerra a chamada',
          'Used when a destination is this announcement; empty ends the call',
          'Se usa cuando un destino es este anuncio; vacío finaliza la llamada',
        ),
      },
    ),
  ],
})

export const ivrs = defineEntity({
  area: 'pabx',
  name: 'ivrs',
  model: 'ivr',
  route: 'pabx/ivrs',
  label: { singular: t('URA', 'IVR', 'IVR'), plural: t('URAs', 'IVRs', 'IVR') },
  fields: [
    description(),
    isActive(),
    fk('greeting', t('Áudio de boas-vindas', 'Greeting audio', 'Audio de bienvenida'), 'pabx.sounds-entries', { required: true }),
    toggle('direct_dial', t('Permitir discar o ramal direto', 'Allow dialling an extension directly', 'Permitir marcar la extensión directamente')),
    // Ours (issue 16 item 3): a time condition on the IVR itself; outside the calendar's hours the caller goes to the
    // closed destination instead of hearing the menu.
    ...calendarCondition(CALL_DESTINATIONS),
    // Spec 000 §3: options 0-9, each with an audio and a destination; one row per digit.
    rows(
      'options',
      t('Opções', 'Options', 'Opciones'),
      [
        choice(
          'digit',
          t('Tecla', 'Key', 'Tecla'),
          IVR_OPTIONS.map((d) => opt(d, d, d, d)),
          { required: true, unique: true },
        ),
        fk('audio', t('Áudio ao escolher', 'Audio on choosing', 'Audio al elegir'), 'pabx.sounds-entries', { onDelete: 'protect' }),
        destination('destination', t('Destino', 'Destination', 'Destino'), 'pabx', CALL_DESTINATIONS, { required: true }),
      ],
      { max: IVR_OPTIONS.length },
    ),
    integer('timeout', t('Tempo para digitar (segundos)', 'Time to press a key (seconds)', 'Tiempo para marcar (segundos)'), { default: 5, min: 1, max: 60 }),
    fk('timeout_audio', t('Áudio de tempo esgotado', 'Time-out audio', 'Audio de tiempo agotado'), 'pabx.sounds-entries'),
    fk('invalid_audio', t('Áudio de opção inválida', 'Invalid option audio', 'Audio de opción no válida'), 'pabx.sounds-entries'),
    integer('repeat_count', t('Repetições', 'Repeats', 'Repeticiones'), { default: 3, max: 10 }),
    destination(
      'timeout_destination',
      t('Destino após as repetições', 'Destination after the repeats', 'Destino tras las repeticiones'),
      'pabx',
      CALL_DESTINATIONS,
      {
        required: true,
        default: { app: 'hangup', appdata: '' },
      },
    ),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'greeting', 'direct_dial', 'calendar', 'closed_destination'] },
      { key: 'options', label: t('Opções', 'Options', 'Opciones'), fields: ['options'] },
      {
        key: 'timeout',
        label: t('Tempo esgotado', 'Time-out', 'Tiempo agotado'),
        fields: ['timeout', 'timeout_audio', 'invalid_audio', 'repeat_count', 'timeout_destination'],
      },
    ],
  },
})

export const PABX_MEDIA = [moh, mohEntries, sounds, soundsEntries, ivrs] as const
