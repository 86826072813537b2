import type { Transaction } from '../domain/transactions.js';
import { closedBatchCrc, sealOfLine } from './batch-seal.js';
import { crc32cUpdate } from './crc32c.js';
import { readRange } from './file-io.js';
import { lineChunks } from './file-lines.js';
import { lastTransaction } from './sound-prefix.js';

// The sound-journal case of a start's recovery, read from the file in chunks: a journal holding
// a million transactions is hundreds of megabytes, which reading it whole to check it took again in
// memory. Anything but a sound journal is left to the whole-file scan (sound-prefix.ts).

const NEWLINE = 0x0a;

/**
 * Whether a journal file's first `length` bytes are whole sealed batches, each with the line
 * count and CRC-32C its seal says: what scanJournal finds of them when it finds them sound (end at
 * `length`, no damage). Read `chunkBytes` at a time. False for anything else: damage, a batch cut
 * at `length`, an older version's unsealed lines (the whole-file scan tells those apart).
 */
export function sealedThrough(file: string, length: number, chunkBytes?: number): boolean {
  /** The current batch: its lines so far and their CRC-32C; and the bytes of the lines read. */
  let lines = 0;
  let crc = 0;
  let read = 0;
  const chunks = lineChunks(file, () => length, chunkBytes);
  try {
    for (let step = chunks.next(); ; step = chunks.next()) {
      // All `length` bytes read, the last of them a sealed line's newline.
      if (step.done === true) return step.value === 0 && read === length && lines === 0;
      const { data, ends, offset } = step.value;
      let start = 0;
      for (const nl of ends) {
        const seal = sealOfLine(data, start, nl);
        lines += 1;
        if (seal === undefined) crc = crc32cUpdate(crc, data.subarray(start, nl + 1));
        else if (seal.lines !== lines || closedBatchCrc(crc, data.subarray(start, seal.exportedEnd)) !== seal.crc) return false;
        else {
          lines = 0;
          crc = 0;
        }
        start = nl + 1;
      }
      read = offset + start;
    }
  } finally {
    chunks.return(0);
  }
}

/**
 * lastTransaction of the file's bytes before `end` (the last transaction line, past any records
 * after it), reading back from `end` in growing windows instead of the whole file.
 */
export function lastTransactionIn(file: string, end: number, firstWindow: number = 1 << 16): Transaction | undefined {
  for (let window = firstWindow; ; window *= 8) {
    const from = Math.max(0, end - window);
    const buf = readRange(file, from, end);
    // From the window's first whole line: the one it starts in may begin before it.
    const skip = from === 0 ? 0 : buf.indexOf(NEWLINE) + 1;
    if (from === 0 || skip > 0) {
      const last = lastTransaction(buf.subarray(skip), buf.length - skip);
      if (last !== undefined || from === 0) return last;
    }
  }
}
