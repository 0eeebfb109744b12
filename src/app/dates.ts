import { i18n } from '@lingui/core'
import 'dayjs/locale/pt-br'
import 'dayjs/locale/es'
import type { Locale } from '../../contract/locales.ts'
import { dayjs } from '../../contract/format/dayjs.ts'

// The contract's date helpers for the SPA, with dayjs following the active language. Pages that show dates import
// them from here, so dayjs and its locales load with those pages and stay off the sign-in page.
const DAYJS_LOCALE: Record<Locale, string> = { 'pt-BR': 'pt-br', 'en-US': 'en', 'es-ES': 'es' }

function followLanguage() {
  dayjs.locale(DAYJS_LOCALE[i18n.locale as Locale] ?? DAYJS_LOCALE['pt-BR'])
}
followLanguage()
i18n.on('change', followLanguage)

export { dayjs }
export { formatDate, formatDateTime, parseDateInput, toDayjs } from '../../contract/format/dates.ts'
export type { DateValue } from '../../contract/format/dates.ts'
export type { Dayjs } from '../../contract/format/dayjs.ts'
