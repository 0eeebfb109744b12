import type { AppDeps } from '../deps.ts'
import type { ChannelDriver, ChannelType } from './types.ts'

// SKELETON (issue 13, owner chatcore): channel drivers and the outbox dispatcher.

const drivers = new Map<ChannelType, ChannelDriver>()

/** Channels call this once when their module loads (server/channels/index.ts imports them). */
export function registerChannelDriver(driver: ChannelDriver): void {
  drivers.set(driver.type, driver)
}

export function channelDriver(type: ChannelType): ChannelDriver | undefined {
  return drivers.get(type)
}

/** Something was queued: dispatch now rather than at the next poll. */
export function wakeOutbox(_deps: AppDeps): void {}
