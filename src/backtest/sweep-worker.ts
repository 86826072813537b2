import { loadStrategy } from './load.js';
import { claimJob, drainQueue } from '../workers/job-queue.js';
import { runSweepJob, runSweepJobOrFail, type SweepRow, type SweepTask } from './sweep.js';
import { readSweepFile, type FilesRead } from './sweep-ticks.js';
import type { TickColumns } from './tick-columns.js';
import type { StrategyDefinition } from './strategy.js';

/** The strategy of each module a worker has loaded, so it loads once per worker, not per run. */
const loaded = new Map<string, Promise<StrategyDefinition>>();

/**
 * Runs one job of a sweep in a worker thread and answers with its row (plain data), or the jobs
 * of a shared queue until it is empty (their rows), or reads the tick files of a shared queue into
 * shared columns (posted back without a copy).
 */
export async function runSweepTask(task: SweepTask): Promise<SweepRow | readonly SweepRow[] | FilesRead | undefined | null> {
  let definition = loaded.get(task.spec.strategyFile);
  if (definition === undefined) {
    definition = loadStrategy(task.spec.strategyFile);
    loaded.set(task.spec.strategyFile, definition);
  }
  const strategy = await definition;
  if (task.files !== undefined) {
    const read: [number, TickColumns | undefined][] = [];
    for (let file = claimJob(task.files); file !== undefined; file = claimJob(task.files))
      read.push([file, readSweepFile(task.spec, file)]);
    return read;
  }
  if (task.queue !== undefined) {
    const progress = task.progress;
    return drainQueue(
      task.queue,
      (job) => runSweepJobOrFail(task.spec, strategy, job, task.ticks),
      (row) => progress?.postMessage(row),
    );
  }
  return task.job === undefined ? null : runSweepJob(task.spec, strategy, task.job, task.ticks);
}
