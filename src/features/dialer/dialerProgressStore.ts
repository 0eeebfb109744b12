import { useSyncExternalStore } from 'react'
import type { CampaignProgress } from '../../../contract/api/dialer.ts'

// The latest `dialerProgress` frame per campaign (the service socket's supervisors feed, src/agent/slices/wallboard.ts
// routes it here); the campaign panel reads it, and its REST answer fills it before the first frame.

const progress = new Map<number, CampaignProgress>()
const listeners = new Set<() => void>()

export const dialerProgressStore = {
  apply(frame: CampaignProgress & { action?: string }): void {
    const { action: _action, ...value } = frame
    progress.set(value.campaign, value)
    for (const listener of listeners) listener()
  },
  get(campaign: number): CampaignProgress | undefined {
    return progress.get(campaign)
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export function useCampaignProgress(campaign: number): CampaignProgress | undefined {
  return useSyncExternalStore(dialerProgressStore.subscribe, () => dialerProgressStore.get(campaign))
}
