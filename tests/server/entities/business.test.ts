import { describe } from 'vitest'
import { BUSINESS } from '../../../contract/entities/business.ts'
import { describeEntityCrud } from './crud-cases.ts'
import { useEntitySuite } from './entity-helper.ts'

const s = useEntitySuite()

// Sites are tenants: their own file (sites.test.ts) covers them.
describe('settings → business', () => {
  for (const entity of BUSINESS.filter((e) => e.key !== 'business.sites')) describeEntityCrud(entity.key, s)
})
