import { closeSync, openSync, readSync } from 'node:fs';

// Lazy reading of a journal file's committed lines, for reads that stop early (journal.ts transactionsFrom).

const READ_CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/**
 * The non-blank lines of the first `committed()` bytes of a file, in 1 MiB reads, as they are
 * iterated: the committed length is asked again before every read, so lines committed while the
 * caller iterates are read too. Stopping the iteration closes the file.
 */
export function* committedLines(file: string, committed: () => number): Generator<string> {
  if (committed() === 0) return;
  const fd = openSync(file, 'r');
  try {
    let carry = Buffer.alloc(0);
    let position = 0;
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    for (let size = committed(); position < size; size = committed()) {
      const n = readSync(fd, chunk, 0, Math.min(READ_CHUNK, size - position), position);
      if (n === 0) break;
      position += n;
      const data = carry.length === 0 ? chunk.subarray(0, n) : Buffer.concat([carry, chunk.subarray(0, n)]);
      let start = 0;
      const lines: string[] = [];
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        const text = data.toString('utf8', start, nl);
        if (text.trim() !== '') lines.push(text);
        start = nl + 1;
      }
      // Copied before yielding: the next read reuses `chunk`, which `data` may still point into.
      carry = Buffer.from(data.subarray(start));
      yield* lines;
    }
  } finally {
    closeSync(fd);
  }
}
