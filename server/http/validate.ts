import * as v from 'valibot'
import { issuesToFieldErrors } from '../../contract/api/errors.ts'
import { message } from '../../contract/messages.ts'
import type { Locale } from '../../contract/locales.ts'
import { LOCALES } from '../../contract/locales.ts'
import { fieldErrors } from './errors.ts'

// Issues from schema parts that carry no message of their own must still answer in the caller's language rather
// than valibot's English default. A missing key is reported by its object schema, so it is recognised here and given
// the same "required" text a present-but-empty field gets.
for (const lang of LOCALES) {
  v.setGlobalMessage((issue) => message(issue.path?.length && issue.input === undefined ? 'required' : 'invalidValue', issue.lang), lang)
}

/**
 * Parses request input with a contract schema; invalid input becomes a 400 with DRF field errors. One message per
 * field (abortPipeEarly): a blank required text would otherwise be reported by several of its checks at once.
 */
export function parseInput<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown, lang: Locale): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { lang, abortPipeEarly: true })
  if (!result.success) throw fieldErrors(issuesToFieldErrors(result.issues))
  return result.output
}
