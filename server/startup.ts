import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import { buildApp } from './app.ts'
import type { AppOverrides } from './app.ts'
import type { DemoAccount } from './seed/demo-seed.ts'
import { seedDemoIfEmpty } from './seed/demo-seed.ts'

// What `npm start` does after the SPA build: open the database (migrations run), seed the demo when allowed, listen.
export type Started = { app: FastifyInstance; url: string; demo: readonly DemoAccount[] | null }

export async function startServer(config: Config, overrides: AppOverrides = {}): Promise<Started> {
  const app = await buildApp(config, overrides)
  try {
    // Production never seeds: its first administrator comes from `npm run create-admin`.
    const simulator = config.whatsappSimulator
    const demo = config.production
      ? null
      : await seedDemoIfEmpty(app.deps.db, {
          port: config.port,
          mediaDir: config.mediaDir,
          // The spoken prompts and music (espeak-ng, sox) are made once and kept for the next seed.
          ...(config.demoSounds === 'spoken' ? { soundsDir: path.join(config.dataDir, 'demo-sounds') } : {}),
          whatsappGraphUrl: `http://${simulator.host}:${simulator.port}`,
        })
    // The demo's devices were written after Kamailio got its first tables.
    if (demo) await app.telephony.publisher?.pushChanges()
    await app.listen({ port: config.port, host: config.host })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : config.port
    return { app, url: `http://localhost:${port}`, demo }
  } catch (error) {
    await app.close()
    throw error
  }
}
