import { and, eq, inArray, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { EntityKey } from '../../contract/entities/index.ts'
import { entityMessage, isRowId } from '../../contract/entities/index.ts'
import type { ExtraFilter } from './list-query.ts'
import { tablesOf } from './tables.ts'

// Filters the spec names that are not a field of the entity itself. Sub-classifications belong to a classification
// through the unions (spec 000 §3 chain queue → classification → sub-classification), so
// GET /api/v1/service/sub-classifications/?classification_id= lists those with an active union to it.
const subClassificationsOf: ExtraFilter = (ctx, value, errors): SQL | undefined => {
  if (!isRowId(value)) {
    errors.classification_id = [entityMessage('invalidValue', ctx.lang)]
    return undefined
  }
  const unions = tablesOf('service.unions').main
  const subs = tablesOf('service.sub-classifications').main
  const linked = sql`(select ${unions.col('sub_classification_id')} from ${unions.table} where ${and(
    eq(unions.col('site_id'), ctx.site.id),
    eq(unions.col('classification_id'), Number(value)),
    eq(unions.col('is_active'), true),
  )})`
  return inArray(subs.col('id'), linked)
}

export const EXTRA_FILTERS: Partial<Record<EntityKey, Record<string, ExtraFilter>>> = {
  'service.sub-classifications': { classification_id: subClassificationsOf },
}
