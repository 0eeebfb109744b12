import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ChatMessage, DeliveryStatus } from '../../../contract/api/chat.ts'
import { TEXT_CUT } from '../../../contract/constants.ts'
import { cut } from '../../entities/text.ts'

// Texts and cuts of the chat workspace (spec 001 §2, §4, §8, §9).

/** Document names are cut to 30 characters (spec 001 §2 "Message bubble"). */
export const DOCUMENT_NAME_CUT = 30

export const cutDocumentName = (name: string) => cut(name, DOCUMENT_NAME_CUT)
export const cutTitle = (title: string) => cut(title, TEXT_CUT.chatTitle)
export const cutLastMessage = (text: string) => cut(text, TEXT_CUT.lastMessage)
export const cutSearchContent = (text: string) => cut(text, TEXT_CUT.searchMessage)

export const STATUS_LABELS: Record<DeliveryStatus, MessageDescriptor> = {
  sending: msg`Enviando`,
  accepted: msg`Aceita`,
  dispatched: msg`Enviada`,
  received: msg`Entregue`,
  consumed: msg`Lida`,
  failed: msg`Mensagem não enviada`,
}

/** The failed message's tooltip: code and reason, prefixed 'Erro externo' when the channel refused it (spec 001 §4). */
export function failureText(message: Pick<ChatMessage, 'error'>, externalPrefix: string): string {
  const error = message.error
  if (!error) return ''
  const detail = [error.code !== null && error.code !== undefined ? String(error.code) : '', error.reason].filter(Boolean).join(' - ')
  return error.external_error ? `${externalPrefix}: ${detail}` : detail
}

/** Enter without modifiers sends; ctrl, shift, alt or meta with it do not (spec 001 §5). */
export function sendsOnKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'> & { isComposing?: boolean }): boolean {
  return event.key === 'Enter' && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.metaKey && !event.isComposing
}

/** An empty or blank message is never sent (spec 001 §5). */
export const isBlank = (text: string) => text.trim() === ''

/** A map page for a location (opened in a new tab). */
export const mapUrl = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`

/** Whether this browser plays OGG/Opus voice notes; when not, attachments are asked for as mp3 (spec 001 §7). */
export function canPlayOgg(): boolean {
  if (typeof document === 'undefined') return true
  const audio = document.createElement('audio')
  return typeof audio.canPlayType === 'function' && audio.canPlayType('audio/ogg; codecs="opus"') !== ''
}
