import type { Destination } from '../call-plan.ts'
import { rejectWith } from '../protocol.ts'

// `hangup`: the call is declined (603).
export const hangupDestination: Destination = async (_env, base) => [{ ...base, kind: 'reject', decision: rejectWith(603) }]
