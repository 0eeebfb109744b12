import type { AppDeps } from '../../deps.ts'

// SKELETON (owner chatacd; the lead merges the real one): a new room's inbound rule. Leaves the room 'new'.

export async function routeNewRoom(_deps: AppDeps, _roomId: number): Promise<void> {}
