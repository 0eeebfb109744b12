import dgram from 'node:dgram'
import { EmitterImpl, TransportState } from 'sip.js'
import type { Emitter, Transport } from 'sip.js'

// sip.js ships only a WebSocket transport; the media app talks to Kamailio over UDP instead (TELEPHONY.md trap: one
// WebSocket's reconnect gives a new alias and breaks the in-dialog routing of every call). A fixed UDP address also
// lets Kamailio route media destinations to the app by `dst` and know its requests by source address, with no
// registration. Every datagram goes to Kamailio; Kamailio answers to the source address (force_rport).

export type UdpTransportOptions = {
  listenHost: string
  listenPort: number
  proxyHost: string
  proxyPort: number
  /**
   * Sees every datagram first: true when it handled it (its answer goes back to the sender by `reply`), a string to
   * pass that on to sip.js instead, false to pass the datagram on as it is.
   */
  intercept?: (message: string, reply: (text: string) => void) => boolean | string
}

export class UdpTransport implements Transport {
  readonly protocol = 'UDP'
  state: TransportState = TransportState.Disconnected
  readonly stateChange: Emitter<TransportState>
  onConnect: (() => void) | undefined
  onDisconnect: ((error?: Error) => void) | undefined
  onMessage: ((message: string) => void) | undefined
  private readonly emitter = new EmitterImpl<TransportState>()
  private socket: dgram.Socket | null = null
  private readonly options: UdpTransportOptions

  /** sip.js builds it (`transportConstructor`) with its logger and `transportOptions`. */
  constructor(_logger: unknown, options: UdpTransportOptions) {
    this.options = options
    this.stateChange = this.emitter
  }

  async connect(): Promise<void> {
    if (this.socket) return
    const socket = dgram.createSocket('udp4')
    socket.on('message', (datagram, from) => {
      const text = datagram.toString('utf8')
      // The app's own answers to requests sip.js must not see (OPTIONS: keepalives and probes, see worker.ts).
      const handled = this.options.intercept?.(text, (reply) => socket.send(reply, from.port, from.address)) ?? false
      if (handled === true) return
      this.onMessage?.(typeof handled === 'string' ? handled : text)
    })
    socket.on('error', () => {})
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      socket.bind(this.options.listenPort, this.options.listenHost, () => resolve())
    })
    this.socket = socket
    this.transition(TransportState.Connected)
    this.onConnect?.()
  }

  async disconnect(): Promise<void> {
    this.socket?.close()
    this.socket = null
    this.transition(TransportState.Disconnected)
    this.onDisconnect?.()
  }

  async dispose(): Promise<void> {
    await this.disconnect()
  }

  isConnected(): boolean {
    return this.state === TransportState.Connected
  }

  async send(message: string): Promise<void> {
    if (!this.socket) throw new Error('media app transport is not connected')
    const socket = this.socket
    await new Promise<void>((resolve, reject) => socket.send(message, this.options.proxyPort, this.options.proxyHost, (error) => (error ? reject(error) : resolve())))
  }

  private transition(state: TransportState): void {
    if (this.state === state) return
    this.state = state
    this.emitter.emit(state)
  }
}
