import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import { documentKey } from '../../contract/entities/validators.ts'
import { canonicalPhone, DEFAULT_PHONE_COUNTRY, e164 } from '../../contract/phone.ts'
import type { Db } from '../db/client.ts'
import { chatRooms, crmClientKeys, crmClients } from '../db/schema/index.ts'

// The phones and documents of a client as lookup keys (crm_client_keys): E.164 phones and bare documents, one row
// each, rewritten on every write of the client. A ringing number or an arriving chat finds its client by one index
// probe, and two clients sharing a key are possible duplicates.

export type KeyKind = 'phone' | 'document'

const split = (value: unknown) =>
  String(value ?? '')
    .split(';')
    .map((item) => item.trim())
    .filter(Boolean)

/** A client's phones as stored: each in E.164 when it reads as a number, as typed otherwise (validation answers). */
export function normalisePhones(value: unknown): string {
  return [...new Set(split(value).map((phone) => (canonicalPhone(phone, { defaultCountry: DEFAULT_PHONE_COUNTRY }).length >= 8 ? e164(phone) : phone)))].join(';')
}

export function normaliseDocuments(value: unknown): string {
  return [...new Set(split(value).map(documentKey).filter(Boolean))].join(';')
}

/** The lookup key of a number from anywhere (a caller id, a wa_id, a typed search): E.164 with '+', '' when none. */
export function phoneKey(raw: string): string {
  const digits = canonicalPhone(raw, { defaultCountry: DEFAULT_PHONE_COUNTRY })
  return digits.length >= 8 ? `+${digits}` : ''
}

/** Rewrites the keys of one client from its stored row. */
export async function writeClientKeys(db: Db, siteId: number, clientId: number): Promise<void> {
  const [row] = await db.select({ phones: crmClients.phones, documents: crmClients.documents }).from(crmClients).where(eq(crmClients.id, clientId))
  await db.delete(crmClientKeys).where(eq(crmClientKeys.clientId, clientId))
  if (!row) return
  const keys = [
    ...split(row.phones).map((value) => ({ kind: 'phone', value: phoneKey(value) })),
    ...split(row.documents).map((value) => ({ kind: 'document', value: documentKey(value) })),
  ].filter((k) => k.value && k.value.length <= 32)
  const unique = [...new Map(keys.map((k) => [`${k.kind}:${k.value}`, k])).values()]
  if (unique.length) await db.insert(crmClientKeys).values(unique.map((k) => ({ siteId, clientId, ...k }))).onConflictDoNothing()
}

/** The client a number belongs to: the most recently created one holding it (null when none). */
export async function clientByPhone(db: Db, siteId: number, raw: string): Promise<number | null> {
  const value = phoneKey(raw)
  if (!value) return null
  const [row] = await db
    .select({ id: crmClientKeys.clientId })
    .from(crmClientKeys)
    .where(and(eq(crmClientKeys.siteId, siteId), eq(crmClientKeys.kind, 'phone'), eq(crmClientKeys.value, value)))
    .orderBy(sql`${crmClientKeys.clientId} desc`)
    .limit(1)
  return row?.id ?? null
}

/** Other clients of the site sharing a phone or a document with this one, with what they share. */
export async function duplicatesOf(db: Db, siteId: number, clientId: number): Promise<{ id: number; name: string; shared: { kind: KeyKind; value: string }[] }[]> {
  const own = await db.select({ kind: crmClientKeys.kind, value: crmClientKeys.value }).from(crmClientKeys).where(eq(crmClientKeys.clientId, clientId))
  if (!own.length) return []
  const matches = await db
    .select({ id: crmClientKeys.clientId, kind: crmClientKeys.kind, value: crmClientKeys.value, name: crmClients.name })
    .from(crmClientKeys)
    .innerJoin(crmClients, eq(crmClients.id, crmClientKeys.clientId))
    .where(
      and(
        eq(crmClientKeys.siteId, siteId),
        ne(crmClientKeys.clientId, clientId),
        inArray(
          sql`(${crmClientKeys.kind} || ':' || ${crmClientKeys.value})`,
          own.map((k) => `${k.kind}:${k.value}`),
        ),
      ),
    )
    .limit(200)
  const byClient = new Map<number, { id: number; name: string; shared: { kind: KeyKind; value: string }[] }>()
  for (const m of matches) {
    const entry = byClient.get(m.id) ?? { id: m.id, name: m.name, shared: [] }
    entry.shared.push({ kind: m.kind as KeyKind, value: m.value })
    byClient.set(m.id, entry)
  }
  return [...byClient.values()].sort((a, b) => a.id - b.id)
}

/**
 * A conversation still open with a number nobody knew belongs to the client created (or given that number) now: the
 * agent who pressed 'Criar cliente' in the chat workspace finds that chat on the new client's timeline. Only open,
 * unmatched rooms move (few per site); finished ones keep what they matched when they happened.
 */
export async function linkOpenRooms(db: Db, siteId: number, clientId: number): Promise<void> {
  const keys = await db
    .select({ value: crmClientKeys.value })
    .from(crmClientKeys)
    .where(and(eq(crmClientKeys.clientId, clientId), eq(crmClientKeys.kind, 'phone')))
  if (keys.length === 0) return
  const wanted = new Set(keys.map((k) => k.value))
  const open = await db
    .select({ id: chatRooms.id, phone: chatRooms.phone })
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), isNull(chatRooms.clientId), isNull(chatRooms.finishedAt), ne(chatRooms.phone, '')))
  const ids = open.filter((room) => wanted.has(phoneKey(`+${room.phone.replace(/^\+/, '')}`))).map((room) => room.id)
  if (ids.length) await db.update(chatRooms).set({ clientId }).where(and(inArray(chatRooms.id, ids), eq(chatRooms.siteId, siteId), isNull(chatRooms.clientId)))
}
