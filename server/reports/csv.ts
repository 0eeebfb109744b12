// A small CSV writer (RFC 4180 quoting) for the report exports. Cells a spreadsheet would run as a formula (starting
// with =, +, -, @, a tab or a carriage return) are prefixed with an apostrophe, so a customer's name such as
// `=HYPERLINK(...)` is shown as text, never evaluated (OWASP "CSV injection"). Only text from outside is guarded:
// numbers and durations the server wrote itself are left as they are.

/** The separator a spreadsheet of that language expects: `;` where the decimal comma is used (pt-BR, es-ES). */
export function csvSeparator(lang: string): ',' | ';' {
  return lang === 'en-US' ? ',' : ';'
}

const FORMULA = /^[=+\-@\t\r]/

export function csvCell(value: string, separator: string, guard: boolean): string {
  let text = value
  if (guard && FORMULA.test(text)) text = `'${text}`
  if (text.includes('"') || text.includes(separator) || text.includes('\n') || text.includes('\r')) return `"${text.replace(/"/g, '""')}"`
  return text
}

/** A byte-order mark: spreadsheets then read the file as UTF-8 (accents in names and reasons). */
export const CSV_BOM = '\uFEFF'
