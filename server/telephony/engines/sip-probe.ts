import dgram from 'node:dgram'
import { randomBytes } from 'node:crypto'

// One SIP OPTIONS over UDP, answered or not within the timeout: how the supervisor knows Kamailio is up.
export function sipOptionsPing(host: string, port: number, timeoutMs = 500): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4')
    const done = (status: number | null) => {
      clearTimeout(timer)
      socket.close()
      resolve(status)
    }
    const timer = setTimeout(() => done(null), timeoutMs)
    socket.on('error', () => done(null))
    socket.on('message', (datagram) => {
      const match = /^SIP\/2\.0 (\d{3})/.exec(datagram.toString('latin1'))
      if (match) done(Number(match[1]))
    })
    socket.bind(0, host, () => {
      const local = socket.address()
      const branch = `z9hG4bK${randomBytes(8).toString('hex')}`
      const message = [
        `OPTIONS sip:${host}:${port} SIP/2.0`,
        `Via: SIP/2.0/UDP ${local.address}:${local.port};branch=${branch};rport`,
        'Max-Forwards: 70',
        `From: <sip:probe@${host}>;tag=${randomBytes(4).toString('hex')}`,
        `To: <sip:${host}:${port}>`,
        `Call-ID: ${randomBytes(8).toString('hex')}@atende-probe`,
        'CSeq: 1 OPTIONS',
        'User-Agent: Atende supervisor',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n')
      socket.send(message, port, host)
    })
  })
}
