// What a Graph API error code means for the outbox (Meta's error-code reference, WHATSAPP.md §A1.6–A1.9): try again
// later, or give up and show the failure on the message.

/** Throughput of the business number reached: back off the whole number. */
export const NUMBER_RATE_LIMIT = 130429
/** Too many messages to one customer (pair rate): back off that customer, 4^X seconds. */
export const PAIR_RATE_LIMIT = 131056

/** Codes worth another attempt as they are: rate limits, Meta's temporary failures. */
const RETRYABLE = new Set([
  1, // API unknown (temporary)
  2, // API service temporarily unavailable
  4, // application request limit
  17, // user request limit
  341, // application limit
  80007, // WhatsApp rate limit
  130429,
  131000, // something went wrong
  131016, // service unavailable
  131056,
  131057, // account in maintenance mode
  133004, // server temporarily unavailable
])

/** Whether sending the same request again later can succeed; HTTP 5xx, 429 and no answer at all (status 0) can. */
export function isRetryable(httpStatus: number, code: number | null): boolean {
  if (code != null && RETRYABLE.has(code)) return true
  if (code != null && code !== 0 && httpStatus >= 400 && httpStatus < 500 && httpStatus !== 429) return false
  return httpStatus === 0 || httpStatus === 429 || httpStatus >= 500
}

/** Codes saying the access token is expired or revoked: the channel needs new credentials. */
export function isAuthFailure(httpStatus: number, code: number | null): boolean {
  return httpStatus === 401 || code === 190 || code === 0 || code === 10 || code === 200
}
