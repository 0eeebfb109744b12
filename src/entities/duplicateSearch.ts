// Kept apart from the registry so a home's route file can read its search without loading contract/entities.

/**
 * `?duplicate_id=` of a create page: a positive integer, or nothing; and `?phone=`, a number the new record's phones
 * start with (the caller card's 'create client' for an unknown number).
 */
export function duplicateSearch(search: Record<string, unknown>): { duplicate_id?: number; phone?: string } {
  const id = Number(search.duplicate_id)
  const phone = typeof search.phone === 'string' || typeof search.phone === 'number' ? String(search.phone).slice(0, 40) : ''
  return { ...(Number.isInteger(id) && id > 0 ? { duplicate_id: id } : {}), ...(phone ? { phone } : {}) }
}
