import { createHash } from 'node:crypto'
import { hashPassword } from '../auth/passwords.ts'
import type { FieldPlan } from '../db/entity-schema/plan.ts'
import type { EntityContext } from './context.ts'
import type { RawRow } from './serialize.ts'
import { slotValue } from './serialize.ts'

// Secrets are write-only. A value sent replaces the stored one; an empty or absent one keeps it. `hash` stores an
// argon2id hash (sign-in passwords); `opaque` stores the value, which the server itself must send (trunk
// registration, API tokens); `ha1` (SIP devices) stores the secret for the owner's webphone profile and
// HA1 = md5(username:realm:secret) for the SIP proxy's digest check, the realm being the site's domain. HA1 is
// recomputed on every write, since it changes with the username.

type SecretPlan = Extract<FieldPlan, { kind: 'secret' }>

export function ha1(username: string, realm: string, secret: string): string {
  return createHash('md5').update(`${username}:${realm}:${secret}`).digest('hex')
}

/** The secret columns to write (SQL name → value); a kept secret writes nothing, except a fresh HA1. */
export async function secretColumns(
  ctx: EntityContext,
  fields: readonly FieldPlan[],
  values: Record<string, unknown>,
  existing: RawRow | null,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  for (const plan of fields.filter((f): f is SecretPlan => f.kind === 'secret')) {
    const sent = values[plan.field.name]
    const given = typeof sent === 'string' && sent !== '' ? sent : null
    const column = plan.slot.column
    if (plan.field.secret === 'hash') {
      if (given) out[column] = await hashPassword(given)
    } else if (plan.field.secret === 'ha1') {
      const secret = given ?? ((existing && (slotValue(plan, existing) as string)) || '')
      if (given) out[column] = given
      out[plan.ha1!] = secret ? ha1(String(values.username ?? ''), ctx.site.domain, secret) : ''
    } else if (given) {
      out[column] = given
    }
  }
  return out
}
