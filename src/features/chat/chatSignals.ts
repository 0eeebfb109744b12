import { createStore } from '../../app/store.ts'

// What the chat room actors signal to the views through their effects (spec 001 §4): the rooms ringing in the queue
// (the top bar's cards), the seconds left of an ended room's countdown, and the unread-bar retries. Written only by
// the actors' effects (chatEffects.ts), read by the views.

export type ChatSignals = {
  /** Rooms ringing in the queue, oldest first. */
  ringing: number[]
  /** Seconds left before an ended room is removed. */
  countdown: Record<number, number>
  /** Bumped on every unread-bar retry of a room (the view tries to scroll again). */
  unreadRetry: Record<number, number>
  /** Rooms whose customer is typing now. */
  typing: number[]
}

export const chatSignals = createStore<ChatSignals>({ ringing: [], countdown: {}, unreadRetry: {}, typing: [] })

export function setRinging(stepId: number, ringing: boolean): void {
  chatSignals.set((state) => ({
    ...state,
    ringing: ringing ? (state.ringing.includes(stepId) ? state.ringing : [...state.ringing, stepId]) : state.ringing.filter((id) => id !== stepId),
  }))
}

export function setCountdown(stepId: number, secondsLeft: number | null): void {
  chatSignals.set((state) => {
    const { [stepId]: _gone, ...countdown } = state.countdown
    return { ...state, countdown: secondsLeft === null ? countdown : { ...countdown, [stepId]: secondsLeft } }
  })
}

export function bumpUnreadRetry(stepId: number): void {
  chatSignals.set((state) => ({ ...state, unreadRetry: { ...state.unreadRetry, [stepId]: (state.unreadRetry[stepId] ?? 0) + 1 } }))
}

export function setTyping(stepId: number, typing: boolean): void {
  chatSignals.set((state) => {
    if (typing === state.typing.includes(stepId)) return state
    return { ...state, typing: typing ? [...state.typing, stepId] : state.typing.filter((id) => id !== stepId) }
  })
}
