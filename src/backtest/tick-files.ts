/**
 * A backtest's tick files opened as one time-ordered source. Its own module, importing the feed
 * readers directly and nothing else, because the tick reader thread (tick-thread-worker.ts) loads
 * it: through the feeds' index it would load RxJS and the v3 layer it never uses.
 */
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Tick } from '../domain/tick.js';
import { mergeByTime } from '../engine/feeds/merge.js';
import type { FeedFormat } from '../engine/feeds/options.js';
import { readTicks } from '../engine/feeds/read-ticks.js';
import { ticksInWindow, type TickWindow } from '../engine/feeds/window.js';

/** The sample tick file shipped with the package: four days of seeded EUR_USD and USD_JPY quotes. */
export const SAMPLE_TICKS_FILE = fileURLToPath(new URL('../../examples/data/sample-eurusd-usdjpy.csv.gz', import.meta.url));

export interface TickSourceOptions extends TickWindow {
  /** For every file; detected per file when absent. */
  readonly format?: FeedFormat;
  /** For formats whose lines do not name the instrument. */
  readonly instrument?: string;
  /** Progress: the bytes of each block of tick text once parsed (see FeedOptions.onBytes). */
  readonly onBytes?: (bytes: number) => void;
}

/**
 * The ticks of several files merged by time, in mergeByTime's order (equal times: file order, then
 * the order of the files), within the window `from` (inclusive) to `to` (exclusive) when given:
 * each file stops being read at its first tick past the window.
 */
export function openTicks(files: readonly string[], opts: TickSourceOptions = {}): Iterable<Tick> {
  if (files.length === 0) throw new Error('no tick files given');
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`tick file not found: ${file}`);
    if (!statSync(file).isFile()) throw new Error(`not a file: ${file}`);
  }
  const feedOptions = {
    inTimeOrder: true,
    ...(opts.format === undefined ? {} : { format: opts.format }),
    ...(opts.instrument === undefined ? {} : { instrument: opts.instrument }),
    ...(opts.onBytes === undefined ? {} : { onBytes: opts.onBytes }),
  };
  const window = { ...(opts.from === undefined ? {} : { from: opts.from }), ...(opts.to === undefined ? {} : { to: opts.to }) };
  const sources = files.map((file) => ticksInWindow(readTicks(file, feedOptions), window));
  return sources.length === 1 ? (sources[0] as Iterable<Tick>) : mergeByTime(sources);
}
