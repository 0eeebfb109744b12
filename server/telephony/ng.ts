import dgram from 'node:dgram'
import { randomBytes } from 'node:crypto'

// rtpengine's ng control protocol: one UDP datagram `<cookie> <bencoded dictionary>` each way. The client keeps one
// socket, matches answers to requests by cookie, and gives up on a request after `timeoutMs` (rtpengine answers a
// retransmitted cookie from its cache, so a request may be sent again safely).

export type Bencodable = number | string | Buffer | Bencodable[] | { [key: string]: Bencodable | undefined }
export type NgValue = number | string | NgValue[] | { [key: string]: NgValue }
export type NgAnswer = { result?: string; 'error-reason'?: string; [key: string]: NgValue | undefined }

export function bencode(value: Bencodable): Buffer {
  if (typeof value === 'number') return Buffer.from(`i${Math.trunc(value)}e`)
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    const bytes = Buffer.from(value)
    return Buffer.concat([Buffer.from(`${bytes.length}:`), bytes])
  }
  if (Array.isArray(value)) return Buffer.concat([Buffer.from('l'), ...value.map(bencode), Buffer.from('e')])
  const parts: Buffer[] = [Buffer.from('d')]
  // Keys in byte order, as bencode requires; absent values are left out.
  for (const key of Object.keys(value).sort()) {
    const item = value[key]
    if (item === undefined) continue
    parts.push(bencode(key), bencode(item))
  }
  parts.push(Buffer.from('e'))
  return Buffer.concat(parts)
}

/** Decodes one bencoded value; strings come back as UTF-8 text. Throws on malformed input. */
export function bdecode(buffer: Buffer): NgValue {
  const [value, end] = decodeAt(buffer, 0)
  if (end !== buffer.length) throw new Error('bencode: trailing bytes')
  return value
}

function decodeAt(buffer: Buffer, start: number): [NgValue, number] {
  const lead = buffer[start]
  if (lead === undefined) throw new Error('bencode: truncated')
  if (lead === 0x69 /* i */) {
    const end = buffer.indexOf(0x65, start)
    if (end < 0) throw new Error('bencode: truncated integer')
    const n = Number(buffer.subarray(start + 1, end).toString())
    if (!Number.isFinite(n)) throw new Error('bencode: bad integer')
    return [n, end + 1]
  }
  if (lead === 0x6c /* l */) {
    const list: NgValue[] = []
    let at = start + 1
    while (buffer[at] !== 0x65) {
      const [item, next] = decodeAt(buffer, at)
      list.push(item)
      at = next
    }
    return [list, at + 1]
  }
  if (lead === 0x64 /* d */) {
    const dict: { [key: string]: NgValue } = {}
    let at = start + 1
    while (buffer[at] !== 0x65) {
      const [key, afterKey] = decodeAt(buffer, at)
      if (typeof key !== 'string') throw new Error('bencode: dictionary key is not a string')
      const [item, next] = decodeAt(buffer, afterKey)
      dict[key] = item
      at = next
    }
    return [dict, at + 1]
  }
  const colon = buffer.indexOf(0x3a, start)
  if (colon < 0) throw new Error('bencode: truncated string')
  const length = Number(buffer.subarray(start, colon).toString())
  if (!Number.isInteger(length) || length < 0 || colon + 1 + length > buffer.length) throw new Error('bencode: bad string length')
  return [buffer.subarray(colon + 1, colon + 1 + length).toString(), colon + 1 + length]
}

export class NgTimeoutError extends Error {
  constructor(command: string, ms: number) {
    super(`rtpengine did not answer "${command}" within ${ms} ms`)
    this.name = 'NgTimeoutError'
  }
}

type Pending = { resolve(answer: NgAnswer): void; reject(error: Error): void; timer: NodeJS.Timeout }

export class NgClient {
  readonly host: string
  readonly port: number
  readonly timeoutMs: number
  private socket: dgram.Socket | null = null
  private readonly pending = new Map<string, Pending>()

  constructor(options: { host?: string; port: number; timeoutMs?: number }) {
    this.host = options.host ?? '127.0.0.1'
    this.port = options.port
    this.timeoutMs = options.timeoutMs ?? 2000
  }

  /** Sends one command (`{command: 'offer', 'call-id': …}`); resolves with rtpengine's dictionary, result included. */
  request(message: { command: string } & { [key: string]: Bencodable | undefined }, timeoutMs = this.timeoutMs): Promise<NgAnswer> {
    const socket = this.open()
    const cookie = randomBytes(8).toString('hex')
    return new Promise<NgAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(cookie)
        reject(new NgTimeoutError(message.command, timeoutMs))
      }, timeoutMs)
      this.pending.set(cookie, { resolve, reject, timer })
      socket.send(Buffer.concat([Buffer.from(`${cookie} `), bencode(message)]), this.port, this.host, (error) => {
        if (!error) return
        clearTimeout(timer)
        this.pending.delete(cookie)
        reject(error)
      })
    })
  }

  /** True when rtpengine answers `ping` with `pong`. */
  async ping(timeoutMs = this.timeoutMs): Promise<boolean> {
    try {
      const answer = await this.request({ command: 'ping' }, timeoutMs)
      return answer.result === 'pong'
    } catch {
      return false
    }
  }

  close(): void {
    for (const [cookie, waiting] of this.pending) {
      clearTimeout(waiting.timer)
      waiting.reject(new Error('ng client closed'))
      this.pending.delete(cookie)
    }
    this.socket?.close()
    this.socket = null
  }

  private open(): dgram.Socket {
    if (this.socket) return this.socket
    const socket = dgram.createSocket('udp4')
    socket.on('message', (datagram) => this.onMessage(datagram))
    socket.on('error', () => {
      // A closed port answers ICMP unreachable (ECONNREFUSED on some systems): the pending requests time out.
    })
    socket.unref()
    this.socket = socket
    return socket
  }

  private onMessage(datagram: Buffer): void {
    const space = datagram.indexOf(0x20)
    if (space <= 0) return
    const cookie = datagram.subarray(0, space).toString()
    const waiting = this.pending.get(cookie)
    if (!waiting) return
    this.pending.delete(cookie)
    clearTimeout(waiting.timer)
    try {
      const answer = bdecode(datagram.subarray(space + 1))
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new Error('ng answer is not a dictionary')
      waiting.resolve(answer as NgAnswer)
    } catch (error) {
      waiting.reject(error as Error)
    }
  }
}
