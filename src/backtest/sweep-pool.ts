/**
 * The sweep's worker pool, apart from the sweep itself so that `v20sim backtest` can start its
 * workers as soon as its options say it is a sweep, before it loads the strategy and the engine:
 * a worker's start-up (about a quarter of a second from the built JavaScript) then overlaps that
 * loading instead of following it. The sweep takes the same warm pool when it starts.
 */
import { siblingModule } from '../workers/built-module.js';
import { startsFromSources, warmModulePool, type ModulePool } from '../workers/pool.js';
import { estimateTicks, sweepThreads } from './sweep-plan.js';
import type { SweepRow, SweepTask } from './sweep.js';
import type { FilesRead } from './sweep-ticks.js';

export type SweepAnswer = SweepRow | readonly SweepRow[] | FilesRead | undefined | null;
export type SweepPool = ModulePool<SweepTask, SweepAnswer>;

/** The module a sweep worker loads. */
export const SWEEP_WORKER = siblingModule('sweep-worker', import.meta.url);

/** The process's warm pool of sweep workers (they load the strategy once and stay for the next sweep). */
export function sweepPool(workers: number): SweepPool {
  return warmModulePool<SweepTask, SweepAnswer>(SWEEP_WORKER, 'runSweepTask', workers);
}

/**
 * Starts the workers a sweep of `runs` over `tickFiles` will ask for (sweep-run.ts sizes it the
 * same way from the files' sizes: one thread fewer than its threads, this one runs too), when it
 * will ask for any. `requested`: --workers.
 */
export function startSweepWorkers(tickFiles: readonly string[], runs: number, requested: number | undefined): void {
  if (runs <= 1) return;
  const ticks = estimateTicks(tickFiles);
  const threads =
    requested === undefined
      ? sweepThreads({ runs, ticks, workersFromSources: startsFromSources(SWEEP_WORKER) })
      : sweepThreads({ runs, ticks, requested });
  if (threads > 1) sweepPool(threads - 1);
}
