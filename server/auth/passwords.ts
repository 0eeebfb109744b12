import { hash, verify } from '@node-rs/argon2'
import { randomKey } from './keys.ts'

// Algorithm.Argon2id: the typings declare a const enum, which type stripping cannot inline, so the value is spelt out.
const ARGON2ID = 2

/** argon2id with the library's OWASP defaults (19 MiB, 2 passes); the PHC string starts with `$argon2id$`. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID })
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password)
  } catch {
    // A malformed stored hash signs no one in.
    return false
  }
}

let dummyHash: Promise<string> | undefined

/** Spends the same work as a real check, so unknown usernames cannot be told apart by timing. Always false. */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomKey())
  await verifyPassword(await dummyHash, password)
  return false
}
