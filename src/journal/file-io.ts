import { closeSync, existsSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { JournalCorruptError } from './file-errors.js';

// Low-level file access of the file journal: whole reads and writes, directory syncs, free names.

const READ_CHUNK = 1 << 20;
const NEWLINE = 0x0a;

export function readWhole(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    const buf = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, buf, done, size - done, done);
      if (n === 0) break;
      done += n;
    }
    return done === size ? buf : buf.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a file from `from` to `to` (fewer if it is shorter). */
export function readRange(file: string, from: number, to: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, to - from));
  if (buf.length === 0) return buf;
  const fd = openSync(file, 'r');
  try {
    let done = 0;
    while (done < buf.length) {
      const n = readSync(fd, buf, done, buf.length - done, from + done);
      if (n === 0) break;
      done += n;
    }
    return done === buf.length ? buf : buf.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

export function writeAll(fd: number, buf: Buffer, position?: number): void {
  let done = 0;
  while (done < buf.length) {
    const n =
      position === undefined ? writeSync(fd, buf, done, buf.length - done) : writeSync(fd, buf, done, buf.length - done, position + done);
    done += n;
  }
}

export function freeName(base: string): string {
  if (!existsSync(base)) return base;
  for (let n = 2; ; n += 1) if (!existsSync(`${base}-${n}`)) return `${base}-${n}`;
}

/** A line of a journal file: its text (without the newline), its number from 1 and its byte offset. */
export interface CommittedLine {
  readonly text: string;
  readonly line: number;
  readonly offset: number;
}

/**
 * The first `size` bytes of a journal file line by line (blank lines left out), read in 1 MiB reads
 * as they are iterated, so a large journal is never one string nor held whole. Stop iterating to
 * stop reading; a last line without its newline throws once reached.
 */
export function* committedLinesOf(file: string, size: number): Generator<CommittedLine> {
  if (size === 0) return;
  const fd = openSync(file, 'r');
  try {
    let carry = Buffer.alloc(0);
    let position = 0;
    let line = 0;
    let lineOffset = 0;
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    while (position < size) {
      const n = readSync(fd, chunk, 0, Math.min(READ_CHUNK, size - position), position);
      if (n === 0) break;
      position += n;
      const data = carry.length === 0 ? chunk.subarray(0, n) : Buffer.concat([carry, chunk.subarray(0, n)]);
      const lines: CommittedLine[] = [];
      let start = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        line += 1;
        const text = data.toString('utf8', start, nl);
        if (text.trim() !== '') lines.push({ text, line, offset: lineOffset });
        lineOffset += nl + 1 - start;
        start = nl + 1;
      }
      // Copied before yielding: the next read reuses `chunk`, which `data` may still point into.
      carry = Buffer.from(data.subarray(start));
      yield* lines;
    }
    if (carry.length > 0) throw new JournalCorruptError(file, line + 1, lineOffset, 'has no trailing newline');
  } finally {
    closeSync(fd);
  }
}

/**
 * fsync of a directory, so that a file just created in it (or renamed into it) survives a power
 * cut: fsync of the file alone does not make its directory entry durable (fsync(2), "Notes").
 */
export function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
