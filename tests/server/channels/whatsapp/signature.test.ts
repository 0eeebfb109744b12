import { describe, expect, it } from 'vitest'
import { signatureHeader, signBody, verifyHandshake, verifySignature } from '../../../../server/channels/whatsapp/signature.ts'

// QUALITY.md test 2 (the unit half): X-Hub-Signature-256 over the raw bytes, the matrix of Apache Camel's PR #24034
// plus non-ASCII bodies; test 1's token comparison.

const SECRET = 'app-secret-123'
const BODY = '{"object":"whatsapp_business_account","entry":[]}'

describe('X-Hub-Signature-256', () => {
  it('computes the known-answer HMAC-SHA256("test", "secret")', () => {
    expect(signBody('test', 'secret')).toBe('0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914')
    expect(verifySignature(Buffer.from('test'), 'sha256=0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914', 'secret')).toBe(true)
  })

  it('accepts a valid signature of the raw bytes (upper-case hex too)', () => {
    const header = signatureHeader(BODY, SECRET)
    expect(verifySignature(Buffer.from(BODY), header, SECRET)).toBe(true)
    expect(verifySignature(Buffer.from(BODY), 'sha256=' + header.slice(7).toUpperCase(), SECRET)).toBe(true)
  })

  it('refuses an invalid signature of the right length', () => {
    expect(verifySignature(Buffer.from(BODY), 'sha256=' + '0'.repeat(64), SECRET)).toBe(false)
  })

  it('refuses a missing or malformed header without throwing', () => {
    for (const header of [undefined, '', 'sha256=', 'sha1=' + signBody(BODY, SECRET), signBody(BODY, SECRET), 'sha256=abc', 'sha256=' + 'z'.repeat(64)]) {
      expect(verifySignature(Buffer.from(BODY), header, SECRET)).toBe(false)
    }
    expect(verifySignature(Buffer.from(BODY), [signatureHeader(BODY, SECRET)], SECRET)).toBe(false)
  })

  it('refuses a tampered body', () => {
    const header = signatureHeader(BODY, SECRET)
    expect(verifySignature(Buffer.from(BODY.replace('[]', '[{}]')), header, SECRET)).toBe(false)
    // Re-serialised JSON (whitespace) is a different body: the HMAC is over the bytes, not the meaning.
    expect(verifySignature(Buffer.from(JSON.stringify(JSON.parse(BODY), null, 1)), header, SECRET)).toBe(false)
  })

  it('refuses the signature made with another secret, and any when the channel has no secret', () => {
    const header = signatureHeader(BODY, 'other-secret')
    expect(verifySignature(Buffer.from(BODY), header, SECRET)).toBe(false)
    expect(verifySignature(Buffer.from(BODY), signatureHeader(BODY, ''), '')).toBe(false)
    expect(verifySignature(Buffer.from(BODY), header, null)).toBe(false)
  })

  it('signs non-ASCII bodies byte for byte (UTF-8 as sent, not as re-encoded)', () => {
    const text = '{"text":{"body":"Olá, ação! 你好 👍 \\u00e9"}}'
    const bytes = Buffer.from(text, 'utf8')
    const header = signatureHeader(bytes, SECRET)
    expect(verifySignature(bytes, header, SECRET)).toBe(true)
    // The same characters in Latin-1 are other bytes, and so another signature.
    expect(verifySignature(Buffer.from(text, 'latin1'), header, SECRET)).toBe(false)
    // Decoding the \u00e9 escape changes the bytes too.
    expect(verifySignature(Buffer.from(JSON.stringify(JSON.parse(text))), header, SECRET)).toBe(false)
  })
})

describe('webhook verification handshake', () => {
  const q = (mode: string, token: string, challenge = '1158201444') => ({ 'hub.mode': mode, 'hub.verify_token': token, 'hub.challenge': challenge })

  it('echoes the challenge when the mode is subscribe and the token matches', () => {
    expect(verifyHandshake(q('subscribe', 'my-token'), 'my-token')).toBe('1158201444')
  })

  it('refuses a wrong token, a prefix of it, a wrong mode and missing parts', () => {
    expect(verifyHandshake(q('subscribe', 'my-tokem'), 'my-token')).toBeNull()
    expect(verifyHandshake(q('subscribe', 'my-tok'), 'my-token')).toBeNull()
    expect(verifyHandshake(q('subscribe', 'my-token-longer'), 'my-token')).toBeNull()
    expect(verifyHandshake(q('unsubscribe', 'my-token'), 'my-token')).toBeNull()
    expect(verifyHandshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'my-token' }, 'my-token')).toBeNull()
    expect(verifyHandshake({ 'hub.mode': 'subscribe', 'hub.challenge': '1' }, 'my-token')).toBeNull()
  })

  it('refuses everything when the channel has no verify token', () => {
    expect(verifyHandshake(q('subscribe', ''), '')).toBeNull()
    expect(verifyHandshake(q('subscribe', 'x'), null)).toBeNull()
  })
})
