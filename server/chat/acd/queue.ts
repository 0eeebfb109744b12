import type { AppDeps } from '../../deps.ts'

// SKELETON (owner chatacd; the lead merges the real one): an agent's room ended, their capacity frees up.

export async function roomReleased(_deps: AppDeps, _room: { id: number; siteId: number; userId: number | null }): Promise<void> {}
