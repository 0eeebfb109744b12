import Fastify from 'fastify'

// The reference every API figure is divided by: a bare Fastify route (no hooks, no database) in a process of its own,
// as the real server runs in one. `node bench/bare-route.ts` with PORT.
const app = Fastify({ logger: false })
app.get('/', async () => ({ success: true }))
await app.listen({ port: Number(process.env.PORT ?? 8290), host: '127.0.0.1' })
process.send?.('listening')
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)))
