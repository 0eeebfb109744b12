// WhatsApp's customer service window (WHATSAPP.md §A1.7): free text may go to a customer only within 24 hours of
// their last message; after that only a template. The margin closes the window a little early, so a message queued
// at 23:59:59 is not refused by the provider once it leaves the outbox.

export const WINDOW_MS = 24 * 60 * 60 * 1000

/** Default margin (ms) before the provider's limit; CHAT_WINDOW_MARGIN_SECONDS overrides it. */
export const DEFAULT_WINDOW_MARGIN_MS = (() => {
  const seconds = Number(process.env.CHAT_WINDOW_MARGIN_SECONDS)
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000
})()

/** True when the customer's last message (null: none yet) still allows free text at `now`. */
export function windowOpen(lastClientMessageAt: Date | null, now: Date = new Date(), marginMs: number = DEFAULT_WINDOW_MARGIN_MS): boolean {
  if (!lastClientMessageAt) return false
  return now.getTime() < lastClientMessageAt.getTime() + WINDOW_MS - marginMs
}
