import type { Entity } from '../../../contract/entities/index.ts'
import { LOCALES } from '../../../contract/locales.ts'

// The column → field mapping an import starts from: a header matches a field when, ignoring case, accents and
// punctuation, it equals the field's name or its label in any of the three languages ("Razão social", "document").

export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

export function suggestMapping(entity: Entity, header: readonly string[]): Record<string, string> {
  const names = new Map<string, string>()
  for (const column of entity.importable?.columns ?? []) {
    const field = entity.fields.find((f) => f.name === column)!
    names.set(normalise(column), column)
    for (const lang of LOCALES) if (!names.has(normalise(field.label[lang]))) names.set(normalise(field.label[lang]), column)
  }
  const mapping: Record<string, string> = {}
  const used = new Set<string>()
  for (const column of header) {
    const field = names.get(normalise(column))
    if (field && !used.has(field)) {
      mapping[column] = field
      used.add(field)
    }
  }
  return mapping
}
