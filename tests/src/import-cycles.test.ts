import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// The shell (layouts, top bar, menu) sits above the features it shows, and features import the menu's types from a
// leaf: no import (type imports included) leads from a feature or the route tree back into the shell.
const root = join(import.meta.dirname, '../..')
const files = new Set<string>()
const walk = (dir: string): void => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walk(path)
    else if (/\.tsx?$/.test(entry.name)) files.add(path)
  }
}
walk(join(root, 'src'))

/** Static relative imports of a file (dynamic `import()` loads later and closes no cycle). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const found: string[] = []
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
    const base = normalize(join(dirname(file), match[1]!))
    const target = [base, `${base}.ts`, `${base}.tsx`].find((p) => files.has(p))
    if (target) found.push(target)
  }
  return found
}

/** Strongly connected components with more than one file (Tarjan). */
function cycles(): string[][] {
  const graph = new Map([...files].map((f) => [f, importsOf(f)]))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      component.push(relative(root, w))
    } while (w !== v)
    if (component.length > 1) found.push(component.sort())
  }
  for (const f of files) if (!index.has(f)) visit(f)
  return found
}

describe('import cycles', () => {
  it('no cycle runs through the shell, the router or the route tree', () => {
    const touching = cycles().filter((c) => c.some((f) => f.startsWith('src/shell/') || f === 'src/app/router.tsx' || f === 'src/routeTree.gen.ts'))
    expect(touching).toEqual([])
  })

  it('finds a cycle when there is one (the walk sees the route tree and its routes)', () => {
    expect(importsOf(join(root, 'src/routeTree.gen.ts'))).toContain(join(root, 'src/routes/__root.tsx'))
  })
})
