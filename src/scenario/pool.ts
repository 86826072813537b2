import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { siblingModule } from '../workers/built-module.js';
import { claimJob, jobQueue, type JobQueue } from '../workers/job-queue.js';
import { startsFromSources, warmModulePool, type ModulePool } from '../workers/pool.js';
import { scenarioThreads } from './pool-plan.js';
import { crashedResult, runScenarioFileOrCrash } from './run-file.js';
import type { ScenarioResult } from './result.js';
import type { ScenarioJob, ScenarioMessage, ScenarioTask } from './worker.js';

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

/** The module scenario workers load. */
const SCENARIO_WORKER = siblingModule('worker', import.meta.url);

/** The process's warm pool of scenario workers (kept for the next run in this process). */
function scenarioPool(workers: number): ModulePool<ScenarioTask, number> {
  return warmModulePool<ScenarioTask, number>(SCENARIO_WORKER, 'runScenarioTask', workers);
}

/**
 * A worker's share of a run: the files it claims from the shared queue, each result taken in from
 * the port as it comes. Resolves once every file it ran has been taken in; a worker that fails
 * (it could not start, or its thread died) ends its share with what it had sent.
 */
export async function workerShare(
  pool: ModulePool<ScenarioTask, number>,
  task: Omit<ScenarioTask, 'results'>,
  settle: (index: number, result: ScenarioResult) => void,
): Promise<void> {
  const channel = new MessageChannel();
  let received = 0;
  let expected = Number.POSITIVE_INFINITY;
  let allIn: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allIn = resolve));
  channel.port1.on('message', (message: ScenarioMessage) => {
    settle(message.index, message.result);
    received += 1;
    if (received >= expected) allIn();
  });
  try {
    expected = await pool.run({ ...task, results: channel.port2 }, [channel.port2]);
    if (received < expected) await done;
  } catch {
    // The files it claimed and did not answer are reported as crashed by the caller.
  } finally {
    channel.port1.close();
  }
}

/**
 * Runs scenario files and returns their results in the order of `files`: on this thread and, when
 * the work is worth it (pool-plan.ts) or `jobs` asks, on worker threads. Every thread takes its
 * next file from one counter in shared memory (workers/job-queue.ts), so a worker never waits for
 * this thread, busy with a file of its own, to hand it one; a worker starts taking files once it
 * has loaded the runner, so this thread never waits on its start-up either. Each file runs alone in
 * a fresh simulator, so the results do not depend on the number of threads or on which thread ran
 * what.
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
  const queue: JobQueue<ScenarioJob> = jobQueue(files.map((file, index) => ({ index, file })));
  const here = options.runHere !== false || threads <= 1;
  const workers = here ? threads - 1 : threads;
  const update = options.update === true;
  const pool = workers > 0 ? scenarioPool(workers) : undefined;
  const shares =
    pool === undefined ? [] : Array.from({ length: workers }, () => workerShare(pool, { queue, cwd: options.cwd, update }, settle));
  // Without this thread, files left by workers that could not start run here after all.
  if (!here) await Promise.all(shares);
  for (let job = claimJob(queue); job !== undefined; job = claimJob(queue)) {
    settle(job.index, await runScenarioFileOrCrash(job.file, options.cwd, { update }));
    // Lets the workers' results in between files, so they are reported as they come.
    if (shares.length > 0) await eventLoopTurn();
  }
  await Promise.all(shares);
  // A file a worker claimed and never answered: its thread failed while running it.
  results.forEach((result, index) => {
    if (result === undefined) settle(index, crashedResult(files[index] as string, 'its worker thread stopped before it finished'));
  });
  return results as ScenarioResult[];
}
