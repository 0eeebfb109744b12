import { expect } from '@playwright/test'
import type { Page } from '@playwright/test'

// WebRTC audio of a page's calls, for the telephony specs: pass CAPTURE_PEER_CONNECTIONS to the context's
// addInitScript, then read the page's peer connections' stats.

export const CAPTURE_PEER_CONNECTIONS = () => {
  const Native = window.RTCPeerConnection
  const made: RTCPeerConnection[] = []
  ;(window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = made
  window.RTCPeerConnection = class extends Native {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args)
      made.push(this)
    }
  } as typeof RTCPeerConnection
}

type AudioStats = { received: number; energy: number; sent: number; state: string }

/** Audio of the page's live peer connections (the newest first): inbound packets and energy, outbound packets. */
export async function audioStats(page: Page): Promise<AudioStats[]> {
  return page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs ?? []
    const out: AudioStats[] = []
    for (const pc of [...pcs].reverse()) {
      if (pc.connectionState === 'closed') continue
      const stats = await pc.getStats()
      let received = 0
      let energy = 0
      let sent = 0
      stats.forEach((report: Record<string, unknown>) => {
        if (report.type === 'inbound-rtp' && report.kind === 'audio') {
          received += Number(report.packetsReceived ?? 0)
          energy += Number(report.totalAudioEnergy ?? 0)
        }
        if (report.type === 'outbound-rtp' && report.kind === 'audio') sent += Number(report.packetsSent ?? 0)
      })
      out.push({ received, energy, sent, state: pc.connectionState })
    }
    return out
  })
}

/** The newest live call of the page receives audio: packets growing and some energy. */
export async function expectAudioFlowing(page: Page) {
  let first: AudioStats | undefined
  await expect
    .poll(
      async () => {
        first = (await audioStats(page))[0]
        return first?.received ?? 0
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0)
  await expect.poll(async () => (await audioStats(page))[0]?.received ?? 0, { timeout: 10_000 }).toBeGreaterThan(first!.received + 10)
  await expect.poll(async () => (await audioStats(page))[0]?.energy ?? 0, { timeout: 10_000 }).toBeGreaterThan(0)
  await expect.poll(async () => (await audioStats(page))[0]?.sent ?? 0, { timeout: 10_000 }).toBeGreaterThan(10)
}
