import { createHmac, randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { safeEqual } from '../../auth/keys.ts'

// The server secret behind the widget's keys. `SECRET_KEY` when set (several instances must share it); else one made
// on first start and kept in DATA_DIR/secret-key (mode 0600), so a single instance keeps its widgets' embed codes and
// visitors' sessions across restarts. Nothing is stored per channel: a channel's public token and its visitor-signing
// key are both derived from this secret and the channel id (HMAC-SHA256 with a purpose label), so no migration and no
// column to leak; rotating SECRET_KEY changes every embed code and ends every visitor session.

export async function loadServerSecret(dataDir: string, fromEnv: string | undefined, log?: FastifyBaseLogger): Promise<Buffer> {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8')
  const file = path.join(dataDir, 'secret-key')
  try {
    const text = (await readFile(file, 'utf8')).trim()
    if (text.length >= 32) return Buffer.from(text, 'utf8')
  } catch {
    // made below
  }
  const fresh = randomBytes(32).toString('base64url')
  await mkdir(dataDir, { recursive: true })
  // `wx`: two instances starting together on one DATA_DIR keep the first one's.
  try {
    await writeFile(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' })
  } catch {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'utf8')
  }
  log?.info('webchat: made a server secret in DATA_DIR/secret-key (set SECRET_KEY when several instances serve the widget)')
  return Buffer.from(fresh, 'utf8')
}

export type ChannelKeys = {
  /** The public id a site embeds (`data-channel`): `<channel id>-<tag>`, the tag unforgeable without the secret. */
  publicToken(channelId: number): string
  /** The channel id of a well-formed, authentic public token, else null. */
  channelOf(token: string): number | null
  /** The key that signs this channel's visitor tokens. */
  visitorKey(channelId: number): Buffer
}

export function channelKeys(secret: Buffer): ChannelKeys {
  const tag = (channelId: number) => createHmac('sha256', secret).update(`webchat-channel:${channelId}`).digest('base64url').slice(0, 22)
  return {
    publicToken: (channelId) => `${channelId}-${tag(channelId)}`,
    channelOf(token) {
      const match = /^([1-9][0-9]{0,9})-([A-Za-z0-9_-]{22})$/.exec(token)
      if (!match) return null
      const id = Number(match[1])
      if (id > 2_147_483_647) return null
      return safeEqual(match[2]!, tag(id)) ? id : null
    },
    visitorKey: (channelId) => createHmac('sha256', secret).update(`webchat-visitor:${channelId}`).digest(),
  }
}
