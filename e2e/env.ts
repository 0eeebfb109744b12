import { join } from 'node:path'
import { tmpdir } from 'node:os'

// One fixed port and data folder per run: global-setup empties the folder and prepares the database before the
// web server starts on it.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181)
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? join(tmpdir(), `atende-e2e-${E2E_PORT}`)

// The real SIP and media engines run for the browser tests too (TELEPHONY stays embedded), on ports of their own so
// that a developer's `npm start` (5060, 8088, 8448, 2223, 30000-30999, 9999) keeps running beside them. The demo
// trunk's "outside" peer is whatever answers on 127.0.0.1:5090 (a test's baresip).
export const E2E_SIP_PORT = 15060
export const E2E_TELEPHONY_ENV = {
  TELEPHONY: 'embedded',
  SIP_PORT: String(E2E_SIP_PORT),
  SIP_WS_PORT: '18088',
  EVAPI_PORT: '18448',
  RTPENGINE_NG_PORT: '12223',
  RTP_PORT_MIN: '40000',
  RTP_PORT_MAX: '40999',
  DTMF_LOG_PORT: '19999',
} as const
