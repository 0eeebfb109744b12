// The 24-hour customer-service window (WHATSAPP.md §A1.7): a customer's message opens it for 24 hours and each new
// one resets it; outside it only approved templates go out. It is counted from the inbound message's own timestamp
// (not when the webhook reached us, which can be late), minus a safety margin so we stop offering free text a little
// before Meta would refuse it with 131047.

export const WINDOW_MS = 24 * 60 * 60 * 1000
export const DEFAULT_WINDOW_MARGIN_MS = 5 * 60 * 1000

/** Meta's "Re-engagement message": the window closed. 470 is the code it superseded. */
export const WINDOW_CLOSED_CODES: readonly number[] = [131047, 470]

export type ServiceWindow = {
  open: boolean
  /** When free text stops being allowed (margin already taken off); null when no customer message exists. */
  closesAt: Date | null
}

export function serviceWindow(lastInboundAt: Date | null | undefined, now: Date, marginMs = DEFAULT_WINDOW_MARGIN_MS): ServiceWindow {
  if (!lastInboundAt) return { open: false, closesAt: null }
  const closesAt = new Date(lastInboundAt.getTime() + WINDOW_MS - marginMs)
  return { open: now.getTime() < closesAt.getTime(), closesAt }
}

/** Whether Meta refused (synchronously, or later in a failed status) because the window had closed. */
export function isWindowClosed(code: number | null | undefined): boolean {
  return code != null && WINDOW_CLOSED_CODES.includes(code)
}
