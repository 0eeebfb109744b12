import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { tarFiles } from '../../../server/reports/tar.ts'

// The backups' tar writer streams a file member in the read stream's chunks (never the whole file in memory) and
// hashes each member as it goes; the last member can be made from the hashes of the ones before it.

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('tarFiles', () => {
  it('streams a large file in chunks of at most 64 KiB and hashes every member as it streams', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atende-tar-'))
    dirs.push(dir)
    const big = randomBytes(5 * 1024 * 1024 + 3)
    await writeFile(path.join(dir, 'big.pcap'), big)
    const hashes = new Map<string, string>()
    async function* members() {
      yield { name: 'recordings/big.pcap', path: path.join(dir, 'big.pcap') }
      yield { name: 'SHA256SUMS', data: Buffer.from([...hashes].map(([name, hash]) => `${hash}  ${name}\n`).join('')) }
    }
    let largest = 0
    const parts: Buffer[] = []
    for await (const chunk of tarFiles(members(), { onFile: (name, hash) => void hashes.set(name, hash) })) {
      largest = Math.max(largest, chunk.length)
      parts.push(chunk)
    }
    expect(largest).toBeLessThanOrEqual(64 * 1024)
    const tar = Buffer.concat(parts)
    const sha = createHash('sha256').update(big).digest('hex')
    expect(hashes.get('recordings/big.pcap')).toBe(sha)
    // The member's bytes after its 512-byte header, then SHA256SUMS naming it.
    expect(tar.subarray(512, 512 + big.length).equals(big)).toBe(true)
    const sumsAt = 512 + Math.ceil(big.length / 512) * 512
    expect(tar.subarray(sumsAt, sumsAt + 100).toString('ascii').replace(/\0.*$/s, '')).toBe('SHA256SUMS')
    expect(tar.subarray(sumsAt + 512, sumsAt + 512 + 64).toString('ascii')).toBe(sha)
  })

  it('refuses a name a tar header cannot hold', async () => {
    const run = async () => {
      for await (const _ of tarFiles([{ name: '../etc/passwd', data: Buffer.from('x') }])) void _
    }
    await expect(run()).rejects.toThrow('bad archive member name')
  })
})
