import * as v from 'valibot'
import { LOCALES } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'

// Fallback texts for contract schema rules that carry no message of their own, so a form never shows valibot's
// English default ('Invalid length: Expected !0 …'). Rules with their own message keep it.
export function globalValidationMessage(issue: v.BaseIssue<unknown>, lang: string): string {
  const n = typeof issue.requirement === 'number' ? issue.requirement : undefined
  if (issue.type === 'non_empty' || (issue.input === undefined && issue.kind === 'schema')) return message('required', lang)
  if (issue.type === 'min_length' && n !== undefined) return message('minLength', lang, { n })
  if (issue.type === 'max_length' && n !== undefined) return message('maxLength', lang, { n })
  if (issue.type === 'email') return message('invalidEmail', lang)
  return message('invalidValue', lang)
}

export function installValidationMessages() {
  for (const lang of LOCALES) v.setGlobalMessage((issue) => globalValidationMessage(issue, lang), lang)
}
