import type { FastifyInstance } from 'fastify'
import type { Action } from '../../contract/entities/index.ts'
import { ENTITIES } from '../../contract/entities/index.ts'
import { t } from '../../contract/entities/define.ts'
import type { Texts } from '../../contract/entities/index.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import type { Locale } from '../../contract/locales.ts'

// GET /api/v1/business/permissions/ — what the permission groups form picks from (business.groups' lookup):
// every codename the server knows, named in the caller's language where a settings entity gives it a name.

const ACTIONS: Record<Action, Texts> = {
  view: t('ver', 'view', 'ver'),
  add: t('adicionar', 'add', 'añadir'),
  change: t('alterar', 'change', 'cambiar'),
  delete: t('excluir', 'delete', 'eliminar'),
}

function names(lang: Locale): Map<string, string> {
  const named = new Map<string, string>()
  for (const entity of ENTITIES) {
    for (const [action, codename] of Object.entries(entity.permissions) as [Action, string][]) {
      named.set(codename, `${entity.label.plural[lang]}: ${ACTIONS[action][lang]}`)
    }
  }
  return named
}

export async function permissionListRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/business/permissions/', { config: { permission: 'business.view_group' as RoutePermission } }, async (request) => {
    const query = request.query as Record<string, string | undefined>
    const named = names(request.lang)
    const term = (query.search ?? '').trim().toLowerCase()
    const all = ALL_PERMISSIONS.map((codename) => ({ codename, name: named.get(codename) ?? codename })).filter(
      (p) => !term || p.codename.toLowerCase().includes(term) || p.name.toLowerCase().includes(term),
    )
    const offset = Math.max(0, Number(query.offset) || 0)
    const limit = Math.max(1, Number(query.limit) || all.length || 1)
    return { count: all.length, results: all.slice(offset, offset + limit) }
  })
}
