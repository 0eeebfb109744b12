import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { MACHINES } from '../../machines/index.ts'

const machinesDir = fileURLToPath(new URL('../../machines/', import.meta.url))

describe('machines index', () => {
  it('lists every <name>.machine.ts once, under the machine id', () => {
    const files = readdirSync(machinesDir)
      .filter((file) => file.endsWith('.machine.ts'))
      .map((file) => file.replace('.machine.ts', ''))
      .sort()
    expect(MACHINES.map((entry) => entry.name).sort()).toEqual(files)
    for (const entry of MACHINES) expect(entry.machine.id).toBe(entry.name)
  })

  it('gives every machine a description and a spec reference for the visualizer', () => {
    for (const entry of MACHINES) {
      expect(entry.description.length, entry.name).toBeGreaterThan(20)
      expect(entry.spec.length, entry.name).toBeGreaterThan(0)
    }
  })
})
