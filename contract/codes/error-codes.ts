import type { Locale } from '../locales.ts'
import { localize } from './localize.ts'

// Spec 000 §8 — codes the webphone attaches to its errors. Exceptions are thrown when a call id or SIP session the
// caller named does not exist; internal errors say which operation failed and are shown in an alert with the stack.
export const SOFTPHONE_EXCEPTION_CODES = {
  idNotFound: 'id_not_found',
  sessionNotFound: 'session_not_found',
} as const
export type SoftphoneExceptionCode = (typeof SOFTPHONE_EXCEPTION_CODES)[keyof typeof SOFTPHONE_EXCEPTION_CODES]

export const SOFTPHONE_ERROR_CODES = {
  pluginStart: 'plugin_start',
  call: 'call',
  answer: 'answer',
  hold: 'hold',
  mute: 'mute',
  transfer: 'transfer',
  conference: 'conference',
  dtmf: 'dtmf',
  pressKey: 'press_key',
  backspace: 'backspace',
  dial: 'dial',
  contacts: 'contacts',
  settings: 'settings',
  cancelTransfer: 'cancel_transfer',
  confirmTransfer: 'confirm_transfer',
  dialpad: 'dialpad',
  classification: 'classification',
  saveForm: 'save_form',
} as const
export type SoftphoneErrorCode = (typeof SOFTPHONE_ERROR_CODES)[keyof typeof SOFTPHONE_ERROR_CODES]

/** Alert titles for each internal error. */
export const SOFTPHONE_ERROR_LABELS = {
  plugin_start: { 'pt-BR': 'Erro ao iniciar o webphone', 'en-US': 'Error starting the webphone', 'es-ES': 'Error al iniciar el webphone' },
  call: { 'pt-BR': 'Erro na chamada', 'en-US': 'Call error', 'es-ES': 'Error en la llamada' },
  answer: { 'pt-BR': 'Erro ao atender', 'en-US': 'Error answering', 'es-ES': 'Error al contestar' },
  hold: { 'pt-BR': 'Erro ao colocar em espera', 'en-US': 'Error putting on hold', 'es-ES': 'Error al poner en espera' },
  mute: { 'pt-BR': 'Erro ao silenciar', 'en-US': 'Error muting', 'es-ES': 'Error al silenciar' },
  transfer: { 'pt-BR': 'Erro ao transferir', 'en-US': 'Error transferring', 'es-ES': 'Error al transferir' },
  conference: { 'pt-BR': 'Erro na conferência', 'en-US': 'Conference error', 'es-ES': 'Error en la conferencia' },
  dtmf: { 'pt-BR': 'Erro ao enviar DTMF', 'en-US': 'Error sending DTMF', 'es-ES': 'Error al enviar DTMF' },
  press_key: { 'pt-BR': 'Erro ao pressionar tecla', 'en-US': 'Error pressing a key', 'es-ES': 'Error al pulsar una tecla' },
  backspace: { 'pt-BR': 'Erro ao apagar dígito', 'en-US': 'Error deleting a digit', 'es-ES': 'Error al borrar un dígito' },
  dial: { 'pt-BR': 'Erro ao discar', 'en-US': 'Error dialling', 'es-ES': 'Error al marcar' },
  contacts: { 'pt-BR': 'Erro nos contatos', 'en-US': 'Contacts error', 'es-ES': 'Error en los contactos' },
  settings: { 'pt-BR': 'Erro nas configurações', 'en-US': 'Settings error', 'es-ES': 'Error en la configuración' },
  cancel_transfer: { 'pt-BR': 'Erro ao cancelar a transferência', 'en-US': 'Error cancelling the transfer', 'es-ES': 'Error al cancelar la transferencia' },
  confirm_transfer: { 'pt-BR': 'Erro ao confirmar a transferência', 'en-US': 'Error confirming the transfer', 'es-ES': 'Error al confirmar la transferencia' },
  dialpad: { 'pt-BR': 'Erro no teclado', 'en-US': 'Dialpad error', 'es-ES': 'Error en el teclado' },
  classification: { 'pt-BR': 'Erro na classificação', 'en-US': 'Classification error', 'es-ES': 'Error en la clasificación' },
  save_form: { 'pt-BR': 'Erro ao salvar o formulário', 'en-US': 'Error saving the form', 'es-ES': 'Error al guardar el formulario' },
} as const satisfies Record<SoftphoneErrorCode, Record<Locale, string>>

export function isSoftphoneErrorCode(value: unknown): value is SoftphoneErrorCode {
  return typeof value === 'string' && Object.hasOwn(SOFTPHONE_ERROR_LABELS, value)
}

/** The alert title of an internal error; an unknown code is shown raw. */
export function softphoneErrorLabel(code: string, locale?: Locale | string | null): string {
  return isSoftphoneErrorCode(code) ? localize(SOFTPHONE_ERROR_LABELS[code], locale) : code
}
