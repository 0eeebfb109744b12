import { describe } from 'vitest'
import { SERVICE } from '../../../contract/entities/service.ts'
import { CLASSIFICATIONS } from '../../../contract/entities/service-classifications.ts'
import { QUEUES } from '../../../contract/entities/service-queues.ts'
import { describeEntityCrud } from './crud-cases.ts'
import { useEntitySuite } from './entity-helper.ts'

const s = useEntitySuite()

describe('settings → service (teams, pauses, calendars, forms, classifications, queues, NPS)', () => {
  for (const entity of [...SERVICE, ...CLASSIFICATIONS, ...QUEUES]) describeEntityCrud(entity.key, s)
})
