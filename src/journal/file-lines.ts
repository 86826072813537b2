import { closeSync, openSync, readSync } from 'node:fs';
import { JournalCorruptError } from './file-errors.js';

// Reading a journal file's committed lines in 1 MiB reads, as they are iterated (never the file
// whole): the bytes for the start's checks (sound-file.ts), the texts for everything else.

const READ_CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** One read's complete lines: the bytes, where each line's newline is, and the file offset of data[0]. */
export interface LineChunk {
  /** Valid until the next chunk is asked for (the read buffer is reused). */
  readonly data: Buffer;
  readonly ends: readonly number[];
  readonly offset: number;
}

/**
 * The complete lines of the first `size()` bytes of a file, a chunk per read, as iterated: the
 * size is asked again before every read, so lines committed while the caller iterates are read
 * too. Returns the count of bytes after the last newline (a line cut off). Stopping the iteration
 * closes the file.
 */
export function* lineChunks(file: string, size: () => number, chunkBytes: number = READ_CHUNK): Generator<LineChunk, number> {
  if (size() === 0) return 0;
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    let carry = Buffer.alloc(0);
    let position = 0;
    for (let end = size(); position < end; end = size()) {
      const n = readSync(fd, chunk, 0, Math.min(chunkBytes, end - position), position);
      if (n === 0) break;
      const data = carry.length === 0 ? chunk.subarray(0, n) : Buffer.concat([carry, chunk.subarray(0, n)]);
      const offset = position - carry.length;
      position += n;
      const ends: number[] = [];
      for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, nl + 1)) ends.push(nl);
      yield { data, ends, offset };
      // Copied once the caller is done with the chunk: the next read reuses `chunk`.
      carry = Buffer.from(data.subarray(ends.length === 0 ? 0 : (ends[ends.length - 1] as number) + 1));
    }
    return carry.length;
  } finally {
    closeSync(fd);
  }
}

/** A line of a journal file: its text (without the newline), its number from 1 and its byte offset. */
export interface CommittedLine {
  readonly text: string;
  readonly line: number;
  readonly offset: number;
}

/**
 * The non-blank lines of the first `size()` bytes of a file, numbered, as they are iterated (see
 * lineChunks); a last line without its newline throws once reached.
 */
export function* committedLinesOf(file: string, size: () => number): Generator<CommittedLine> {
  const chunks = lineChunks(file, size);
  let line = 0;
  let consumed = 0;
  for (let step = chunks.next(); ; step = chunks.next()) {
    if (step.done === true) {
      if (step.value > 0) throw new JournalCorruptError(file, line + 1, consumed, 'has no trailing newline');
      return;
    }
    const { data, ends, offset } = step.value;
    const lines: CommittedLine[] = [];
    let start = 0;
    for (const nl of ends) {
      line += 1;
      const text = data.toString('utf8', start, nl);
      if (text.trim() !== '') lines.push({ text, line, offset: offset + start });
      start = nl + 1;
    }
    consumed = offset + start;
    yield* lines;
  }
}

/** The texts of committedLinesOf: for reads that stop early (journal.ts transactionsFrom). */
export function* committedLines(file: string, committed: () => number): Generator<string> {
  for (const { text } of committedLinesOf(file, committed)) yield text;
}
