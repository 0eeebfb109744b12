import { Redis } from 'ioredis'
import type { Bus, BusHandler } from './bus.ts'

// Redis pub/sub: one connection publishes, one (in subscriber mode) receives and fans out to local handlers.
export function createRedisBus(url: string, prefix = 'atende:'): Bus {
  const publisher = new Redis(url, { maxRetriesPerRequest: 2 })
  // ioredis 5 can interleave a SUBSCRIBE sent while connecting with its own handshake (INFO, CLIENT SETINFO) and
  // then fail with "Connection in subscriber mode" (ioredis#2037): no SETINFO, and nothing subscribes before ready.
  const subscriber = new Redis(url, { disableClientInfo: true })
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis at ${new URL(url).host} is not ready after 30 s`)), 30_000)
    timer.unref()
    subscriber.once('ready', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  ready.catch(() => {})
  // Connection errors are retried by ioredis (and subscriptions renewed); without a listener each is printed as unhandled.
  publisher.on('error', () => {})
  subscriber.on('error', () => {})
  // `ready` is shared so a second subscriber to a channel also waits until Redis confirmed the subscription.
  const channels = new Map<string, { handlers: Set<BusHandler>; ready: Promise<unknown> }>()

  subscriber.on('message', (channel: string, text: string) => {
    const entry = channels.get(channel.slice(prefix.length))
    if (!entry) return
    const payload: unknown = JSON.parse(text)
    for (const handler of entry.handlers) handler(payload)
  })

  return {
    async publish(channel, payload) {
      await publisher.publish(prefix + channel, JSON.stringify(payload))
    },
    async subscribe(channel, handler) {
      let entry = channels.get(channel)
      if (!entry) {
        entry = { handlers: new Set(), ready: ready.then(() => subscriber.subscribe(prefix + channel)) }
        channels.set(channel, entry)
      }
      const current = entry
      current.handlers.add(handler)
      await current.ready
      return async () => {
        current.handlers.delete(handler)
        if (current.handlers.size === 0 && channels.get(channel) === current) {
          channels.delete(channel)
          await subscriber.unsubscribe(prefix + channel)
        }
      }
    },
    async close() {
      channels.clear()
      await Promise.all([publisher.quit(), subscriber.quit()])
    },
  }
}
