import { bundleSizes, settingsLines } from './bundle-size.ts'
import { apiCost, apiCostLines } from './api-cost.ts'
import { firstLoad, firstLoadLines } from './first-load.ts'
import { kb } from './lib.ts'

// `npm run bench`: every figure QUALITY.md asks this stage of the product to keep, printed as numbers.
const sizes = await bundleSizes()
console.log(`initial JS /login    : ${kb(sizes.login.gzip)} gzip (${sizes.login.files} files; budget 150 KB)`)
console.log(`initial JS shell (/) : ${kb(sizes.shell.gzip)} gzip (${sizes.shell.files} files; budget 300 KB)`)
console.log(`  then, once drawn   : ${kb(sizes.shell.later.gzip)} gzip (${sizes.shell.later.files} files: the webphone's sip.js, …)`)
for (const line of settingsLines(sizes.settings)) console.log(line)
for (const line of firstLoadLines(await firstLoad())) console.log(line)
const api = await apiCost()
for (const line of apiCostLines(api)) console.log(line)
console.log(`PostgreSQL / PGlite profile throughput: ${(api.postgres.routes.profile.rps / api.pglite.routes.profile.rps).toFixed(2)}x`)
