import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'

// A small POSIX ustar writer for the backups (no archive package in node_modules; the format is a 512-byte header
// per file, its bytes padded to 512, two empty blocks at the end). Files are added from disk, so their size is known
// before their header; the stream is gzipped by the caller (node:zlib). Names are ASCII and at most 100 bytes.

const BLOCK = 512

function header(name: string, size: number, mtime: Date): Buffer {
  if (!/^[\w.-]{1,100}$/.test(name)) throw new Error(`bad archive member name ${name}`)
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

/** The tar stream of the files (name in the archive, path on disk), in order. */
export async function* tarFiles(files: { name: string; path: string }[], mtime = new Date()): AsyncGenerator<Buffer> {
  for (const file of files) {
    const { size } = await stat(file.path)
    yield header(file.name, size, mtime)
    for await (const chunk of createReadStream(file.path)) yield chunk as Buffer
    const pad = (BLOCK - (size % BLOCK)) % BLOCK
    if (pad) yield Buffer.alloc(pad)
  }
  yield Buffer.alloc(BLOCK * 2)
}
