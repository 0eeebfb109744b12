import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { chatChannels } from '../../server/db/schema/index.ts'
import { simulatedChannels, startDemoSimulator } from '../../server/seed/demo-simulator.ts'
import { DEMO_WHATSAPP } from '../../server/seed/demo-settings.ts'
import { SimulatorClient } from '../../simulator/whatsapp/client.ts'
import { useTestApp } from '../server/helper.ts'

// The demo's WhatsApp channel points at the local simulator, and `npm start` runs the simulator as a child of the
// server with that channel's own credentials and this server's webhook.

const SIM_PORT = 8304
const t = useTestApp()

describe('the demo WhatsApp channel and its simulator', () => {
  it('reads WA_SIMULATOR and WA_SIM_PORT', () => {
    expect(loadConfig({}).whatsappSimulator).toEqual({ mode: 'demo', host: '127.0.0.1', port: 8091 })
    expect(loadConfig({ WA_SIMULATOR: 'off', WA_SIM_PORT: '9100' }).whatsappSimulator).toEqual({ mode: 'off', host: '127.0.0.1', port: 9100 })
    expect(() => loadConfig({ WA_SIMULATOR: 'maybe' })).toThrow(/WA_SIMULATOR/)
    expect(() => loadConfig({ WA_SIM_PORT: 'x' })).toThrow(/WA_SIM_PORT/)
  })

  it('seeds a WhatsApp Cloud channel whose Graph address is the simulator, with matching credentials', async () => {
    const [channel] = await t.database.db.select().from(chatChannels).where(eq(chatChannels.type, 'whatsapp'))
    expect(channel).toMatchObject({
      graphUrl: 'http://127.0.0.1:8091',
      phoneNumberId: DEMO_WHATSAPP.phone_number_id,
      wabaId: DEMO_WHATSAPP.waba_id,
      accessToken: DEMO_WHATSAPP.access_token,
      appSecret: DEMO_WHATSAPP.app_secret,
      verifyToken: DEMO_WHATSAPP.verify_token,
    })
    const numbers = await simulatedChannels(t.app, t.config, 8080)
    expect(numbers).toEqual([
      {
        phone_number_id: DEMO_WHATSAPP.phone_number_id,
        waba_id: DEMO_WHATSAPP.waba_id,
        access_token: DEMO_WHATSAPP.access_token,
        app_secret: DEMO_WHATSAPP.app_secret,
        verify_token: DEMO_WHATSAPP.verify_token,
        display_phone_number: DEMO_WHATSAPP.phone_number,
        webhook_url: `http://127.0.0.1:8080/webhooks/whatsapp/${channel!.id}/`,
        verified_name: 'WhatsApp Demo',
      },
    ])
    // A channel pointed elsewhere (Meta) is not the simulator's.
    expect(await simulatedChannels(t.app, { ...t.config, whatsappSimulator: { mode: 'demo', host: '127.0.0.1', port: SIM_PORT } }, 8080)).toEqual([])
  })

  it('starts the simulator as a child serving those numbers, and stops it with the server', async () => {
    const config = { ...t.config, whatsappSimulator: { mode: 'demo' as const, host: '127.0.0.1', port: SIM_PORT } }
    expect(await startDemoSimulator(t.app, { ...config, whatsappSimulator: { ...config.whatsappSimulator, mode: 'off' } })).toBeNull()
    expect(await startDemoSimulator(t.app, { ...config, production: true })).toBeNull()
    // No channel points at this port yet: nothing to simulate.
    expect(await startDemoSimulator(t.app, config)).toBeNull()

    await t.database.db
      .update(chatChannels)
      .set({ graphUrl: `http://127.0.0.1:${SIM_PORT}` })
      .where(eq(chatChannels.phoneNumberId, DEMO_WHATSAPP.phone_number_id))
    const simulator = await startDemoSimulator(t.app, config)
    expect(simulator).not.toBeNull()
    try {
      const client = new SimulatorClient(simulator!.url)
      await vi.waitFor(() => client.health(), { timeout: 20_000, interval: 100 })
      const [number] = await client.numbers()
      expect(number).toMatchObject({
        phone_number_id: DEMO_WHATSAPP.phone_number_id,
        access_token: DEMO_WHATSAPP.access_token,
        app_secret: DEMO_WHATSAPP.app_secret,
      })
      expect(number!.webhook_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/whatsapp\/\d+\/$/)
      const templates = await fetch(`${simulator!.url}/v23.0/${DEMO_WHATSAPP.waba_id}/message_templates?limit=2`, {
        headers: { authorization: `Bearer ${DEMO_WHATSAPP.access_token}` },
      })
      expect(templates.status).toBe(200)
      expect(((await templates.json()) as { data: unknown[] }).data).toHaveLength(2)
    } finally {
      await simulator!.stop()
    }
    await expect(fetch(`${simulator!.url}/control/health`)).rejects.toThrow()
  })
})
