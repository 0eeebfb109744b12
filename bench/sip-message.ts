import { createHash } from 'node:crypto'

// SIP over UDP as the benches' raw user agents read it (bench/telephony.ts, bench/dialer.ts): a message's first line,
// its headers in order and its body, and the few lookups they need.

export type Msg = { first: string; headers: [string, string][]; body: string }

export function parse(raw: string): Msg {
  const split = raw.indexOf('\r\n\r\n')
  const head = split < 0 ? raw : raw.slice(0, split)
  const [first = '', ...lines] = head.split('\r\n')
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':')
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
  })
  return { first, headers, body: split < 0 ? '' : raw.slice(split + 4) }
}

/** The first value of a header (case-insensitive), '' when absent. */
export const hv = (m: Msg, name: string) => m.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1] ?? ''
/** Every value of a header, comma-joined lists of name-addrs split (Record-Route, Via). */
export const hvs = (m: Msg, name: string) =>
  m.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).flatMap(([, v]) => v.split(/,(?=\s*<)/).map((s) => s.trim()))
export const statusOf = (m: Msg) => Number(/^SIP\/2\.0 (\d{3})/.exec(m.first)?.[1] ?? 0)
export const md5 = (text: string) => createHash('md5').update(text).digest('hex')
