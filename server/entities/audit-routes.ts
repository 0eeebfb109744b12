import { and, asc, desc, eq, gte, lte } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { UNPAGED_LIMIT } from '../../contract/constants.ts'
import { entityMessage } from '../../contract/entities/index.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { auditLog, users } from '../db/schema/index.ts'
import { fieldErrors } from '../http/errors.ts'
import { MAX_LIMIT } from './list-query.ts'
import { toDate } from './write.ts'
import type { FieldErrors } from './types.ts'

// GET /api/v1/system/audit-log/ — who changed which settings row: filters entity, object_id, user, action and a
// date range (at__gte, at__lte), ordering by at, id, entity or action ('-at,-id' by default), offset/limit paging.
// Only the caller's site's entries. `cascade_of` ({entity, object_id}) marks an entry the database's cascade caused
// when that row was deleted; null for a change made directly.

type Query = Record<string, string | undefined>

const ORDERABLE = { at: auditLog.at, id: auditLog.id, entity: auditLog.entity, action: auditLog.action, object_id: auditLog.objectId, user: auditLog.userId }

function filters(query: Query, siteId: number, lang: string): SQL[] {
  const errors: FieldErrors = {}
  const where: SQL[] = [eq(auditLog.siteId, siteId)]
  const int = (name: string) => {
    const value = query[name]
    if (value === undefined || value === '') return undefined
    if (!/^\d+$/.test(value) || Number(value) > 2_147_483_647) errors[name] = [entityMessage('invalidValue', lang)]
    return Number(value)
  }
  const date = (name: string) => {
    const value = query[name]
    if (value === undefined || value === '') return undefined
    const parsed = toDate(value)
    if (Number.isNaN(parsed.getTime())) errors[name] = [entityMessage('invalidDate', lang)]
    return parsed
  }
  if (query.entity) where.push(eq(auditLog.entity, query.entity))
  if (query.action) where.push(eq(auditLog.action, query.action as 'create'))
  const objectId = int('object_id')
  const user = int('user')
  const from = date('at__gte')
  const until = date('at__lte')
  if (Object.keys(errors).length) throw fieldErrors(errors)
  if (objectId !== undefined) where.push(eq(auditLog.objectId, objectId))
  if (user !== undefined) where.push(eq(auditLog.userId, user))
  if (from) where.push(gte(auditLog.at, from))
  if (until) where.push(lte(auditLog.at, until))
  return where
}

function ordering(requested: string | undefined): SQL[] {
  const order = (requested || '-at,-id')
    .split(',')
    .map((term) => term.trim())
    .flatMap((term) => {
      const column = ORDERABLE[term.replace(/^-/, '') as keyof typeof ORDERABLE]
      return column ? [term.startsWith('-') ? desc(column) : asc(column)] : []
    })
  return [...order, desc(auditLog.id)]
}

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/system/audit-log/', { config: { permission: PERMISSIONS.viewAuditLog } }, async (request) => {
    const query = request.query as Query
    const where = and(...filters(query, request.site!.id, request.lang))
    const offset = Math.max(0, Number(query.offset) || 0)
    const limit = Math.min(Math.max(1, Number(query.limit) || UNPAGED_LIMIT), MAX_LIMIT)
    const db = app.deps.db
    const count = await db.$count(auditLog, where)
    const rows = await db
      .select({ entry: auditLog, username: users.username })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.userId))
      .where(where)
      .orderBy(...ordering(query.ordering))
      .limit(limit)
      .offset(offset)
    const results = rows.map(({ entry, username }) => ({
      id: entry.id,
      entity: entry.entity,
      object_id: entry.objectId,
      action: entry.action,
      user: entry.userId,
      user_description: username,
      before: entry.before,
      after: entry.after,
      cascade_of: entry.cascadeOf,
      at: entry.at.toISOString(),
    }))
    return { count, results }
  })
}
