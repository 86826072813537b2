import { decompressedSize } from './byte-chunks.js';
import { detectFormat } from './detect.js';
import { leanFileDate, leanInstrument, leanTickTime } from './format-lean.js';
import { readByteBlocks } from './lines.js';
import { isPrice } from './make-tick.js';
import { type Cursor, scanPlainDecimal } from './numbers.js';
import type { FeedFormat } from './options.js';
import type { TickWindow } from './window.js';

/**
 * LEAN quote files (`ms_since_midnight,bid,ask`) read straight from their bytes into numbers, for
 * readers that keep ticks as columns (a sweep's shared columns): no string, Tick object or
 * generator step per line, about half the time of the general reader on the 13 LEAN EUR/USD files
 * (bench/RESULTS.md). It takes only lines whose every field is plain (digits and one dot) and
 * valid, in time order; at the first other line it gives up, and the caller reads the file through
 * readTicks, which gives the very same ticks or the error naming that line. The general reader
 * stays the one that says what is wrong with a file.
 */

/** Where the ticks go. */
export interface QuoteSink {
  /** The file's instrument, and about how many ticks it holds (to size the columns once). */
  start(instrument: string, ticks: number): void;
  /** One tick; false when no more can be held (the read gives up). */
  quote(time: number, bid: number, ask: number): boolean;
}

export interface LeanQuoteOptions extends TickWindow {
  readonly format?: FeedFormat;
  readonly instrument?: string;
}

/** Below the ~23 bytes of a line of the real files (`47885,1.38782,1.38796\n`), so one sizing usually holds them. */
const BYTES_PER_LINE = 20;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const COMMA = 44;

/** The file's midnight and instrument, or undefined when it is not a LEAN file this reader takes. */
function leanFile(file: string, opts: LeanQuoteOptions): { midnight: number; instrument: string } | undefined {
  try {
    if ((opts.format ?? detectFormat(file)) !== 'lean') return undefined;
    return { midnight: leanFileDate(file), instrument: leanInstrument(file, opts) };
  } catch {
    // A missing file, a bad name or option: readTicks says so in its own words.
    return undefined;
  }
}

/**
 * The file's ticks within the window (in time order, as readTicks with inTimeOrder and
 * ticksInWindow give them) into `sink`. False when this reader does not take the file or gave up
 * part way (the sink then holds a part only: drop it).
 */
export function readLeanQuotes(file: string, opts: LeanQuoteOptions, sink: QuoteSink): boolean {
  const lean = leanFile(file, opts);
  if (lean === undefined) return false;
  const { midnight } = lean;
  const from = opts.from ?? Number.NEGATIVE_INFINITY;
  const to = opts.to ?? Number.POSITIVE_INFINITY;
  sink.start(lean.instrument, Math.ceil(decompressedSize(file) / BYTES_PER_LINE));
  const cursor: Cursor = { pos: 0 };
  let last = Number.NEGATIVE_INFINITY;
  for (const block of readByteBlocks(file)) {
    const n = block.length;
    let pos = 0;
    while (pos < n) {
      const first = block[pos];
      if (first === NEWLINE) {
        pos += 1;
        continue;
      }
      if (first === CARRIAGE_RETURN && (pos + 1 === n || block[pos + 1] === NEWLINE)) {
        pos += 2;
        continue;
      }
      const millis = scanPlainDecimal(block, pos, n, cursor);
      if (block[cursor.pos] !== COMMA) return false;
      const bid = scanPlainDecimal(block, cursor.pos + 1, n, cursor);
      if (block[cursor.pos] !== COMMA) return false;
      const ask = scanPlainDecimal(block, cursor.pos + 1, n, cursor);
      // The line ends here: '\n', '\r\n', or the end of the file with or without '\r'.
      let end = cursor.pos;
      if (block[end] === CARRIAGE_RETURN) end += 1;
      if (end < n && block[end] !== NEWLINE) return false;
      // The general reader's rules (makeTick's too); NaN, as an unplain field gives, fails them all.
      if (!isPrice(bid) || !isPrice(ask)) return false;
      const time = leanTickTime(midnight, millis);
      if (!Number.isSafeInteger(time) || time < last) return false;
      last = time;
      if (time >= to) return true;
      if (time >= from && !sink.quote(time, bid, ask)) return false;
      pos = end + 1;
    }
  }
  return true;
}
