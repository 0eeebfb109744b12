import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Entity, EntityKey } from '../../contract/entities/index.ts'
import type { Permission } from '../../contract/permissions.ts'
import { ENTITIES } from '../../contract/entities/index.ts'
import { detailError } from '../http/errors.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import type { EntityContext } from './context.ts'
import { readEntityInput } from './request-input.ts'
import { createRecord, deleteRecord, duplicateRecord, getRecord, listRecords, updateRecord } from './service.ts'
import { bindAll } from './tables.ts'

// Every settings entity at its API path (`/api/v1/<area>/<name>/`), one route per action, each guarded by the
// entity's own codename: list and detail need view, POST add, PUT/PATCH change, DELETE delete.

const MAX_ID = 2_147_483_647

export function entityContext(app: FastifyInstance, request: FastifyRequest): EntityContext {
  return {
    db: app.deps.db,
    site: request.site!,
    userId: request.auth?.user.id ?? null,
    lang: request.lang,
    mediaDir: app.deps.config.mediaDir,
    origin: { secure: request.protocol === 'https', host: request.host },
    bus: app.deps.bus,
  }
}

/** The id in a detail path; anything but a positive integer names no row. */
export function rowId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? ''
  const id = Number(raw)
  if (!/^[1-9]\d*$/.test(raw) || id > MAX_ID) throw detailError(404, 'notFound', request.lang)
  return id
}

/** The route path below the /api prefix the API plugin is registered with. */
export function below(api: string): string {
  return api.replace(/^\/api/, '')
}

/**
 * A detail path the spec also gives another audience (GET /api/v1/chat/templates/{id}/: the settings record for the
 * catalogue, one template ready to fill for an agent's dialog): `readers` may call it too, and `read` answers; it
 * gets the settings record (`record()`) for callers that should see that.
 */
export type DetailReader = {
  readers: readonly Permission[]
  read(app: FastifyInstance, request: FastifyRequest, id: number, record: () => Promise<unknown>): Promise<unknown>
}
const DETAIL_READERS = new Map<EntityKey, DetailReader>()

/** Called when the owning module loads (before the routes are registered). */
export function registerDetailReader(key: EntityKey, reader: DetailReader): void {
  DETAIL_READERS.set(key, reader)
}

function register(app: FastifyInstance, entity: Entity): void {
  const list = below(entity.api)
  const detail = `${list}:id/`
  const guard = (action: keyof Entity['permissions']) => ({ config: { permission: entity.permissions[action] as RoutePermission } })
  // Who may read: the view codename, or one of the entity's readers (the agent's call form reads the classifications).
  const reading = entity.readers?.length
    ? { config: { permission: [entity.permissions.view, ...entity.readers] as unknown as RoutePermission } }
    : guard('view')

  app.get(list, reading, (request) => listRecords(entityContext(app, request), entity, request.query as Record<string, unknown>))
  // `?duplicate=true`: the record to prefill a copy with, its unique values made free (unique.ts).
  const detailReader = DETAIL_READERS.get(entity.key)
  const detailReading = detailReader
    ? { config: { permission: [entity.permissions.view, ...(entity.readers ?? []), ...detailReader.readers] as unknown as RoutePermission } }
    : reading
  app.get(detail, detailReading, (request) => {
    const read = (request.query as { duplicate?: unknown }).duplicate === 'true' ? duplicateRecord : getRecord
    const record = () => read(entityContext(app, request), entity, rowId(request))
    return detailReader ? detailReader.read(app, request, rowId(request), record) : record()
  })
  app.post(list, guard('add'), async (request, reply) => {
    const record = await createRecord(entityContext(app, request), entity, await readEntityInput(request, entity))
    return reply.code(201).send(record)
  })
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: detail,
      ...guard('change'),
      handler: async (request) => {
        const id = rowId(request)
        return updateRecord(entityContext(app, request), entity, id, await readEntityInput(request, entity), method === 'PATCH')
      },
    })
  }
  app.delete(detail, guard('delete'), async (request, reply) => {
    await deleteRecord(entityContext(app, request), entity, rowId(request))
    return reply.code(204).send()
  })
}

export async function entityRoutes(app: FastifyInstance): Promise<void> {
  bindAll(ENTITIES.map((e) => e.key))
  for (const entity of ENTITIES) register(app, entity)
}
