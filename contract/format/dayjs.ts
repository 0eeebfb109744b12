import dayjs from 'dayjs'
// Explicit .js paths: dayjs has no `exports` map, and Node's ESM resolver (unlike Vite) needs the file name.
import customParseFormat from 'dayjs/plugin/customParseFormat.js'

// The one dayjs instance of the contract, with the plugins its helpers rely on. Extending is idempotent.
dayjs.extend(customParseFormat)

export { dayjs }
export type { Dayjs } from 'dayjs'
