import { message } from '../messages.ts'

// The password policy, shared so the SPA can warn before the server refuses. Django-like: a minimum length, letters
// and digits, not the username, and not the current password.
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128

/** Messages for every rule the password breaks (empty when it passes). */
export function passwordProblems(password: string, ctx: { username?: string; lang?: string } = {}): string[] {
  const problems: string[] = []
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(message('passwordTooShort', ctx.lang, { n: PASSWORD_MIN_LENGTH }))
  if (password.length > PASSWORD_MAX_LENGTH) problems.push(message('maxLength', ctx.lang, { n: PASSWORD_MAX_LENGTH }))
  if (!/[A-Za-zÀ-ÿ]/.test(password) || !/\d/.test(password)) problems.push(message('passwordNeedsLetterAndDigit', ctx.lang))
  const user = ctx.username?.toLowerCase()
  if (user && user.length >= 3 && password.toLowerCase().includes(user)) problems.push(message('passwordTooSimilar', ctx.lang))
  return problems
}
