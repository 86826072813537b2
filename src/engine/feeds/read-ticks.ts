import { detectFormat, leanByName } from './detect.js';
import { DEFAULT_CHUNK_SIZE } from './file-chunks.js';
import { readCandleTicks } from './format-candles.js';
import { createCsvParser } from './format-csv.js';
import { createHistdataParser } from './format-histdata.js';
import { createLeanParser, leanFileDate } from './format-lean.js';
import { createNdjsonParser } from './format-ndjson.js';
import { createTruefxParser } from './format-truefx.js';
import { type LineParser, parseTickLines } from './line-ticks.js';
import type { TickSource } from './merge.js';
import { FEED_FORMATS, type FeedFormat, type FeedOptions } from './options.js';

/** Formats with one tick per line; candles (four quotes a line) have their own reader. */
const PARSERS: Readonly<Record<Exclude<FeedFormat, 'candles'>, (file: string, opts: FeedOptions) => LineParser>> = {
  csv: createCsvParser,
  ndjson: createNdjsonParser,
  lean: createLeanParser,
  truefx: createTruefxParser,
  histdata: createHistdataParser,
};

/**
 * The ticks of a file in file order, read synchronously in large chunks. The result can be
 * iterated more than once; each pass opens the file again, and stopping early closes it. A LEAN
 * file also says, from its name, the day its ticks start (mergeByTime then opens it only then).
 */
export function readTicks(file: string, opts: FeedOptions = {}): TickSource {
  if (opts.format !== undefined && !FEED_FORMATS.includes(opts.format))
    throw new Error(`unknown tick file format ${JSON.stringify(opts.format)}; expected one of ${FEED_FORMATS.join(', ')}`);
  return {
    [Symbol.iterator]: () => {
      const format = opts.format ?? detectFormat(file);
      if (format === 'candles') return readCandleTicks(file, opts);
      return parseTickLines(file, PARSERS[format](file, opts), DEFAULT_CHUNK_SIZE, opts.onBytes, opts.inTimeOrder === true);
    },
    earliest: () => ((opts.format ?? (leanByName(file) ? 'lean' : undefined)) === 'lean' ? leanFileDate(file) : undefined),
  };
}
