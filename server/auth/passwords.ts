import { hash, verify } from '@node-rs/argon2'
import { randomKey } from './keys.ts'

// Algorithm.Argon2id: the typings declare a const enum, which type stripping cannot inline, so the value is spelt out.
const ARGON2ID = 2

/** argon2id with the library's OWASP defaults (19 MiB, 2 passes); the PHC string starts with `$argon2id$`. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID })
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const started = performance.now()
  try {
    return await verify(stored, password)
  } catch {
    // A malformed stored hash signs no one in.
    return false
  } finally {
    remember(performance.now() - started)
  }
}

// An unknown username costs no argon2 work (a stream of made-up names would otherwise keep the CPU busy): its answer
// waits as long as real checks have lately been taking, so timing still does not tell which usernames exist. Until a
// real check has run, one dummy check measures it.
let typicalMs: number | undefined
let calibration: Promise<void> | undefined

function remember(ms: number): void {
  typicalMs = typicalMs === undefined ? ms : typicalMs * 0.8 + ms * 0.2
}

/** Waits as long as a real check takes; always false. */
export async function verifyDummyPassword(password: string): Promise<false> {
  if (typicalMs === undefined) {
    calibration ??= hashPassword(randomKey()).then(async (hash) => void (await verifyPassword(hash, password)))
    await calibration
    return false
  }
  await new Promise((resolve) => setTimeout(resolve, typicalMs))
  return false
}
