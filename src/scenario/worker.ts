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
 * as in the main thread.
 */
export function runScenarioTask(task: ScenarioTask): Promise<ScenarioResult> {
  return runScenarioFile(task.file, task.cwd, { update: task.update });
}
