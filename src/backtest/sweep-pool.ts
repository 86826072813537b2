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
 * The threads of a sweep of `runs` over `ticks` ticks a run (this one included): `requested`
 * (--workers) if given, else from the work, counting the workers' start from the sources if
 * that is where they would start.
 */
export function sweepThreadsFor(runs: number, ticks: number, requested: number | undefined): number {
  if (requested !== undefined) return sweepThreads({ runs, ticks, requested });
  return sweepThreads({ runs, ticks, workersFromSources: startsFromSources(SWEEP_WORKER) });
}

/**
 * Starts the workers a sweep of `runs` over `tickFiles` will ask for (sweep-run.ts sizes it with
 * sweepThreadsFor from the files' sizes; one thread fewer, as this one runs too), when it will
 * ask for any.
 */
export function startSweepWorkers(tickFiles: readonly string[], runs: number, requested: number | undefined): void {
  if (runs <= 1) return;
  const threads = sweepThreadsFor(runs, estimateTicks(tickFiles), requested);
  if (threads > 1) sweepPool(threads - 1);
}
