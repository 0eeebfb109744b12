// Timing of the navigation progress bar (spec 000 §9): it appears only if loading lasts longer than the throttle,
// grows each tick so it would reach 100 % after `duration`, and on finish fills up and hides after `hideDelay`.
export const PROGRESS_TIMING = { throttle: 200, duration: 5000, tick: 100, hideDelay: 500 }

export type ProgressTiming = typeof PROGRESS_TIMING
export type ProgressState = { visible: boolean; value: number }
type Timers = {
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (id: unknown) => void
  setInterval: (fn: () => void, ms: number) => unknown
  clearInterval: (id: unknown) => void
}

export class ProgressController {
  private state: ProgressState = { visible: false, value: 0 }
  private throttleTimer: unknown
  private tickTimer: unknown
  private hideTimer: unknown
  private running = false
  private readonly timing: ProgressTiming
  private readonly timers: Timers

  private readonly onChange: (state: ProgressState) => void

  constructor(onChange: (state: ProgressState) => void, timing: Partial<ProgressTiming> = {}, timers?: Timers) {
    this.onChange = onChange
    this.timing = { ...PROGRESS_TIMING, ...timing }
    this.timers = timers ?? {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (id) => globalThis.clearTimeout(id as number),
      setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
      clearInterval: (id) => globalThis.clearInterval(id as number),
    }
  }

  private emit(next: ProgressState) {
    this.state = next
    this.onChange(next)
  }

  start() {
    if (this.running) return
    this.running = true
    this.timers.clearTimeout(this.hideTimer)
    this.throttleTimer = this.timers.setTimeout(() => {
      this.emit({ visible: true, value: 0 })
      const step = (100 * this.timing.tick) / this.timing.duration
      this.tickTimer = this.timers.setInterval(() => {
        this.emit({ visible: true, value: Math.min(100, this.state.value + step) })
      }, this.timing.tick)
    }, this.timing.throttle)
  }

  finish() {
    if (!this.running) return
    this.running = false
    this.timers.clearTimeout(this.throttleTimer)
    this.timers.clearInterval(this.tickTimer)
    if (!this.state.visible) return
    this.emit({ visible: true, value: 100 })
    this.hideTimer = this.timers.setTimeout(() => this.emit({ visible: false, value: 0 }), this.timing.hideDelay)
  }

  dispose() {
    this.timers.clearTimeout(this.throttleTimer)
    this.timers.clearInterval(this.tickTimer)
    this.timers.clearTimeout(this.hideTimer)
  }
}
