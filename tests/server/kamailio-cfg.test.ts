import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { KAMAILIO_TEMPLATE } from '../../server/telephony/engines/generate.ts'

// What the Kamailio template does with SDP, read from its routes (the browser e2e, e2e/telephony.spec.ts 'hold', is
// where a second offer shows: Chrome refuses the doubled body with 'Duplicate a=msid lines').

/** The body of `route[NAME] { … }` (to the first closing brace at column 0). */
async function routeBody(name: string): Promise<string> {
  const text = await readFile(KAMAILIO_TEMPLATE, 'utf8')
  const start = text.indexOf(`route[${name}] {`)
  expect(start, `route[${name}]`).toBeGreaterThanOrEqual(0)
  return text.slice(start, text.indexOf('\n}', start))
}

const offersFor = (body: string) =>
  body
    .split('\n')
    .filter((line) => line.includes('route(RTPOFFER)') && !line.trim().startsWith('#'))
    .map((line) => /is_method\("([^"]+)"\)/.exec(line)?.[1] ?? '')

describe('kamailio.cfg media offers', () => {
  it('an in-dialog request is offered to rtpengine once: INVITE in RELAY, UPDATE in WITHINDLG', async () => {
    const withinDialog = offersFor(await routeBody('WITHINDLG'))
    const relay = offersFor(await routeBody('RELAY'))
    expect(relay).toEqual(['INVITE'])
    // WITHINDLG hands every request to RELAY: offering an INVITE there too would offer it twice.
    expect((await routeBody('WITHINDLG')).includes('route(RELAY)')).toBe(true)
    for (const methods of withinDialog) expect(methods.split('|')).not.toContain('INVITE')
    expect(withinDialog.flatMap((methods) => methods.split('|'))).toContain('UPDATE')
    // A new call's offer is made in RESUME (so a refused offer ends the call before it is relayed), and RELAY then
    // leaves it alone ($var(offered)).
    const resume = await routeBody('RESUME')
    // (A media app call is left to the app: the offer is skipped for it, README "media app".)
    expect(resume.split('\n').filter((line) => line.trim() === 'if ($avp(media) != 1) { route(RTPOFFER); }')).toHaveLength(1)
    expect(resume).toContain('$var(offered) = 1;')
    expect(await routeBody('RELAY')).toContain('$var(offered) != 1')
  })

  it('no call without rtpengine: a refused offer is answered, never relayed with the raw SDP', async () => {
    const resume = await routeBody('RESUME')
    const refusal = resume.indexOf('if ($var(rtp_refused) != 0)')
    expect(refusal).toBeGreaterThan(resume.indexOf('route(RTPOFFER);'))
    expect(refusal).toBeLessThan(resume.indexOf('route(RELAY);'))
    expect(resume.slice(refusal, resume.indexOf('}', refusal))).toContain('route(REFUSE);')
    // REFUSE tells call control the call failed (no dialog exists yet to say it).
    const refuse = await routeBody('REFUSE')
    expect(refuse).toContain('$var(state) = "failed";')
    expect(refuse).toContain('route(CALL_EVENT);')
  })
})
