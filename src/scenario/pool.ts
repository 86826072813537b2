import { availableParallelism } from 'node:os';
import { modulePool } from '../workers/pool.js';
import { runScenarioFile } from './run-file.js';
import type { ScenarioResult } from './result.js';
import type { ScenarioTask } from './worker.js';

export interface PoolOptions {
  readonly cwd: string;
  readonly update?: boolean;
  /** Worker threads; default one per core (os.availableParallelism()), at most one per file. 1 runs in this thread. */
  readonly jobs?: number;
  /** Each result as soon as it and every earlier file are done, in the order of `files`. */
  readonly onResult?: (result: ScenarioResult, index: number) => void;
}

/** Most worker threads, whatever the core count says. */
const WORKERS_MAX = 64;

function crashed(file: string, message: string): ScenarioResult {
  return {
    file,
    name: file,
    status: 'failed',
    steps: [],
    problems: [],
    goldens: [],
    durationMs: 0,
    failures: [{ message: `the scenario runner crashed: ${message}`, location: { file, line: 1, col: 1 } }],
  };
}

/**
 * Runs scenario files, in parallel on worker threads, and returns their results in the order of
 * `files`. Each file runs alone in a fresh simulator, so the results do not depend on the number
 * of workers or on which worker ran what.
 */
export async function runScenarioFiles(files: readonly string[], options: PoolOptions): Promise<ScenarioResult[]> {
  const results: (ScenarioResult | undefined)[] = files.map(() => undefined);
  let emitted = 0;
  const settle = (index: number, result: ScenarioResult): void => {
    results[index] = result;
    while (emitted < files.length && results[emitted] !== undefined) {
      options.onResult?.(results[emitted] as ScenarioResult, emitted);
      emitted += 1;
    }
  };
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), files.length, WORKERS_MAX));
  if (jobs <= 1) {
    for (let i = 0; i < files.length; i += 1) {
      const file = files[i] as string;
      let result: ScenarioResult;
      try {
        result = await runScenarioFile(file, options.cwd, { update: options.update === true });
      } catch (err) {
        result = crashed(file, (err as Error).stack ?? String(err));
      }
      settle(i, result);
    }
    return results as ScenarioResult[];
  }

  const module = new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  const pool = modulePool<ScenarioTask, ScenarioResult>(module, 'runScenarioTask', jobs);
  try {
    await Promise.all(
      files.map(async (file, index) => {
        let result: ScenarioResult;
        try {
          result = await pool.run({ file, cwd: options.cwd, update: options.update === true });
        } catch (err) {
          result = crashed(file, (err as Error).stack ?? String(err));
        }
        settle(index, result);
      }),
    );
  } finally {
    await pool.destroy();
  }
  return results as ScenarioResult[];
}
