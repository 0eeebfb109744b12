import { readdirSync, readFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// The import graph of server/ and src/ (issue 12 "Make room"): no import circle except the harmless lazy ones, and no
// two folders importing each other both ways. Every relative import counts — static, `import type`, re-exports and
// `import()` — because each is a dependency a reader has to follow. A folder and the folders inside it are one area
// (an index composes its subfolders, which use its shared types), so only folders that do not contain one another
// form a pair.

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Circles that are harmless because one side only reaches the other lazily; each names its files (or a folder/). */
const LAZY_CIRCLES: { files: string[]; why: string }[] = [
  { files: ['server/bus/bus.ts', 'server/bus/redis-bus.ts'], why: 'createBus loads the Redis bus with import() only when REDIS_URL is set' },
  {
    files: ['server/auth/throttle-store.ts', 'server/auth/redis-throttle-store.ts'],
    why: 'createThrottleStore loads the Redis store with import() only when REDIS_URL is set',
  },
  {
    files: ['server/chat/send-limiter.ts', 'server/chat/redis-send-limiter.ts'],
    why: 'createSendLimiter loads the Redis limiter with import() only when REDIS_URL is set',
  },
  { files: ['server/db/schema/'], why: "Drizzle's foreign keys reference other tables through functions (`references(() => users.id)`)" },
]

/**
 * src/ debts this test found when it was written (issue 12 is about server/): no new ones. Remove an entry once it is
 * gone. A circle is one of the known ones when it holds the file named here (its shape may change as files come and
 * go); pairs as `a <-> b` (sorted).
 */
const SRC_KNOWN_CIRCLES = [
  // Field kinds → inputs, and the table/tabs inputs render fields again (FieldRenderer).
  'src/entities/form/fieldKinds.ts',
]
const SRC_KNOWN_PAIRS = [
  'src/api <-> src/app',
  'src/app <-> src/components/errors',
  'src/app <-> src/components/toast',
  'src/app <-> src/features/activities',
  'src/app <-> src/features/chat',
  'src/app <-> src/features/presence',
  'src/app <-> src/features/profile',
  'src/app <-> src/features/webphone',
  // A phone field's chat button opens the chat workspace's template dialog (lazy import in ContactButtons.tsx).
  'src/entities/form <-> src/features/chat',
  'src/entities/import <-> src/entities/list',
]

type Edge = { from: string; to: string }

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`
    if (entry.isDirectory()) out.push(...sourceFiles(rel))
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel)
  }
  return out
}

const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** The relative imports of one file, resolved to repository paths (comments removed first). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
  const targets: string[] = []
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]!
    if (!spec.startsWith('.')) continue
    const base = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), spec))
    const found = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find(
      (candidate) => existsSync(path.join(ROOT, candidate)) && /\.tsx?$/.test(candidate),
    )
    if (found) targets.push(found.split(path.sep).join('/'))
  }
  return targets
}

function graphOf(roots: string[]): Edge[] {
  const files = roots.flatMap(sourceFiles)
  return files.flatMap((from) => importsOf(from).map((to) => ({ from, to })))
}

/** The strongly connected components of more than one file (Tarjan), each as its sorted files. */
export function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>()
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to])
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!))
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const node of next.keys()) if (!index.has(node)) visit(node)
  return found
}

const dirOf = (file: string) => file.slice(0, file.lastIndexOf('/'))
const contains = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer}/`)

/** Folders importing each other both ways (neither inside the other), as sorted `a <-> b`. */
export function mutualFolders(edges: Edge[]): string[] {
  const directions = new Set<string>()
  for (const { from, to } of edges) {
    const a = dirOf(from)
    const b = dirOf(to)
    if (!contains(a, b) && !contains(b, a)) directions.add(`${a} -> ${b}`)
  }
  const pairs = new Set<string>()
  for (const direction of directions) {
    const [a, b] = direction.split(' -> ') as [string, string]
    if (directions.has(`${b} -> ${a}`)) pairs.add([a, b].sort().join(' <-> '))
  }
  return [...pairs].sort()
}

const isLazy = (component: string[]) =>
  LAZY_CIRCLES.some(({ files }) => component.every((file) => files.some((allowed) => (allowed.endsWith('/') ? file.startsWith(allowed) : file === allowed))))

describe('the import graph', () => {
  const server = graphOf(['server'])
  const src = graphOf(['src'])

  it('reads the imports it should (a sanity check of the parser)', () => {
    expect(server.length).toBeGreaterThan(300)
    expect(server).toContainEqual({ from: 'server/bus/bus.ts', to: 'server/bus/redis-bus.ts' })
    expect(server).toContainEqual({ from: 'server/app.ts', to: 'server/realtime/host.ts' })
    expect(src.length).toBeGreaterThan(300)
  })

  it('finds circles and mutual folders in a made-up graph', () => {
    const edges = [
      { from: 'x/a/one.ts', to: 'x/b/two.ts' },
      { from: 'x/b/two.ts', to: 'x/a/one.ts' },
      { from: 'x/a/one.ts', to: 'x/a/sub/three.ts' },
      { from: 'x/a/sub/three.ts', to: 'x/a/four.ts' },
    ]
    expect(circles(edges)).toEqual([['x/a/one.ts', 'x/b/two.ts']])
    expect(mutualFolders(edges)).toEqual(['x/a <-> x/b'])
  })

  it('server/: no circle but the lazy ones, no folders importing each other both ways', () => {
    expect(circles(server).filter((component) => !isLazy(component))).toEqual([])
    expect(mutualFolders(server)).toEqual([])
  })

  it('server/: each allowed lazy circle still exists (else remove it from the list)', () => {
    const found = circles(server)
    for (const { files } of LAZY_CIRCLES)
      expect(found.some((component) => component.some((file) => files.some((f) => (f.endsWith('/') ? file.startsWith(f) : file === f))))).toBe(true)
  })

  it('src/: no new circle and no new pair of folders importing each other', () => {
    const fresh = circles(src).filter((component) => !SRC_KNOWN_CIRCLES.some((file) => component.includes(file)))
    expect(fresh).toEqual([])
    expect(mutualFolders(src).filter((pair) => !SRC_KNOWN_PAIRS.includes(pair))).toEqual([])
  })

  it('src/: each known debt still exists (else remove it from the list)', () => {
    const pairs = mutualFolders(src)
    expect(SRC_KNOWN_PAIRS.filter((pair) => !pairs.includes(pair))).toEqual([])
    const found = circles(src)
    expect(SRC_KNOWN_CIRCLES.filter((file) => !found.some((component) => component.includes(file)))).toEqual([])
  })
})
