import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { LEASH_SCRIPT } from '../../server/telephony/engines/supervisor.ts'

// The leash the supervisor runs each engine in (/bin/sh, dash on Debian): the engine lives as long as the server's
// pipe on the leash's stdin stays open, and ends when it closes (the server gone, however it went). Before the fix the
// watcher read /dev/null (a background list without job control) and the e2e runs left Kamailio and rtpengine
// holding their ports after Playwright killed the server.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function leashed(command: string[]) {
  const child = spawn('/bin/sh', ['-c', LEASH_SCRIPT, 'sh', ...command], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
  const pid = new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const match = /ATENDE_ENGINE_PID (\d+)/.exec(out)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', () => reject(new Error(`leash exited: ${out}`)))
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, pid, exited }
}

describe('engine leash', () => {
  it('keeps the engine running while the pipe is open and ends it when the pipe closes', async () => {
    const { child, pid, exited } = leashed(['sleep', '30'])
    const engine = await pid
    await sleep(400)
    expect(alive(engine)).toBe(true)
    expect(child.exitCode).toBeNull()

    child.stdin!.end()
    // The engine's end is a condition to wait for; 10 s is a ceiling for a loaded machine, not a measure.
    for (let i = 0; i < 200 && alive(engine); i++) await sleep(50)
    expect(alive(engine)).toBe(false)
    await exited
  })

  it("passes the engine's own exit code through", async () => {
    const { exited } = leashed(['sh', '-c', 'exit 7'])
    expect(await exited).toBe(7)
  })
})
