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
  })
})
