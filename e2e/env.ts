import { join } from 'node:path'
import { tmpdir } from 'node:os'

// One fixed port and data folder per run: global-setup empties the folder and prepares the database before the
// web server starts on it.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181)
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? join(tmpdir(), `atende-e2e-${E2E_PORT}`)

// The real SIP and media engines run for the browser tests too (TELEPHONY stays embedded), on ports of their own so
// that a developer's `npm start` (5060, 8088, 8448, 2223, 30000-30999, 9999) keeps running beside them. The default run
// (E2E_PORT 8181) uses 15060, 18088, 18448, 12223, 40000-40999, 19999; a run on another E2E_PORT (helpers running
// side by side) gets a block of its own derived from it, so that two runs never fight over Kamailio's ports. The demo
// trunk's "outside" peer is whatever answers on 127.0.0.1:5090 (a test's baresip; telephony.spec.ts moves the trunk
// to `E2E_TRUNK_PORT`).
const DEFAULT_E2E_PORT = 8181
const slot = E2E_PORT === DEFAULT_E2E_PORT ? null : E2E_PORT % 100
/** Five loopback ports per run: SIP (UDP+TCP), Kamailio's WebSocket, evapi, rtpengine ng, the DTMF log. */
const base = slot == null ? null : 20_000 + slot * 20
export const E2E_SIP_PORT = base ?? 15060
/** Where a test's baresip trunk listens (baresip also opens TCP on the next port). */
export const E2E_TRUNK_PORT = base == null ? 5090 : base + 10
export const E2E_TELEPHONY_ENV = {
  TELEPHONY: 'embedded',
  SIP_PORT: String(E2E_SIP_PORT),
  SIP_WS_PORT: String(base == null ? 18088 : base + 1),
  EVAPI_PORT: String(base == null ? 18448 : base + 2),
  RTPENGINE_NG_PORT: String(base == null ? 12223 : base + 3),
  RTP_PORT_MIN: String(base == null ? 40000 : 42_000 + slot! * 200),
  RTP_PORT_MAX: String(base == null ? 40999 : 42_000 + slot! * 200 + 199),
  DTMF_LOG_PORT: String(base == null ? 19999 : base + 4),
  // The media app: its SIP port would otherwise be 5090, where the tests' baresip trunk listens.
  MEDIA_SIP_PORT: String(base == null ? 15090 : base + 5),
  MEDIA_CONTROL_PORT: String(base == null ? 18449 : base + 6),
} as const

/** The WhatsApp simulator (simulator/whatsapp/) the e2e server starts beside itself, with the demo channel pointed at it. */
export const E2E_WA_SIM_PORT = Number(process.env.E2E_WA_SIM_PORT ?? E2E_PORT + 10)
