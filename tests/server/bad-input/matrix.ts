import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Entity, Field } from '../../../contract/entities/index.ts'
import { ENTITIES } from '../../../contract/entities/index.ts'
import { REPO_ROOT } from '../../../server/config.ts'
import type { Db } from '../../../server/db/client.ts'
import type { RouteDeclaration } from '../../../server/http/permission-guard.ts'
import type { TestClient } from '../helper.ts'

// The no-5xx matrix (issue 10 item 1): the routes come from the app's own route table (the permission snapshot's
// source), so a new route is covered the day it is added; the keys a route may read come from the settings entities'
// fields and from every object schema of contract/api. Each shape a fuzzer sent is built here.

export type Route = RouteDeclaration & { entity?: Entity; detail: boolean }
export type Sent = { route: Route; shape: string; response: LightMyRequestResponse }

/** Every route of the app but the websocket upgrades (their own tests send them malformed frames). */
export function routesOf(app: FastifyInstance): Route[] {
  const byApi = new Map(ENTITIES.map((e) => [e.api, e]))
  return app
    .routePermissions()
    .filter((r) => !r.url.startsWith('/ws/'))
    .map((r) => {
      const list = r.url.replace(/:id\/$/, '')
      const entity = byApi.get(list)
      return { ...r, entity, detail: entity !== undefined && list !== r.url }
    })
}

/** The route's path with every parameter (and a wildcard) set to `value` (already URL-encoded). */
export function fill(url: string, value: string): string {
  return url.replace(/:\w+/g, value).replace(/\*$/, value)
}

export const hasParams = (route: Route) => /:\w+|\*$/.test(route.url)
export const takesBody = (route: Route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)

/** Routes that read a multipart body: settings writes, CSV imports, the avatar. */
export const readsMultipart = (route: Route) =>
  ['POST', 'PUT', 'PATCH'].includes(route.method) && (route.entity !== undefined || /\/import\/|change-avatar/.test(route.url))

type SchemaLike = { type?: string; entries?: Record<string, unknown>; pipe?: unknown[]; wrapped?: unknown; options?: unknown[] }

function collectKeys(schema: unknown, keys: Set<string>, depth = 0): void {
  if (!schema || typeof schema !== 'object' || depth > 6) return
  const s = schema as SchemaLike
  if (s.entries) {
    for (const [key, inner] of Object.entries(s.entries)) {
      keys.add(key)
      collectKeys(inner, keys, depth + 1)
    }
  }
  for (const inner of [s.wrapped, ...(s.pipe ?? []), ...(Array.isArray(s.options) ? s.options : [])]) collectKeys(inner, keys, depth + 1)
}

/** Every key of every object schema the contract's API modules export (bodies and queries of the non-entity routes). */
export async function contractKeys(): Promise<string[]> {
  const keys = new Set(['id', 'search', 'offset', 'limit', 'ordering', 'page', 'entity', 'object_id', 'user', 'action'])
  const dir = path.join(REPO_ROOT, 'contract', 'api')
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(path.join(dir, file))) as Record<string, unknown>
    for (const value of Object.values(module)) collectKeys(value, keys)
  }
  return [...keys].sort()
}

/**
 * The query keys of an entity's list (list-query.ts) that parse a number, date or id — the ones a value past a column
 * can break; text filters compare text and are covered by the NUL shapes.
 */
export function entityNumericQueryKeys(entity: Entity): string[] {
  const keys = new Set(['id', 'id__in', 'exclude_id', 'offset', 'limit'])
  for (const field of entity.fields) {
    if (['int', 'numeric', 'timestamptz'].includes(field.storage)) for (const s of ['', '__in', '__gte', '__lte']) keys.add(field.name + s)
    if (field.relation || field.storage === 'fk' || field.storage === 'm2m') {
      const single = field.name.endsWith('s') ? field.name.slice(0, -1) : field.name
      for (const k of [field.name, `${field.name}__in`, `${field.name}_id`, `${single}_id`, `${single}_id__in`]) keys.add(k)
    }
    if (field.storage === 'app') keys.add(`${field.name}_appdata`)
  }
  if (entity.key === 'service.sub-classifications') keys.add('classification_id')
  return [...keys]
}

/** Every query key of an entity's list: its fields, their suffixes, and the paging ones. */
export function entityQueryKeys(entity: Entity): string[] {
  const keys = new Set([...entityNumericQueryKeys(entity), 'ordering', 'search'])
  for (const field of entity.fields) {
    if (field.storage === 'none') continue
    keys.add(field.name)
    keys.add(`${field.name}__in`)
    if (field.storage === 'app') keys.add(`${field.name}_app`)
  }
  return [...keys]
}

/** The one value past a column a field's PATCH carries, in the shape its input takes. */
export function overflowFor(field: Field): unknown {
  if (field.storage === 'm2m' || field.multiple) return [OVERFLOW]
  if (field.storage === 'app') return { app: field.apps?.[0] ?? 'queue', appdata: String(OVERFLOW) }
  if (field.storage === 'text') return String(OVERFLOW)
  return OVERFLOW
}

/** Fields whose column is an integer: a value past its range must be refused (400), never reach the database. */
export function holdsInteger(field: Field): boolean {
  return field.storage === 'int' || field.storage === 'fk' || field.storage === 'm2m'
}

export const OVERFLOW = 2_147_483_648
export const NUL = 'a\u0000b'

/** Nested `depth` levels deep: [[[...]]] and {"a":{"a":...}}. */
export function deepJson(depth: number): string[] {
  return ['['.repeat(depth) + ']'.repeat(depth), '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)]
}

/**
 * Multipart bodies the parser cannot read: no boundary, truncated, a params part not JSON. `refused` false: the
 * parser skips the part (a header line without a colon names no field), so the body reads as an empty one.
 */
export function malformedMultipart(): { name: string; payload: string; contentType: string; refused: boolean }[] {
  const b = '----atendebad'
  const type = `multipart/form-data; boundary=${b}`
  return [
    { name: 'no boundary', payload: `--${b}\r\n\r\n`, contentType: 'multipart/form-data', refused: true },
    { name: 'truncated', payload: `--${b}\r\nContent-Disposition: form-data; name="params"\r\n\r\n{"a":`, contentType: type, refused: true },
    { name: 'broken header', payload: `--${b}\r\nContent-Disposition\r\n\r\nx\r\n--${b}--\r\n`, contentType: type, refused: false },
    {
      name: 'truncated file',
      payload: `--${b}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`,
      contentType: type,
      refused: true,
    },
    { name: 'garbage', payload: '\u0000\u0001\u0002garbage', contentType: type, refused: true },
  ]
}

/** A `params` part (settings writes) that is not JSON, too deep, or holds a NUL: refused with the params' error. */
export function badParams(): { name: string; payload: string; contentType: string }[] {
  const b = '----atendebad'
  const type = `multipart/form-data; boundary=${b}`
  const part = (text: string) => `--${b}\r\nContent-Disposition: form-data; name="params"\r\n\r\n${text}\r\n--${b}--\r\n`
  return [
    { name: 'params not JSON', payload: part('{nope'), contentType: type },
    { name: 'params deep', payload: part(deepJson(5000)[1]!), contentType: type },
    { name: 'params with NUL', payload: part('{"description":"a\\u0000b"}'), contentType: type },
  ]
}

export async function send(
  client: TestClient,
  route: Route,
  shape: string,
  url: string,
  options: { payload?: unknown; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const response = await client.request(route.method, url, options)
  return { route, shape, response }
}

/** A readable line for a failed expectation. */
export function describeSent(sent: Sent): string {
  return `${sent.route.method} ${sent.route.url} [${sent.shape}] → ${sent.response.statusCode} ${sent.response.body.slice(0, 160)}`
}

/**
 * A digest of every row of every table but the ones a request may legitimately touch while refusing it (none today),
 * to show that refused requests changed nothing.
 */
export async function fingerprint(db: Db): Promise<Map<string, string>> {
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: { table_name: string }[] }
  const digest = new Map<string, string>()
  for (const { table_name: table } of tables.rows) {
    const result = (await db.execute(
      sql`select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as digest from ${sql.identifier(table)} t`,
    )) as unknown as { rows: { digest: string }[] }
    digest.set(table, result.rows[0]!.digest)
  }
  return digest
}

export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([table, digest]) => before.get(table) !== digest).map(([table]) => table)
}
