import { bundleSizes, settingsLines } from './bundle-size.ts'
import { profileBench } from './api-profile.ts'
import { kb } from './lib.ts'

// `npm run bench`: every figure QUALITY.md asks this stage of the product to keep, printed as numbers.
const sizes = await bundleSizes()
console.log(`initial JS /login    : ${kb(sizes.login.gzip)} gzip (${sizes.login.files} files; budget 150 KB)`)
console.log(`initial JS shell (/) : ${kb(sizes.shell.gzip)} gzip (${sizes.shell.files} files; budget 300 KB)`)
console.log(`  then, once drawn   : ${kb(sizes.shell.later.gzip)} gzip (${sizes.shell.later.files} files: the webphone's sip.js, …)`)
for (const line of settingsLines(sizes.settings)) console.log(line)
const api = await profileBench()
for (const [name, r] of Object.entries(api)) {
  console.log(`GET /api/v1/business/profile/ on ${name.padEnd(8)}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`)
}
console.log(`PostgreSQL / PGlite throughput: ${(api.postgres.rps / api.pglite.rps).toFixed(2)}x`)
