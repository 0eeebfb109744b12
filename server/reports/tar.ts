import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'

// A small POSIX ustar writer for the backups (no archive package in node_modules; the format is a 512-byte header
// per file, its bytes padded to 512, two empty blocks at the end). A member is a file on disk (streamed, never read
// whole: its size is known before its header) or a small buffer made at the end (SHA256SUMS); each member's SHA-256
// is computed as its bytes stream by and handed to `onFile`. The stream is gzipped by the caller (node:zlib). Names
// are ASCII, at most 100 bytes, and at most one folder deep (`recordings/…`).

const BLOCK = 512

export type TarEntry = { name: string; path: string } | { name: string; data: Buffer }

function header(name: string, size: number, mtime: Date): Buffer {
  if (name.length > 100 || !/^([\w.%~-]+\/)?[\w.%~-]+$/.test(name)) throw new Error(`bad archive member name ${name}`)
  const block = Buffer.alloc(BLOCK)
  const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, '0')}\0`
  block.write(name, 0, 100, 'ascii')
  block.write(octal(0o644, 8), 100, 'ascii')
  block.write(octal(0, 8), 108, 'ascii')
  block.write(octal(0, 8), 116, 'ascii')
  block.write(octal(size, 12), 124, 'ascii')
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii')
  block.write(' '.repeat(8), 148, 'ascii')
  block.write('0', 156, 'ascii')
  block.write('ustar\0', 257, 'ascii')
  block.write('00', 263, 'ascii')
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii')
  return block
}

/** The tar stream of the members, in order (taken from `files` one at a time, so the last may be made from the others' hashes). */
export async function* tarFiles(
  files: Iterable<TarEntry> | AsyncIterable<TarEntry>,
  options: { mtime?: Date; onFile?: (name: string, sha256: string) => void | Promise<void> } = {},
): AsyncGenerator<Buffer> {
  const mtime = options.mtime ?? new Date()
  for await (const file of files) {
    const hash = createHash('sha256')
    let size: number
    if ('data' in file) {
      size = file.data.length
      yield header(file.name, size, mtime)
      hash.update(file.data)
      if (size) yield file.data
    } else {
      // Exactly the size written in the header, even if the file grows meanwhile (a shorter file fails the archive).
      size = (await stat(file.path)).size
      yield header(file.name, size, mtime)
      let read = 0
      if (size > 0) {
        for await (const chunk of createReadStream(file.path, { end: size - 1 })) {
          hash.update(chunk as Buffer)
          read += (chunk as Buffer).length
          yield chunk as Buffer
        }
      }
      if (read !== size) throw new Error(`${file.name} shrank while it was archived`)
    }
    const pad = (BLOCK - (size % BLOCK)) % BLOCK
    if (pad) yield Buffer.alloc(pad)
    await options.onFile?.(file.name, hash.digest('hex'))
  }
  yield Buffer.alloc(BLOCK * 2)
}
