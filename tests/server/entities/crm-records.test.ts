import { describe } from 'vitest'
import { CRM_RECORDS } from '../../../contract/entities/crm-records.ts'
import { describeEntityCrud } from './crud-cases.ts'
import { useEntitySuite } from './entity-helper.ts'

const s = useEntitySuite()

// The CRM's own records (clients, mailings, leads, interaction records): the same cases every settings entity runs
// (create, list, detail, PUT/PATCH, permissions, tenancy, delete, audit).
describe('CRM records', () => {
  for (const entity of CRM_RECORDS) describeEntityCrud(entity.key, s)
})
