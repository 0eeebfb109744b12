import { describe, expect, it, vi } from 'vitest'
import { TestClient, useTestApp } from './helper.ts'

// Issue 10 item 5: made-up usernames cost no argon2 check (a stream of them would keep the CPU busy for everyone),
// yet they answer exactly as a wrong password does.
const argon2 = vi.hoisted(() => ({ verifies: 0 }))
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>()
  return {
    ...real,
    verify: (...args: Parameters<typeof real.verify>) => {
      argon2.verifies++
      return real.verify(...args)
    },
  }
})

const t = useTestApp()

describe('a sign-in', () => {
  it('of unknown usernames runs no argon2 check once one real check has been timed, and answers like a wrong password', async () => {
    const wrong = await new TestClient(t.app).post('/api/auth/login/', { username: 'admin', password: 'not-the-password' })
    expect(wrong.statusCode).toBe(400)
    const before = argon2.verifies
    for (let i = 0; i < 5; i++) {
      const unknown = await new TestClient(t.app).post('/api/auth/login/', { username: `ghost${i}`, password: 'whatever1' })
      expect(unknown.statusCode).toBe(400)
      expect(unknown.json()).toEqual(wrong.json())
    }
    expect(argon2.verifies).toBe(before)
    // A known user's password is still checked.
    expect((await new TestClient(t.app).post('/api/auth/login/', { username: 'admin', password: 'gestor2025' })).statusCode).toBe(200)
    expect(argon2.verifies).toBe(before + 1)
  })
})
