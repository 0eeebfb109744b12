import { describe } from 'vitest'
import { CRM } from '../../../contract/entities/crm.ts'
import { describeEntityCrud } from './crud-cases.ts'
import { useEntitySuite } from './entity-helper.ts'

const s = useEntitySuite()

describe('settings → CRM', () => {
  for (const entity of CRM) describeEntityCrud(entity.key, s)
})
