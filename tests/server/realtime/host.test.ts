import { beforeAll, describe, expect, it, vi } from 'vitest'
import { MAX_CLIENT_FRAME_BYTES } from '../../../contract/realtime/service-socket.ts'
import { useTestApp } from '../helper.ts'
import { FAST_TIMINGS, listen, openSocket, sessionCookie } from './ws-helper.ts'

// The websocket host (server/realtime/host.ts): what it does for every socket path, whatever the path's frames.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
let base: string

beforeAll(async () => {
  base = await listen(t.app)
})

describe('frame limits', () => {
  it('closes a socket that sends a frame over the size limit (1009), logged as a warning, not an error', async () => {
    // Without a logger Fastify hands every request the app's own (silent) logger, so spying on it sees the host's log.
    const warn = vi.spyOn(t.app.log, 'warn')
    const error = vi.spyOn(t.app.log, 'error')
    try {
      const client = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
      client.send({ action: 'change_page', page: 'x'.repeat(MAX_CLIENT_FRAME_BYTES) })
      expect((await client.closed).code).toBe(1009)
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'websocket frame too large'))
      expect(error).not.toHaveBeenCalled()
    } finally {
      warn.mockRestore()
      error.mockRestore()
    }
  })

  it('keeps the socket open under the limit', async () => {
    const client = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    client.send({ action: 'change_page', page: 'x'.repeat(1000) })
    await client.roundTrip()
    client.close()
  })
})
