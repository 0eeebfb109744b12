import { CALL_TYPE_GROUPS, CALL_TYPE_LABELS, CALL_TYPES } from '../codes/index.ts'
import { LOCALES } from '../locales.ts'
import { opt, t } from './define.ts'
import type { Option } from './types.ts'

// Choice lists shared by several entities.

/** Spec 000 §3: the eight distribution strategies (values as the ACD names them). */
export const QUEUE_STRATEGIES: readonly Option[] = [
  opt('ringall', 'Tocar todos', 'Ring all', 'Sonar todos'),
  opt('leastrecent', 'Mais tempo ocioso', 'Longest idle', 'Mayor tiempo inactivo'),
  opt('fewestcalls', 'Menos chamadas', 'Fewest calls', 'Menos llamadas'),
  opt('random', 'Aleatório', 'Random', 'Aleatorio'),
  opt('wrandom', 'Aleatório com peso', 'Weighted random', 'Aleatorio ponderado'),
  opt('rrmemory', 'Igualitário com memória', 'Equal with memory', 'Equitativo con memoria'),
  opt('rrordered', 'Igualitário por login', 'Equal by login', 'Equitativo por inicio de sesión'),
  opt('linear', 'Linear por login', 'Linear by login', 'Lineal por inicio de sesión'),
]

/** Browser legs stay on G.711 (TELEPHONY.md): PCMU/PCMA first. */
export const CODECS: readonly Option[] = ['PCMU', 'PCMA', 'G722', 'opus', 'G729'].map((c) => opt(c, c, c, c))

export const SIP_TRANSPORTS: readonly Option[] = ['udp', 'tcp', 'tls', 'ws', 'wss'].map((c) => opt(c, c.toUpperCase(), c.toUpperCase(), c.toUpperCase()))

export const DTMF_MODES: readonly Option[] = [
  opt('rfc4733', 'RFC 4733 (RTP)', 'RFC 4733 (RTP)', 'RFC 4733 (RTP)'),
  opt('info', 'SIP INFO', 'SIP INFO', 'SIP INFO'),
  opt('inband', 'Na banda (áudio)', 'In-band (audio)', 'En banda (audio)'),
]

export const RECORDING_MODES: readonly Option[] = [
  opt('never', 'Nunca', 'Never', 'Nunca'),
  opt('always', 'Sempre', 'Always', 'Siempre'),
  opt('inbound', 'Somente recebidas', 'Inbound only', 'Solo entrantes'),
  opt('outbound', 'Somente realizadas', 'Outbound only', 'Solo salientes'),
]

export const WEEKDAYS: readonly Option[] = [
  opt(0, 'Domingo', 'Sunday', 'Domingo'),
  opt(1, 'Segunda-feira', 'Monday', 'Lunes'),
  opt(2, 'Terça-feira', 'Tuesday', 'Martes'),
  opt(3, 'Quarta-feira', 'Wednesday', 'Miércoles'),
  opt(4, 'Quinta-feira', 'Thursday', 'Jueves'),
  opt(5, 'Sexta-feira', 'Friday', 'Viernes'),
  opt(6, 'Sábado', 'Saturday', 'Sábado'),
]

/** Languages of prompts and messages: the interface's three. */
export const LANGUAGES: readonly Option[] = LOCALES.map((l) => opt(l, l, l, l))

/**
 * A team's enable_classifications: a call type group ('10-19') or a single call type ('12'), as
 * callTypeMatchesKinds reads them.
 */
export const CLASSIFICATION_KINDS: readonly Option[] = [
  ...Object.values(CALL_TYPE_GROUPS).map((g) => ({ value: g.kind, text: g.label })),
  // 12 and 14 share a label; the code tells them apart.
  ...CALL_TYPES.map((code) => {
    const label = CALL_TYPE_LABELS[code]
    return opt(String(code), `${code} — ${label['pt-BR']}`, `${code} — ${label['en-US']}`, `${code} — ${label['es-ES']}`)
  }),
]

/** Who a rule applies to: telephony or chat. */
export const CHANNELS: readonly Option[] = [opt('telephony', 'Telefonia', 'Telephony', 'Telefonía'), opt('chat', 'Chat', 'Chat', 'Chat')]

export const NO_LIMIT = t('0 = sem limite', '0 = no limit', '0 = sin límite')

/** A team's after_service_mode (contract/codes/after-service.ts): the spec's countdown or one of Genesys' wrap-up modes. */
export const AFTER_SERVICE_MODE_OPTIONS: readonly Option[] = [
  opt('spec', 'Contagem regressiva (padrão)', 'Countdown (default)', 'Cuenta regresiva (predeterminado)'),
  opt('optional', 'Opcional, sem limite de tempo', 'Optional, no time limit', 'Opcional, sin límite de tiempo'),
  opt('mandatory', 'Obrigatório: termina após a classificação', 'Mandatory: ends after the classification', 'Obligatorio: termina tras la clasificación'),
  opt('mandatory_timeout', 'Obrigatório com tempo limite', 'Mandatory, time-boxed', 'Obligatorio con tiempo límite'),
  opt('mandatory_timeout_no_exit', 'Tempo limite sem saída antecipada', 'Time-boxed, no early exit', 'Tiempo límite sin salida anticipada'),
]
