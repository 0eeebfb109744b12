import type { AnyActorRef } from 'xstate'
import type { Db } from '../../db/client.ts'
import type { WorkerCommand } from './protocol.ts'

// What a destination the media app runs inside (voicemail.ts, announce.ts, nps.ts) may do with the call it holds:
// brain.ts builds one per call and destination, so those files never reach into the brain's own state.

export type BrainLog = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void }

/** A new voicemail message, for its owners' top bar (service.ts pushes it to them). */
export type VoicemailNotice = { siteId: number; voicemailId: number; messageId: number; userIds: number[] }

export type MediaHooks = {
  onVoicemail?: (notice: VoicemailNotice) => void
}

export type MediaCall = {
  readonly db: Db
  readonly log: BrainLog
  readonly hooks: MediaHooks
  /** The caller's Call-ID (the worker's id of the call). */
  readonly id: string
  readonly siteId: number
  /** The calling number or extension, and the customer's number ('' on an internal call). */
  readonly caller: string
  readonly phone: string
  /** Plays the files in turn into the caller's leg; `PLAYED` reaches the machine when they are over (not when looping). */
  play(files: string[], loop: boolean): void
  /** Stops what plays (a `PLAYED` of it no longer reaches the machine). */
  stop(): void
  send(command: WorkerCommand): void
  hangup(): void
  /** Sends the caller on to another destination (counted as a hop). */
  goTo(app: string, appdata: string): void
  /** The machine the caller's events go to from now on. */
  setActor(actor: AnyActorRef): void
}
