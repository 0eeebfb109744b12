import { isCompletePhone } from '../../../contract/entities/validators.ts'
import { e164 } from '../../../contract/phone.ts'

// One CSV row → one lead, by a layout (pure: no database, no files). Columns the layout names are matched to the
// header case-insensitively; columns it maps to nothing are kept in the lead's `data`.

export type Layout = { name: string; surname: string; phones: string[] }

export type ColumnPlan = {
  name: number
  surname: number
  phones: number[]
  /** The other columns, by index, under their header name. */
  extra: [number, string][]
}

export type RowError = { field: 'name' | 'phones'; code: 'required' | 'invalidPhone'; value?: string }

export type LeadValues = { name: string; surname: string; phones: string; data: string }

/** The header indexes of a layout's columns, or the first column the header lacks. */
export function planColumns(header: string[], layout: Layout): ColumnPlan | { missing: string } {
  const index = new Map<string, number>()
  header.forEach((h, i) => {
    const key = h.trim().toLowerCase()
    if (!index.has(key)) index.set(key, i)
  })
  const find = (column: string) => index.get(column.trim().toLowerCase())
  const name = find(layout.name)
  if (name === undefined) return { missing: layout.name }
  let surname = -1
  if (layout.surname.trim()) {
    const found = find(layout.surname)
    if (found === undefined) return { missing: layout.surname }
    surname = found
  }
  const phones: number[] = []
  for (const column of layout.phones) {
    const found = find(column)
    if (found === undefined) return { missing: column }
    phones.push(found)
  }
  const used = new Set([name, surname, ...phones])
  const extra: [number, string][] = header.flatMap((h, i) => (used.has(i) || !h.trim() ? [] : [[i, h.trim()] as [number, string]]))
  return { name, surname, phones, extra }
}

/** The lead a row makes, or why it makes none. */
export function leadOf(row: string[], plan: ColumnPlan): { lead: LeadValues } | { errors: RowError[] } {
  const errors: RowError[] = []
  const name = (row[plan.name] ?? '').trim()
  if (!name) errors.push({ field: 'name', code: 'required' })
  const phones: string[] = []
  for (const i of plan.phones) {
    const raw = (row[i] ?? '').trim()
    if (!raw) continue
    const phone = e164(raw)
    if (!phone || !isCompletePhone(phone)) errors.push({ field: 'phones', code: 'invalidPhone', value: raw })
    else if (!phones.includes(phone)) phones.push(phone)
  }
  if (phones.length === 0 && !errors.some((e) => e.field === 'phones')) errors.push({ field: 'phones', code: 'required' })
  if (errors.length) return { errors }
  const data: Record<string, string> = {}
  for (const [i, key] of plan.extra) {
    const value = row[i]
    // jsonb holds no NUL (its \u0000 escape is refused): a stray one is dropped rather than failing the file.
    if (value) data[key] = value.includes('\0') ? value.replaceAll('\0', '') : value
  }
  return {
    lead: {
      name: name.slice(0, 255),
      surname: plan.surname >= 0 ? (row[plan.surname] ?? '').trim().slice(0, 255) : '',
      phones: phones.join(';'),
      data: JSON.stringify(data),
    },
  }
}
