import { MediaWorker } from './worker.ts'
import type { WorkerOptions } from './worker.ts'

// The media app's process entry (the server's supervisor starts it on the engines' leash, engines/index.ts):
// `node server/media/app/main.ts '<WorkerOptions as JSON>'`.

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions
const worker = new MediaWorker({ ...options, log: (line) => process.stderr.write(`${line}\n`) })
// An exception thrown inside a sip.js callback would otherwise end the process and every call with it (lab trap).
process.on('uncaughtException', (error) => process.stderr.write(`media app: uncaught ${error.stack ?? String(error)}\n`))
process.on('unhandledRejection', (error) => process.stderr.write(`media app: unhandled ${String((error as Error)?.stack ?? error)}\n`))
const stop = () => {
  void worker.stop().finally(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
await worker.start()
