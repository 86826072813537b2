import { loadStrategy } from './load.js';
import { readSweepFile, runSweepJob, type SweepRow, type SweepTask } from './sweep.js';
import type { TickColumns } from './tick-columns.js';
import type { StrategyDefinition } from './strategy.js';

/** The strategy of each module a worker has loaded, so it loads once per worker, not per run. */
const loaded = new Map<string, Promise<StrategyDefinition>>();

/**
 * Runs one job of a sweep in a worker thread and answers with its row (plain data), or reads one
 * tick file into shared columns (posted back without a copy).
 */
export async function runSweepTask(task: SweepTask): Promise<SweepRow | TickColumns | undefined | null> {
  let definition = loaded.get(task.spec.strategyFile);
  if (definition === undefined) {
    definition = loadStrategy(task.spec.strategyFile);
    loaded.set(task.spec.strategyFile, definition);
  }
  const strategy = await definition;
  if (task.read !== undefined) return readSweepFile(task.spec, task.read);
  return task.job === undefined ? null : runSweepJob(task.spec, strategy, task.job, task.ticks);
}
