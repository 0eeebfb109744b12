import type { Bus } from '../bus/bus.ts'

// The settings write path announces "devices, trunks or sites changed" once a write is committed
// (server/telephony/entity-hooks.ts); every server instance's telephony service hears it on the bus, re-reads its tables and
// pushes them to the Kamailio it drives (server/telephony/credentials.ts).
export const TELEPHONY_TABLES_CHANNEL = 'telephony:tables'

export type TelephonyTable = 'devices' | 'trunks' | 'sites'

export async function telephonyTablesChanged(bus: Bus | undefined, table: TelephonyTable): Promise<void> {
  await bus?.publish(TELEPHONY_TABLES_CHANNEL, { table })
}
