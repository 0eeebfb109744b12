import { describe } from 'vitest'
import { PABX } from '../../../contract/entities/pabx.ts'
import { PABX_MEDIA } from '../../../contract/entities/pabx-media.ts'
import { PABX_ROUTES } from '../../../contract/entities/pabx-routes.ts'
import { describeEntityCrud } from './crud-cases.ts'
import { useEntitySuite } from './entity-helper.ts'

const s = useEntitySuite()

describe('settings → PABX (devices, trunks, routes, media, IVRs)', () => {
  for (const entity of [...PABX, ...PABX_ROUTES, ...PABX_MEDIA]) describeEntityCrud(entity.key, s)
})
