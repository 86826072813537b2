import { siblingModule } from '../workers/built-module.js';
import { startsFromSources, warmModulePool, type ModulePool } from '../workers/pool.js';
import { scenarioThreads } from './pool-plan.js';
import { runScenarioFile } from './run-file.js';
import type { ScenarioResult } from './result.js';
import type { ScenarioTask } from './worker.js';

export interface PoolOptions {
  readonly cwd: string;
  readonly update?: boolean;
  /**
   * Threads, this one included (jobs - 1 worker threads); 1 runs every file in this thread.
   * Undefined: chosen from the amount of work (scenarioThreads in pool-plan.ts).
   */
  readonly jobs?: number;
  /** False: this thread only hands out files and every file runs on a worker thread (jobs > 1). Default true. */
  readonly runHere?: boolean;
  /** Each result as soon as it and every earlier file are done, in the order of `files`. */
  readonly onResult?: (result: ScenarioResult, index: number) => void;
}

/** Most threads, whatever the core count says. */
const THREADS_MAX = 64;

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

async function runInThread(file: string, options: PoolOptions): Promise<ScenarioResult> {
  try {
    return await runScenarioFile(file, options.cwd, { update: options.update === true });
  } catch (err) {
    return crashed(file, (err as Error).stack ?? String(err));
  }
}

/** The module scenario workers load. */
const SCENARIO_WORKER = siblingModule('worker', import.meta.url);

/** The process's warm pool of scenario workers (kept for the next run in this process). */
function scenarioPool(workers: number): ModulePool<ScenarioTask | null, ScenarioResult | null> {
  return warmModulePool<ScenarioTask | null, ScenarioResult | null>(SCENARIO_WORKER, 'runScenarioTask', workers);
}

/**
 * Runs scenario files and returns their results in the order of `files`: on this thread and, when
 * the work is worth it (pool-plan.ts) or `jobs` asks, on worker threads, each thread taking the
 * next file as it finishes one. This thread never waits for a worker that is still starting. Each
 * file runs alone in a fresh simulator, so the results do not depend on the number of threads or
 * on which thread ran what.
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
  const threads = Math.min(
    scenarioThreads({
      files,
      cwd: options.cwd,
      requested: options.jobs,
      // Only asked when the threads are chosen: it looks for a built twin of the worker module.
      ...(options.jobs === undefined ? { workersFromSources: startsFromSources(SCENARIO_WORKER) } : {}),
    }),
    THREADS_MAX,
  );
  let next = 0;
  const take = (): number | undefined => (next < files.length ? next++ : undefined);
  const here = options.runHere !== false || threads <= 1;
  const workers = here ? threads - 1 : threads;
  const pool = workers > 0 ? scenarioPool(workers) : undefined;
  const running = new Set<Promise<void>>();
  const runLane = async (): Promise<void> => {
    if (pool === undefined) return;
    // A worker takes a file only once it has loaded the runner, so this thread never waits on its start-up.
    await pool.run(null);
    for (let index = take(); index !== undefined; index = take()) {
      const file = files[index] as string;
      const work = pool.run({ file, cwd: options.cwd, update: options.update === true }).then(
        (result) => settle(index, result as ScenarioResult),
        (err: unknown) => settle(index, crashed(file, (err as Error).stack ?? String(err))),
      );
      running.add(work);
      await work;
      running.delete(work);
    }
  };
  const lanes = Array.from({ length: workers }, () => runLane().catch(() => undefined));
  // Without this thread, files left by workers that could not start run here after all.
  if (!here) await Promise.all(lanes);
  for (let index = take(); index !== undefined; index = take()) settle(index, await runInThread(files[index] as string, options));
  await Promise.all([...running]);
  return results as ScenarioResult[];
}
