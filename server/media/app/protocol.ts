import * as v from 'valibot'

// The link between the server (the brain: one XState machine per call, brain.ts) and the media app process (the SIP
// user agent and rtpengine's hands, worker.ts): JSON lines over a loopback TCP connection the server opens to the
// worker's control port. Both sides parse what they read; a malformed line is dropped and logged.

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(255))
const Text = (max: number) => v.pipe(v.string(), v.maxLength(max))
const SpyMode = v.picklist(['listen', 'whisper', 'barge'])

/** `spy_failed`'s reason for whisper or barge on a call the app did not bridge (the server names it to the supervisor). */
export const LISTEN_ONLY = 'Listen Only'

/** One leg's SIP dialog as the app sees it (adopted.ts): what a restarted app needs to answer and end it. */
export const DialogInfoSchema = v.object({
  callId: Id,
  localTag: Text(255),
  remoteTag: Text(255),
  localUri: Text(1000),
  remoteUri: Text(1000),
  remoteTarget: Text(1000),
  routeSet: v.array(Text(2000)),
  cseq: v.number(),
})
export type DialogInfo = v.InferOutput<typeof DialogInfoSchema>

/**
 * What the server keeps of a held or bridged call so that a restarted app can take it over (`adopt`): the caller's
 * dialog and rtpengine tags, and once bridged the agent leg's dialog and rtpengine branch and tag.
 */
export const CallStateSchema = v.object({
  caller: DialogInfoSchema,
  callerTag: Text(255),
  localTag: Text(255),
  callerSdp: Text(20_000),
  callerWebRtc: v.boolean(),
  agent: v.nullable(
    v.object({ dialog: DialogInfoSchema, target: Text(300), branch: Text(255), localTag: Text(255), lastAnswer: v.nullable(Text(20_000)), keep: v.boolean() }),
  ),
})
export type CallState = v.InferOutput<typeof CallStateSchema>

export const WorkerEventSchema = v.variant('ev', [
  v.object({ ev: v.literal('hello'), calls: v.array(Id) }),
  /** A new call the app answered: the Request-URI's user names what it is for (`queue.3`, `ivrbasic.2`...). */
  v.object({ ev: v.literal('call'), id: Id, user: Text(80), from: Text(80), domain: Text(253) }),
  v.object({ ev: v.literal('dtmf'), id: Id, digit: v.pipe(v.string(), v.regex(/^[0-9*#A-D]$/)) }),
  /** A play list (not looping) finished. */
  v.object({ ev: v.literal('played'), id: Id, token: v.number() }),
  v.object({ ev: v.literal('bridged'), id: Id, target: Text(300), leg: Id }),
  v.object({ ev: v.literal('bridge_failed'), id: Id, target: Text(300), code: v.number() }),
  v.object({ ev: v.literal('ended'), id: Id, by: v.picklist(['caller', 'agent', 'app']) }),
  v.object({ ev: v.literal('recorded'), id: Id, file: Text(1000), ms: v.number() }),
  /** The agent of a bridge made with `keep` hung up: the caller is parked again (for the NPS survey after the agent). */
  v.object({ ev: v.literal('unbridged'), id: Id }),
  /** The final answer to an `originate`: 200 when the customer answered (the call is then held like a caller). */
  v.object({ ev: v.literal('originated'), id: Id, code: v.number() }),
  /** A supervisor's monitoring session (spy.ts): the supervisor answered and the call's media runs through the app. */
  v.object({ ev: v.literal('spy_started'), id: Id, listenOnly: v.optional(v.boolean()) }),
  v.object({ ev: v.literal('spy_failed'), id: Id, code: v.number(), reason: Text(200) }),
  v.object({ ev: v.literal('spy_ended'), id: Id, by: v.picklist(['supervisor', 'call', 'app']) }),
  /** The call's dialogs changed (answered, bridged, parked again): the server keeps the latest for `adopt`. */
  v.object({ ev: v.literal('state'), id: Id, state: CallStateSchema }),
])
export type WorkerEvent = v.InferOutput<typeof WorkerEventSchema>

export const WorkerCommandSchema = v.variant('cmd', [
  /** Plays the files one after the other into the caller's leg; `loop` starts over (music), else `played` at the end. */
  v.object({ cmd: v.literal('play'), id: Id, files: v.array(Text(1000)), loop: v.boolean(), token: v.number() }),
  v.object({ cmd: v.literal('stop'), id: Id }),
  /** Calls `target` (a SIP URI through Kamailio) and joins the caller to whoever answers; the app stays in the path. */
  /** `keep`: when the agent hangs up the caller stays (parked again, `unbridged`) instead of being hung up. */
  v.object({ cmd: v.literal('bridge'), id: Id, target: Text(300), headers: v.array(Text(500)), timeout: v.number(), keep: v.optional(v.boolean()) }),
  /** Cancels a bridge still ringing. */
  v.object({ cmd: v.literal('unbridge'), id: Id }),
  v.object({ cmd: v.literal('hangup'), id: Id }),
  /** Records what the caller says into `file` (WAV) for at most `maxMs`; `recorded` when it stops (hang-up or `stop`). */
  v.object({ cmd: v.literal('record'), id: Id, file: Text(1000), maxMs: v.number() }),
  /**
   * Calls `target` (a SIP URI through Kamailio, which routes it to the campaign's trunk) with Call-ID `id` and From
   * `from`; the customer's leg is anchored in rtpengine like a parked caller. `originated` tells the final answer; on
   * 200 the call takes `play`, `bridge`, `hangup` like any held caller. `timeout`: seconds of ringing before giving up.
   */
  v.object({ cmd: v.literal('originate'), id: Id, target: Text(300), from: Text(300), headers: v.array(Text(500)), timeout: v.number() }),
  /**
   * Monitoring (spy.ts): `call` is a held caller's Call-ID or its bridged agent leg's; the app puts the call's media
   * through itself and calls `target` (the supervisor, through Kamailio). `spy_started` / `spy_failed`, then `spy_ended`.
   * `coach`: the agent's browser webphone can take a second leg (`whisper.<id>`) for whisper and barge on a call the
   * app did not bridge; `side` is the agent's side of that call in rtpengine (its `label`, set by Kamailio).
   */
  v.object({
    cmd: v.literal('spy_start'),
    id: Id,
    call: Id,
    target: Text(300),
    headers: v.array(Text(500)),
    mode: SpyMode,
    coach: v.optional(v.object({ target: Text(300), headers: v.array(Text(500)), side: v.picklist(['caller', 'callee']) })),
  }),
  v.object({ cmd: v.literal('spy_mode'), id: Id, mode: SpyMode }),
  v.object({ cmd: v.literal('spy_stop'), id: Id }),
  /**
   * A restarted app takes over a call the previous one held or bridged (its last `state`): it answers the call's
   * in-dialog requests itself (adopted.ts) and takes `play`, `bridge`, `hangup`... for it as for any call.
   */
  v.object({ cmd: v.literal('adopt'), id: Id, state: CallStateSchema }),
  /** Every `adopt` of this link was sent: in-dialog requests of unknown dialogs are answered from now on (481). */
  v.object({ cmd: v.literal('adopted') }),
])
export type WorkerCommand = v.InferOutput<typeof WorkerCommandSchema>

export function parseLine<T>(schema: v.GenericSchema<unknown, T>, line: string): T | null {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return null
  }
  const result = v.safeParse(schema, value)
  return result.success ? result.output : null
}
