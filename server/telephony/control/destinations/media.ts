import { appId, toMediaApp, unavailable } from '../call-plan.ts'
import type { Destination } from '../call-plan.ts'

// `ivrbasic`, `announce`, `voicemail`, `nps`: destinations the media app (server/media/app/) plays and records. The
// call goes there with the Request-URI `<app>.<id>`; the server's brain (brain.ts) runs it. Without the media app (or
// when the media app itself asks: it runs these inside, never through Kamailio again) they answer 480.

/** What the media app runs (server/media/app/: brain.ts IVRs, announce.ts, voicemail.ts, nps.ts). */
const BUILT: ReadonlySet<string> = new Set(['ivrbasic', 'announce', 'voicemail', 'nps'])

export const mediaDestination =
  (app: 'ivrbasic' | 'announce' | 'voicemail' | 'nps'): Destination =>
  async (env, base, appdata) => {
    const id = appId(appdata)
    if (id === null || !env.mediaApp || env.mediaLeg || !BUILT.has(app)) return unavailable(base)
    return [{ ...base, kind: 'media', decision: toMediaApp(env.mediaApp, base, `${app}.${id}`) }]
  }
