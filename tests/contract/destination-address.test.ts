import { describe, expect, it } from 'vitest'
import { addressDestination, destinationAddress, parseAppTarget } from '../../contract/codes/transfer.ts'
import { CALL_DESTINATIONS, PABX_APPS } from '../../contract/entities/apps.ts'

// One address per destination: what a settings destination stores, a transfer sends and call control routes.
describe('destination addresses', () => {
  it('address every app that names a row as <app>.<id>, and read it back', () => {
    for (const app of CALL_DESTINATIONS.filter((a) => PABX_APPS[a].appdata === 'id')) {
      const address = destinationAddress({ app, appdata: 42 })
      expect(address).toBe(`${app}.42`)
      expect(addressDestination(address!)).toEqual({ app, appdata: '42' })
      expect(parseAppTarget(address!)).toEqual({ app, appdata: '42' })
    }
  })

  it('address an external number by its digits, and nothing for hang-up or a missing row', () => {
    expect(destinationAddress({ app: 'number', appdata: ' 5511987654321 ' })).toBe('5511987654321')
    expect(addressDestination('5511987654321')).toEqual({ app: 'number', appdata: '5511987654321' })
    expect(destinationAddress({ app: 'number', appdata: 'abc' })).toBeNull()
    expect(destinationAddress({ app: 'hangup', appdata: '' })).toBeNull()
    expect(destinationAddress({ app: 'queue', appdata: '' })).toBeNull()
    expect(destinationAddress({ app: 'queue', appdata: '1.5' })).toBeNull()
    expect(destinationAddress({ app: 'unknown', appdata: '3' })).toBeNull()
  })
})
