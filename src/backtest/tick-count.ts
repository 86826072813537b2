import type { FeedFormat } from '../engine/feeds/index.js';
import { startModuleWorker } from './worker.js';

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

const COUNTING = 0n;
const DONE = 1n;

/**
 * Counts the ticks of the files on a worker thread while the backtest runs, for a progress bar
 * with a known end. The answer is read through shared memory, so the run's synchronous loop can
 * look at it between ticks without yielding to the event loop.
 */
export function startTickCount(input: TickCountInput): TickCount {
  const shared = new SharedArrayBuffer(16);
  const cells = new BigInt64Array(shared);
  const worker = startModuleWorker('tick-count-worker', 'tickCountMain', { input, shared });
  worker.unref();
  worker.on('error', () => undefined); // best effort: without a count the bar shows no end
  return {
    total: () => (Atomics.load(cells, 0) === DONE ? Number(Atomics.load(cells, 1)) : undefined),
    stop: () => void worker.terminate(),
  };
}

export { COUNTING, DONE };
