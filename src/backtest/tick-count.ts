import type { FeedFormat } from '../engine/feeds/index.js';
import { modulePool } from '../workers/pool.js';

/** Tick files to count, with the options they are read with. */
export interface TickCountInput {
  readonly files: readonly string[];
  readonly format?: FeedFormat;
  readonly instrument?: string;
}

export interface TickCount {
  /** The number of ticks in the files once counted; undefined until then (or if counting failed). */
  total(): number | undefined;
  stop(): void;
}

export const DONE = 1n;

/**
 * Counts the ticks of the files on a worker thread while the backtest runs, for a progress bar
 * with a known end. The answer is read through shared memory, so the run's synchronous loop can
 * look at it between ticks without yielding to the event loop.
 */
export function startTickCount(input: TickCountInput): TickCount {
  const shared = new SharedArrayBuffer(16);
  const cells = new BigInt64Array(shared);
  const module = new URL(`./tick-count-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  const pool = modulePool<{ input: TickCountInput; shared: SharedArrayBuffer }, void>(module, 'countTicks', 1);
  pool.run({ input, shared }).catch(() => undefined); // best effort: without a count the bar shows no end
  return {
    total: () => (Atomics.load(cells, 0) === DONE ? Number(Atomics.load(cells, 1)) : undefined),
    stop: () => void pool.destroy(),
  };
}
