import * as v from 'valibot'
import { message } from '../messages.ts'

// Building blocks of the shared schemas. Messages are functions of the issue so that `v.safeParse(schema, input,
// { lang })` answers in the caller's language (the server passes the request's locale, the SPA its active one).
export const required = (issue: v.BaseIssue<unknown>) => message('required', issue.lang)

/** A required, trimmed string with optional length limits (spec 000 §5 messages). */
export function text(opts: { min?: number; max?: number } = {}) {
  const max = opts.max ?? 10_000
  const min = opts.min ?? 1
  // A blank value gets one message: 'required' below the first character, the length message above it.
  return v.pipe(
    v.string(required),
    v.trim(),
    v.minLength(min, (issue) => (issue.received === '0' || min === 1 ? required(issue) : message('minLength', issue.lang, { n: min }))),
    v.maxLength(max, (issue) => message('maxLength', issue.lang, { n: max })),
  )
}

/** An optional string (empty allowed) with a maximum length. */
export function optionalText(max = 10_000) {
  return v.optional(
    v.pipe(
      v.string((i) => message('invalidValue', i.lang)),
      v.trim(),
      v.maxLength(max, (i) => message('maxLength', i.lang, { n: max })),
    ),
  )
}

export const email = () =>
  v.optional(
    v.union(
      [
        v.literal(''),
        v.pipe(
          v.string((i) => message('invalidEmail', i.lang)),
          v.trim(),
          v.email((i) => message('invalidEmail', i.lang)),
          v.maxLength(254),
        ),
      ],
      (i) => message('invalidEmail', i.lang),
    ),
  )

/** A required secret (password): not trimmed, non-empty, at most `max` characters. */
export function secret(max = 128) {
  return v.pipe(
    v.string(required),
    v.nonEmpty(required),
    v.maxLength(max, (issue) => message('maxLength', issue.lang, { n: max })),
  )
}
