import { describe, expect, it } from 'vitest'
import { joinAddress, parseJoinAddress, replacesHeader } from '../../contract/codes/transfer.ts'

describe('the attended-transfer join address (*9<call-id>.<to-tag>.<from-tag>)', () => {
  it("names the consultation from the consulted phone's side and reads back the same dialog", () => {
    const user = joinAddress({ callId: 'k3j2h1g0f9e8d7c', localTag: 'agentTag01', remoteTag: 'targetTag9' })
    expect(user).toBe('*9k3j2h1g0f9e8d7c.targetTag9.agentTag01')
    const dialog = parseJoinAddress(user!)
    expect(dialog).toEqual({ callId: 'k3j2h1g0f9e8d7c', toTag: 'targetTag9', fromTag: 'agentTag01' })
    expect(replacesHeader(dialog!)).toBe('k3j2h1g0f9e8d7c;to-tag=targetTag9;from-tag=agentTag01')
  })

  it('gives no address for parts a user part cannot carry as they are, or a whole over 80 characters', () => {
    expect(joinAddress({ callId: 'abc@host.example', localTag: 'a', remoteTag: 'b' })).toBeNull()
    expect(joinAddress({ callId: 'abc', localTag: 'a;b', remoteTag: 'b' })).toBeNull()
    expect(joinAddress({ callId: 'abc', localTag: '', remoteTag: 'b' })).toBeNull()
    expect(joinAddress({ callId: 'x'.repeat(60), localTag: 'a'.repeat(10), remoteTag: 'b'.repeat(10) })).toBeNull()
  })

  it('reads nothing from other numbers or malformed ones', () => {
    for (const user of ['10002', '*810002', '*9', '*9abc', '*9abc.def', '*9a.b.c.d', '*9a..c', '*9a.b.c@d']) expect(parseJoinAddress(user)).toBeNull()
  })
})
