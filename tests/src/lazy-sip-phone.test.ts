import { describe, expect, it } from 'vitest'
import { lazySipPhone } from '../../src/app/agentSystemWebphone.ts'
import type { PhoneConfig, SipPhone } from '../../machines/webphoneTypes.ts'

// The console loads sip.js only when the webphone starts: commands given before the module is there run after it, in
// the order given.
describe('the lazily loaded phone', () => {
  it('forwards every command in order once the real phone is created, and only creates it once', async () => {
    const calls: string[] = []
    let created = 0
    let release!: () => void
    const loaded = new Promise<void>((resolve) => (release = resolve))
    const real = (): SipPhone => {
      created++
      const record =
        (name: string) =>
        async (...args: unknown[]) =>
          void calls.push(`${name}:${args.join(',')}`)
      return {
        start: record('start'),
        stop: record('stop'),
        call: record('call'),
        answer: record('answer'),
        hangup: record('hangup'),
        hold: record('hold'),
        mute: (id, on) => void calls.push(`mute:${id},${on}`),
        dtmf: (id, tone) => void calls.push(`dtmf:${id},${tone}`),
        transferBlind: record('transferBlind'),
        transferAttended: record('transferAttended'),
        conference: (ids) => void calls.push(`conference:${ids.join(',')}`),
        setAudioDevices: record('setAudioDevices'),
      }
    }
    const create = lazySipPhone(() => loaded.then(() => real))
    const phone = create({} as PhoneConfig, () => undefined)
    const started = phone.start()
    void phone.call('c1', '10002', {})
    phone.mute('c1', true)
    phone.dtmf('c1', '5', 120, 500)
    expect(calls).toEqual([])
    release()
    await started
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls).toEqual(['start:', 'call:c1,10002,[object Object]', 'mute:c1,true', 'dtmf:c1,5'])
    expect(created).toBe(1)
  })

  it('fails start when the module cannot load, so the webphone reports PHONE_FAILED', async () => {
    const phone = lazySipPhone(() => Promise.reject(new Error('chunk failed')))({} as PhoneConfig, () => undefined)
    await expect(phone.start()).rejects.toThrow('chunk failed')
    expect(() => phone.mute('c1', true)).not.toThrow()
  })
})
