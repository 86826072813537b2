import { runScenarioFile } from './run-file.js';
import type { ScenarioResult } from './result.js';

/** One scenario file for a worker of the pool (pool.ts). */
export interface ScenarioTask {
  readonly file: string;
  readonly cwd: string;
  readonly update: boolean;
}

/**
 * Runs one file in a worker thread. Results are plain data, so a file gives the same result here
 * as in the main thread. A null task only loads this module (the pool's warm-up).
 */
export async function runScenarioTask(task: ScenarioTask | null): Promise<ScenarioResult | null> {
  return task === null ? null : runScenarioFile(task.file, task.cwd, { update: task.update });
}
