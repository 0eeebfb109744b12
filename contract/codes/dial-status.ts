import type { Locale } from '../locales.ts'
import { codeLabel, type Texts } from './localize.ts'

// Spec 000 §4 — the dial status of a call (SIP-like codes extended with the dialer's call-analysis results). Several
// codes share one meaning, so the shared texts are named once.
const IN_PROGRESS: Texts = { 'pt-BR': 'Em andamento', 'en-US': 'In progress', 'es-ES': 'En curso' }
const NOT_ACCEPTED: Texts = { 'pt-BR': 'Não aceita', 'en-US': 'Not accepted', 'es-ES': 'No aceptada' }
const REJECTED: Texts = { 'pt-BR': 'Rejeitada', 'en-US': 'Rejected', 'es-ES': 'Rechazada' }

export const DIAL_STATUS_LABELS = {
  100: { 'pt-BR': 'Tentativa de chamada', 'en-US': 'Call attempt', 'es-ES': 'Intento de llamada' },
  180: IN_PROGRESS,
  183: IN_PROGRESS,
  200: { 'pt-BR': 'Atendida', 'en-US': 'Answered', 'es-ES': 'Contestada' },
  380: { 'pt-BR': 'Transbordada', 'en-US': 'Overflowed', 'es-ES': 'Desbordada' },
  400: { 'pt-BR': 'Inválida', 'en-US': 'Invalid', 'es-ES': 'No válida' },
  401: { 'pt-BR': 'Não autorizada', 'en-US': 'Unauthorized', 'es-ES': 'No autorizada' },
  402: { 'pt-BR': 'Pagamento exigido', 'en-US': 'Payment required', 'es-ES': 'Pago requerido' },
  403: { 'pt-BR': 'Proibida', 'en-US': 'Forbidden', 'es-ES': 'Prohibida' },
  404: { 'pt-BR': 'Número inexistente', 'en-US': 'Number does not exist', 'es-ES': 'Número inexistente' },
  405: NOT_ACCEPTED,
  406: NOT_ACCEPTED,
  407: { 'pt-BR': 'Autorização exigida', 'en-US': 'Authorization required', 'es-ES': 'Autorización requerida' },
  408: { 'pt-BR': 'Encerrada', 'en-US': 'Terminated', 'es-ES': 'Finalizada' },
  480: { 'pt-BR': 'Não atendida', 'en-US': 'Not answered', 'es-ES': 'No contestada' },
  481: { 'pt-BR': 'Em transição', 'en-US': 'In transition', 'es-ES': 'En transición' },
  482: { 'pt-BR': 'Loop detectado', 'en-US': 'Loop detected', 'es-ES': 'Bucle detectado' },
  483: { 'pt-BR': 'Excesso de saltos', 'en-US': 'Too many hops', 'es-ES': 'Demasiados saltos' },
  484: { 'pt-BR': 'Endereço incompleto', 'en-US': 'Incomplete address', 'es-ES': 'Dirección incompleta' },
  486: { 'pt-BR': 'Destino ocupado', 'en-US': 'Destination busy', 'es-ES': 'Destino ocupado' },
  487: { 'pt-BR': 'Cancelada ou tempo esgotado', 'en-US': 'Cancelled or timed out', 'es-ES': 'Cancelada o tiempo agotado' },
  488: NOT_ACCEPTED,
  500: { 'pt-BR': 'Erro interno do servidor', 'en-US': 'Internal server error', 'es-ES': 'Error interno del servidor' },
  502: REJECTED,
  503: { 'pt-BR': 'Serviço indisponível', 'en-US': 'Service unavailable', 'es-ES': 'Servicio no disponible' },
  504: { 'pt-BR': 'Cancelada', 'en-US': 'Cancelled', 'es-ES': 'Cancelada' },
  510: { 'pt-BR': 'Fax detectado', 'en-US': 'Fax detected', 'es-ES': 'Fax detectado' },
  511: { 'pt-BR': 'Mudança de linha', 'en-US': 'Line change', 'es-ES': 'Cambio de línea' },
  531: { 'pt-BR': 'Gravação eletrônica', 'en-US': 'Electronic recording', 'es-ES': 'Grabación electrónica' },
  550: { 'pt-BR': 'Mensagem da operadora', 'en-US': 'Operator message', 'es-ES': 'Mensaje de la operadora' },
  551: { 'pt-BR': 'Chamada muda', 'en-US': 'Silent call', 'es-ES': 'Llamada silenciosa' },
  552: { 'pt-BR': 'Caixa postal', 'en-US': 'Voicemail', 'es-ES': 'Buzón de voz' },
  559: { 'pt-BR': 'Análise incerta', 'en-US': 'Uncertain analysis', 'es-ES': 'Análisis incierto' },
  600: { 'pt-BR': 'Servidor ocupado', 'en-US': 'Server busy', 'es-ES': 'Servidor ocupado' },
  603: REJECTED,
  606: REJECTED,
  608: REJECTED,
  609: { 'pt-BR': 'Cancelada por lista de bloqueio', 'en-US': 'Cancelled by blacklist', 'es-ES': 'Cancelada por lista de bloqueo' },
} as const satisfies Record<number, Record<Locale, string>>

export type DialStatusCode = keyof typeof DIAL_STATUS_LABELS

/** Every known dial status code, ascending. */
export const DIAL_STATUS_CODES: readonly DialStatusCode[] = Object.keys(DIAL_STATUS_LABELS)
  .map(Number)
  .sort((a, b) => a - b) as DialStatusCode[]

export function isDialStatusCode(code: unknown): code is DialStatusCode {
  return typeof code === 'number' && Object.hasOwn(DIAL_STATUS_LABELS, code)
}

/** The label of a dial status; an unknown code is shown raw (spec 000 §4), an absent one as ''. */
export function dialStatusLabel(code: number | string | null | undefined, locale?: Locale | string | null): string {
  return codeLabel(DIAL_STATUS_LABELS, code, locale)
}
