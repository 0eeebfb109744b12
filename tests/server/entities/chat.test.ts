import { describe } from 'vitest'
import { CHAT } from '../../../contract/entities/chat.ts'
import { INTEGRATION } from '../../../contract/entities/integration.ts'
import { describeEntityCrud } from './crud-cases.ts'
import { useEntitySuite } from './entity-helper.ts'

const s = useEntitySuite()

describe('settings → chat and system integration', () => {
  for (const entity of [...CHAT, ...INTEGRATION]) describeEntityCrud(entity.key, s)
})
