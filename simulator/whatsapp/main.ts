import { readFileSync } from 'node:fs'
import type { NumberInput, SimulatorOptions } from './simulator.ts'
import { createSimulator } from './simulator.ts'

// `node simulator/whatsapp/main.ts` (or `npm run simulator`): the WhatsApp Cloud API simulator on its own.
//   WA_SIM_PORT     port (default 8091)           WA_SIM_HOST   address (default 127.0.0.1)
//   WA_SIM_CONFIG   path to a JSON file of options (SimulatorOptions: numbers, windowMs, outsideWindow, chaos, ...)
//   WA_SIM_NUMBERS  JSON array of business numbers (added to the config's)
//   WA_SIM_VERIFY   1: on start, run Meta's GET verification against each number's webhook and report it

function fail(message: string): never {
  console.error(`whatsapp simulator: ${message}`)
  process.exit(1)
}

function json<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T
  } catch (error) {
    return fail(`${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const env = process.env
const options: SimulatorOptions = env.WA_SIM_CONFIG ? json(readFileSync(env.WA_SIM_CONFIG, 'utf8'), env.WA_SIM_CONFIG) : {}
if (env.WA_SIM_NUMBERS) options.numbers = [...(options.numbers ?? []), ...json<NumberInput[]>(env.WA_SIM_NUMBERS, 'WA_SIM_NUMBERS')]
if (!options.numbers?.length) {
  // A number to play with when nothing is configured (its webhook goes nowhere until one is set).
  options.numbers = [
    {
      phone_number_id: '100000000000001',
      waba_id: '200000000000001',
      access_token: 'simulator-access-token',
      app_secret: 'simulator-app-secret',
      verify_token: 'simulator-verify-token',
      webhook_url: env.WA_SIM_WEBHOOK_URL ?? '',
      display_phone_number: '5511999990000',
      verified_name: 'Atende Demo',
    },
  ]
}
const port = Number(env.WA_SIM_PORT || options.port || 8091)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`WA_SIM_PORT must be a port number, got ${env.WA_SIM_PORT}`)
const simulator = createSimulator({ ...options, port, host: env.WA_SIM_HOST || options.host || '127.0.0.1' })

let url: string
try {
  url = await simulator.listen()
} catch (error) {
  fail(`could not listen on ${port}: ${error instanceof Error ? error.message : String(error)}`)
}
console.log(`WhatsApp simulator at ${url}  (customer page: ${url}/ , Graph API: ${url}/v23.0/...)`)
for (const number of simulator.state.numbers.values()) {
  console.log(
    `  number +${number.display_phone_number}  phone_number_id=${number.phone_number_id}  waba=${number.waba_id}  webhook=${number.webhook_url || '(none)'}`,
  )
}

if (env.WA_SIM_VERIFY === '1') {
  for (const number of simulator.state.numbers.values()) {
    if (!number.webhook_url) continue
    // The product may still be starting: a few tries, a second apart.
    let result = await simulator.verifyWebhook(number.phone_number_id)
    for (let attempt = 1; attempt < 5 && result.status === null; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      result = await simulator.verifyWebhook(number.phone_number_id)
    }
    const detail = result.error ?? `HTTP ${result.status}${result.ok ? '' : `, body ${JSON.stringify(result.body.slice(0, 80))}`}`
    console.log(`  webhook verification of ${number.phone_number_id}: ${result.ok ? 'ok' : 'FAILED'} (${detail})`)
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void simulator.close().then(() => process.exit(0))
  })
}
