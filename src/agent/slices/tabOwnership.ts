import { sendTo } from 'xstate'
import { tabMessageToEvent, tabOwnershipMachine } from '../../../machines/tabOwnership.machine.ts'
import type { TabMessage } from '../../../machines/tabOwnership.machine.ts'
import { defineSlice, serviceSocketRef, socketEvent } from '../slice.ts'

// Which tab serves (spec 000 §4, 001 §4): tabs of one browser agree over a BroadcastChannel, the server decides across
// browsers with startService / serviceElsewhere.

export const BROADCAST_CHANNEL_NAME = 'atende-service'

export const tabOwnershipSlice = defineSlice('tabOwnership', ({ options, effects, actor }) => {
  // Opened before the actor starts: its first `who_serves` goes out on it. Null without BroadcastChannel: the server
  // alone then decides which tab serves.
  const channel = effects.openChannel(BROADCAST_CHANNEL_NAME)
  return {
    logic: tabOwnershipMachine.provide({
      actions: {
        broadcast: (_, message: TabMessage) => channel?.postMessage(message),
        sendSocket: sendTo(serviceSocketRef, socketEvent),
        stopPhone: () => effects.stopPhone(),
        reload: () => effects.reload(),
      },
    }),
    input: () => ({ tabId: options.tabId }),
    socket: {
      startService: () => [{ to: 'tabOwnership', event: { type: 'START_SERVICE' } }],
      serviceElsewhere: () => [{ to: 'tabOwnership', event: { type: 'SERVICE_ELSEWHERE' } }],
    },
    start: () => {
      if (!channel) return
      channel.onmessage = (event) => {
        const tabEvent = tabMessageToEvent(event.data, options.tabId)
        if (tabEvent) actor('tabOwnership').send(tabEvent)
      }
      return () => {
        channel.onmessage = null
        channel.close()
      }
    },
  }
})
