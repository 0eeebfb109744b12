import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sipOptionsPing } from '../../server/telephony/engines/sip-probe.ts'
import { freePorts, requireEngines, until } from './telephony/stack.ts'

// A server that dies without closing (SIGKILL, out of memory) must not leave Kamailio and rtpengine holding the ports
// of the next start: each engine runs on a leash (its supervisor's pipe) and ends when the pipe closes.

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the engines of a server killed outright', () => {
  it('end by themselves when the server process is SIGKILLed', async () => {
    await requireEngines()
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-leash-'))
    dirs.push(dir)
    const [sip, ws, evapi, ng, dtmf, mediaSip, mediaControl] = await freePorts(7)
    const [rtp] = await freePorts(20, 40000, 50000)
    const env = {
      ...process.env,
      DATA_DIR: dir,
      TELEPHONY: 'embedded',
      SIP_PORT: String(sip),
      SIP_WS_PORT: String(ws),
      EVAPI_PORT: String(evapi),
      RTPENGINE_NG_PORT: String(ng),
      DTMF_LOG_PORT: String(dtmf),
      MEDIA_SIP_PORT: String(mediaSip),
      MEDIA_CONTROL_PORT: String(mediaControl),
      RTP_PORT_MIN: String(rtp),
      RTP_PORT_MAX: String(rtp! + 19),
    }
    // A stand-in for the server: starts the engines, prints their pids once both answer, then waits to be killed.
    const script = path.join(dir, 'server.ts')
    await writeFile(
      script,
      [
        `import { loadConfig } from ${JSON.stringify(path.resolve('server/config.ts'))}`,
        `import { startEngines } from ${JSON.stringify(path.resolve('server/telephony/engines/index.ts'))}`,
        'const quiet = { error() {}, warn() {}, info() {}, debug() {} }',
        'const engines = await startEngines(loadConfig().telephony, quiet)',
        'await engines.ready()',
        'const status = await engines.status()',
        'console.log(JSON.stringify({ kamailio: status.kamailio.pid, rtpengine: status.rtpengine.pid }))',
        'setInterval(() => {}, 1000)',
      ].join('\n'),
    )
    const server = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    const pids = await new Promise<{ kamailio: number; rtpengine: number }>((resolve, reject) => {
      let out = ''
      server.stdout.on('data', (chunk) => {
        out += chunk
        const line = out.split('\n').find((l) => l.startsWith('{'))
        if (line) resolve(JSON.parse(line))
      })
      server.once('exit', (code) => reject(new Error(`the stand-in server exited with ${code}`)))
    })
    expect(alive(pids.kamailio) && alive(pids.rtpengine)).toBe(true)
    expect(await sipOptionsPing('127.0.0.1', sip!, 1000)).toBe(200)

    server.kill('SIGKILL')
    await until(() => !alive(pids.kamailio) && !alive(pids.rtpengine), 10_000, 'both engines to end after the server')
    expect(await sipOptionsPing('127.0.0.1', sip!, 500)).toBeNull()
  }, 40_000)
})
