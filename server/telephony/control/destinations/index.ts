import type { PabxApp } from '../../../../contract/entities/apps.ts'
import { MAX_HOPS, unavailable } from '../call-plan.ts'
import type { CallBase, Destination, Env, Plan } from '../call-plan.ts'
import { callGroupDestination } from './call-group.ts'
import { deviceDestination } from './device.ts'
import { hangupDestination } from './hangup.ts'
import { mediaDestination } from './media.ts'
import { numberDestination } from './number.ts'
import { queueDestination } from './queue.ts'

// Where a call goes once a route, a transfer or an overflow names a destination `(app, appdata)` (contract/entities/
// apps.ts). One file per app; a new destination (ivr.ts, voicemail.ts, announce.ts, nps.ts: the media app) is its file
// plus one line here. An app without an entry answers 480.
export const DESTINATIONS: Readonly<Partial<Record<PabxApp, Destination>>> = {
  pjsip: deviceDestination,
  callgroup: callGroupDestination,
  queue: queueDestination,
  number: numberDestination,
  hangup: hangupDestination,
  ivrbasic: mediaDestination('ivrbasic'),
  announce: mediaDestination('announce'),
  voicemail: mediaDestination('voicemail'),
  nps: mediaDestination('nps'),
}

export async function toDestination(env: Env, base: CallBase, app: string, appdata: string, hops: number): Promise<Plan> {
  if (hops > MAX_HOPS) return unavailable(base)
  const destination = Object.hasOwn(DESTINATIONS, app) ? DESTINATIONS[app as PabxApp] : undefined
  return destination ? destination(env, base, appdata, hops) : unavailable(base)
}
