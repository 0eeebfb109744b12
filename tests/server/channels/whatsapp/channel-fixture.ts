import { eq } from 'drizzle-orm'
import { chatChannels, sites } from '../../../../server/db/schema/index.ts'
import type { Db } from '../../../../server/db/client.ts'
import { PHONE_NUMBER_ID, WABA_ID } from './payloads.ts'

export const APP_SECRET = 'test-app-secret'
export const VERIFY_TOKEN = 'test-verify-token'

/** A WhatsApp channel of the demo site (localhost) pointed at `graphUrl`. */
export async function createWhatsAppChannel(
  db: Db,
  o: { graphUrl?: string; phoneNumberId?: string; accessToken?: string; appSecret?: string; domain?: string } = {},
) {
  const [site] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(eq(sites.domain, o.domain ?? 'localhost'))
  const [row] = await db
    .insert(chatChannels)
    .values({
      siteId: site.id,
      description: 'WhatsApp test',
      type: 'whatsapp',
      phoneNumberId: o.phoneNumberId ?? PHONE_NUMBER_ID,
      wabaId: WABA_ID,
      accessToken: o.accessToken ?? 'EAAG-test-token',
      appSecret: o.appSecret ?? APP_SECRET,
      verifyToken: VERIFY_TOKEN,
      apiVersion: 'v23.0',
      graphUrl: o.graphUrl ?? 'http://127.0.0.1:1',
    })
    .returning({ id: chatChannels.id, siteId: chatChannels.siteId })
  return row
}
