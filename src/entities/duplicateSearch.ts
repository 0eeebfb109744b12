// Kept apart from the registry so a home's route file can read its search without loading contract/entities.

/** `?duplicate_id=` of a create page: a positive integer, or nothing. */
export function duplicateSearch(search: Record<string, unknown>): { duplicate_id?: number } {
  const id = Number(search.duplicate_id)
  return Number.isInteger(id) && id > 0 ? { duplicate_id: id } : {}
}
