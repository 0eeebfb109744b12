import type { Locale } from '../locales.ts'
import { DEFAULT_LOCALE } from '../locales.ts'
import { MESSAGES } from '../messages.ts'

// Validation messages of the settings forms that contract/messages.ts does not hold, three languages side by side.
// The spec gives the pt-BR texts of the date message (001 §5); the others are ours.
export const ENTITY_MESSAGES = {
  invalidDate: { 'pt-BR': 'Data inválida ou não preenchida', 'en-US': 'Invalid or missing date', 'es-ES': 'Fecha no válida o no indicada' },
  invalidDateFormat: {
    'pt-BR': 'Formato de data inválido: use DD, MM, YYYY, HH, mm, ss e separadores, ex.: DD/MM/YYYY HH:mm',
    'en-US': 'Invalid date format: use DD, MM, YYYY, HH, mm, ss and separators, e.g. DD/MM/YYYY HH:mm',
    'es-ES': 'Formato de fecha no válido: use DD, MM, YYYY, HH, mm, ss y separadores, p. ej. DD/MM/YYYY HH:mm',
  },
  invalidTime: { 'pt-BR': 'Hora inválida (use HH:mm)', 'en-US': 'Invalid time (use HH:mm)', 'es-ES': 'Hora no válida (use HH:mm)' },
  invalidNumber: { 'pt-BR': 'Informe um número', 'en-US': 'Enter a number', 'es-ES': 'Introduzca un número' },
  notInteger: { 'pt-BR': 'Informe um número inteiro', 'en-US': 'Enter a whole number', 'es-ES': 'Introduzca un número entero' },
  minValue: {
    'pt-BR': 'Este valor é menor do que o mínimo permitido que é {n}',
    'en-US': 'This value is below the allowed minimum of {n}',
    'es-ES': 'Este valor es menor que el mínimo permitido de {n}',
  },
  maxValue: {
    'pt-BR': 'Este valor é maior do que o máximo permitido que é {n}',
    'en-US': 'This value is above the allowed maximum of {n}',
    'es-ES': 'Este valor es mayor que el máximo permitido de {n}',
  },
  minItems: { 'pt-BR': 'Escolha pelo menos {n}', 'en-US': 'Choose at least {n}', 'es-ES': 'Elija al menos {n}' },
  maxItems: { 'pt-BR': 'Escolha no máximo {n}', 'en-US': 'Choose at most {n}', 'es-ES': 'Elija como máximo {n}' },
  invalidOption: { 'pt-BR': 'Opção inválida', 'en-US': 'Invalid option', 'es-ES': 'Opción no válida' },
  invalidReference: { 'pt-BR': 'Registro inválido', 'en-US': 'Invalid record', 'es-ES': 'Registro no válido' },
  invalidDestination: { 'pt-BR': 'Destino inválido', 'en-US': 'Invalid destination', 'es-ES': 'Destino no válido' },
  duplicateValue: { 'pt-BR': 'Valor repetido: {value}', 'en-US': 'Repeated value: {value}', 'es-ES': 'Valor repetido: {value}' },
  invalidPhone: { 'pt-BR': 'Telefone inválido', 'en-US': 'Invalid phone number', 'es-ES': 'Teléfono no válido' },
  invalidPhonesList: {
    'pt-BR': 'Telefones incompletos ou inválidos: {phones}. Informe código do país, DDD e número, separados por vírgula',
    'en-US': 'Incomplete or invalid phone numbers: {phones}. Enter country code, area code and number, separated by commas',
    'es-ES': 'Teléfonos incompletos o no válidos: {phones}. Indique código de país, código de área y número, separados por comas',
  },
  invalidCpf: { 'pt-BR': 'CPF inválido', 'en-US': 'Invalid CPF', 'es-ES': 'CPF no válido' },
  invalidCnpj: { 'pt-BR': 'CNPJ inválido', 'en-US': 'Invalid CNPJ', 'es-ES': 'CNPJ no válido' },
  invalidDocument: { 'pt-BR': 'CPF ou CNPJ inválido', 'en-US': 'Invalid CPF or CNPJ', 'es-ES': 'CPF o CNPJ no válido' },
  invalidExtension: {
    'pt-BR': 'Ramal inválido: use 5 dígitos, de 10000 a 99999',
    'en-US': 'Invalid extension: use 5 digits, 10000 to 99999',
    'es-ES': 'Extensión no válida: use 5 dígitos, de 10000 a 99999',
  },
  invalidColor: { 'pt-BR': 'Cor inválida (use #RRGGBB)', 'en-US': 'Invalid colour (use #RRGGBB)', 'es-ES': 'Color no válido (use #RRGGBB)' },
  invalidUrl: {
    'pt-BR': 'Endereço inválido: use http:// ou https://',
    'en-US': 'Invalid address: use http:// or https://',
    'es-ES': 'Dirección no válida: use http:// o https://',
  },
  invalidOrigin: {
    'pt-BR': 'Origem inválida: use https://servidor[:porta], sem caminho',
    'en-US': 'Invalid origin: use https://host[:port], without a path',
    'es-ES': 'Origen no válido: use https://servidor[:puerto], sin ruta',
  },
  invalidHost: {
    'pt-BR': 'Servidor inválido: informe um nome ou um IP',
    'en-US': 'Invalid host: enter a name or an IP address',
    'es-ES': 'Servidor no válido: indique un nombre o una IP',
  },
  invalidDialPatterns: {
    'pt-BR': 'Padrões de discagem inválidos: {patterns}',
    'en-US': 'Invalid dial patterns: {patterns}',
    'es-ES': 'Patrones de marcación no válidos: {patterns}',
  },
  protectedReference: {
    'pt-BR': 'Não é possível excluir: o registro está em uso em {where}.',
    'en-US': 'Cannot delete: the record is in use in {where}.',
    'es-ES': 'No se puede eliminar: el registro está en uso en {where}.',
  },
  // The server's answers to settings requests (server/entities).
  alreadyExists: {
    'pt-BR': 'Já existe um registro com este valor.',
    'en-US': 'A record with this value already exists.',
    'es-ES': 'Ya existe un registro con este valor.',
  },
  cannotRemoveOwn: {
    'pt-BR': 'Não é possível excluir ou desativar o próprio usuário nem o site em uso.',
    'en-US': 'You cannot delete or deactivate your own user or the site you are using.',
    'es-ES': 'No puede eliminar ni desactivar su propio usuario ni el sitio en uso.',
  },
  invalidFileType: {
    'pt-BR': 'Tipo de arquivo não aceito. Envie: {types}.',
    'en-US': 'File type not accepted. Upload: {types}.',
    'es-ES': 'Tipo de archivo no aceptado. Envíe: {types}.',
  },
  unreadableAudio: {
    'pt-BR': 'Não foi possível ler este áudio. Envie um arquivo wav, mp3 ou ogg válido.',
    'en-US': 'This audio cannot be read. Upload a valid wav, mp3 or ogg file.',
    'es-ES': 'No se puede leer este audio. Envíe un archivo wav, mp3 u ogg válido.',
  },
  tooManyFiles: {
    'pt-BR': 'Uma interação guarda no máximo {n} arquivos.',
    'en-US': 'An interaction keeps at most {n} files.',
    'es-ES': 'Una interacción guarda como máximo {n} archivos.',
  },
  fileTooLarge: {
    'pt-BR': 'O arquivo é maior do que o permitido ({n} MB).',
    'en-US': 'The file is larger than allowed ({n} MB).',
    'es-ES': 'El archivo es mayor de lo permitido ({n} MB).',
  },
  csvInvalid: {
    'pt-BR': 'Envie um arquivo CSV em UTF-8 com uma linha de cabeçalho.',
    'en-US': 'Upload a UTF-8 CSV file with a header row.',
    'es-ES': 'Envíe un archivo CSV en UTF-8 con una fila de encabezado.',
  },
  csvTooManyRows: {
    'pt-BR': 'O arquivo tem mais linhas do que o permitido ({n}).',
    'en-US': 'The file has more rows than allowed ({n}).',
    'es-ES': 'El archivo tiene más filas de las permitidas ({n}).',
  },
  csvLineTooLong: {
    'pt-BR': 'A linha {line} do arquivo é maior do que o permitido ({n} caracteres).',
    'en-US': 'Line {line} of the file is longer than allowed ({n} characters).',
    'es-ES': 'La línea {line} del archivo es más larga de lo permitido ({n} caracteres).',
  },
  csvUnknownColumn: {
    'pt-BR': 'Coluna desconhecida: {column}.',
    'en-US': 'Unknown column: {column}.',
    'es-ES': 'Columna desconocida: {column}.',
  },
  csvNoColumns: {
    'pt-BR': 'Associe pelo menos uma coluna do arquivo a um campo.',
    'en-US': 'Map at least one column of the file to a field.',
    'es-ES': 'Asocie al menos una columna del archivo a un campo.',
  },
} as const satisfies Record<string, Record<Locale, string>>

/** The shared messages the settings forms reuse (spec 000 §5 texts). */
const SHARED = {
  required: MESSAGES.required,
  minLength: MESSAGES.minLength,
  maxLength: MESSAGES.maxLength,
  invalidValue: MESSAGES.invalidValue,
  invalidEmail: MESSAGES.invalidEmail,
} as const

export type EntityMessageKey = keyof typeof ENTITY_MESSAGES | keyof typeof SHARED

/** The text of a message in a language (pt-BR when it names none), with `{name}` placeholders filled. */
export function entityMessage(key: EntityMessageKey, lang?: string, params: Readonly<Record<string, string | number>> = {}): string {
  const texts: Record<string, string> = key in SHARED ? SHARED[key as keyof typeof SHARED] : ENTITY_MESSAGES[key as keyof typeof ENTITY_MESSAGES]
  const text = texts[lang ?? DEFAULT_LOCALE] ?? texts[DEFAULT_LOCALE]!
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`))
}
