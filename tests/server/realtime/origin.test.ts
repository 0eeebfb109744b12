import { describe, expect, it } from 'vitest'
import { originAllowed } from '../../../server/realtime/origin.ts'
import { parseOrigins } from '../../../server/config.ts'

describe('websocket Origin rule', () => {
  it("allows the request's own host (default ports ignored), listed origins, and requests without Origin", () => {
    expect(originAllowed('http://localhost:8080', 'localhost:8080', [])).toBe(true)
    expect(originAllowed('https://atende.example.com', 'atende.example.com', [])).toBe(true)
    expect(originAllowed('https://atende.example.com', 'Atende.Example.com:443', [])).toBe(true)
    expect(originAllowed('https://crm.example.com', 'atende.example.com', ['https://crm.example.com'])).toBe(true)
    expect(originAllowed(undefined, 'atende.example.com', [])).toBe(true)
  })

  it('refuses other hosts, other ports, other schemes of a listed origin, null and garbage', () => {
    expect(originAllowed('https://evil.example.com', 'atende.example.com', [])).toBe(false)
    expect(originAllowed('http://localhost:8081', 'localhost:8080', [])).toBe(false)
    expect(originAllowed('http://crm.example.com', 'atende.example.com', ['https://crm.example.com'])).toBe(false)
    expect(originAllowed('null', 'atende.example.com', [])).toBe(false)
    expect(originAllowed('::', 'atende.example.com', [])).toBe(false)
    expect(originAllowed('https://atende.example.com', undefined, [])).toBe(false)
  })

  it('reads WS_ALLOWED_ORIGINS as a comma-separated list of origins', () => {
    expect(parseOrigins(' https://a.example.com/ , https://B.example.com:8443/x ')).toEqual(['https://a.example.com', 'https://b.example.com:8443'])
    expect(parseOrigins(undefined)).toEqual([])
    expect(() => parseOrigins('a.example.com')).toThrow(/WS_ALLOWED_ORIGINS/)
  })
})
