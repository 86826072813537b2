import { readSync } from 'node:fs';

/** 1 MiB: large enough that per-read overhead vanishes, small enough to keep memory flat. */
export const DEFAULT_CHUNK_SIZE = 1 << 20;

/**
 * Bytes [position, position + length) of an open file in chunks. Each chunk is a fresh buffer:
 * fflate and the line splitter keep references to a chunk's unconsumed tail until the next one.
 */
export function* readFileRange(fd: number, position: number, length: number, chunkSize: number): Generator<Uint8Array> {
  let remaining = length;
  let at = position;
  while (remaining > 0) {
    const buffer = Buffer.allocUnsafe(Math.min(chunkSize, remaining));
    const read = readSync(fd, buffer, 0, buffer.length, at);
    if (read === 0) return;
    remaining -= read;
    at += read;
    yield buffer.subarray(0, read);
  }
}

/** Exactly `length` bytes at `position`, or fewer at end of file. */
export function readExact(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const read = readSync(fd, buffer, filled, length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return buffer.subarray(0, filled);
}
