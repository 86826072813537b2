export { FeedParseError, LineError } from './errors.js';
export { FEED_FORMATS, type FeedFormat, type FeedOptions } from './options.js';
export { detectFormat } from './detect.js';
export { readTicks } from './read-ticks.js';
export { readLines, readTextBlocks } from './lines.js';
export { decompressedSize, readByteChunks } from './byte-chunks.js';
export { fromIterable$, tickFile$, ticksFromArray$ } from './observable.js';
export { mergeByTime } from './merge.js';
export { type TickWindow, ticksInWindow } from './window.js';
export { mergeByTime$ } from './merge-observable.js';
export {
  DEFAULT_GENERATOR_START,
  type GeneratorOptions,
  generatedTicks$,
  generateHistory,
  generateTicks,
  type HistoryOptions,
} from './generator.js';
export { type CsvWriteOptions, writeSampleCsv, writeTicksCsv } from './csv-writer.js';
export { EPOCH_MILLIS_THRESHOLD } from './datetime.js';
// Building blocks for a reader of another line-based format.
export { type LineParser, parseTickLines } from './line-ticks.js';
export { makeTick } from './make-tick.js';
export { PeekableTicks } from './peekable.js';
