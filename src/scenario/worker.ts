import type { MessagePort } from 'node:worker_threads';
import { drainQueue, type JobQueue } from '../workers/job-queue.js';
import type { ScenarioResult } from './result.js';
import { runScenarioFileOrCrash } from './run-file.js';

/** A file of a run: its place in the run's list (results are reported in that order) and its path. */
export interface ScenarioJob {
  readonly index: number;
  readonly file: string;
}

/** One file's result, as a worker posts it. */
export interface ScenarioMessage {
  readonly index: number;
  readonly result: ScenarioResult;
}

/**
 * A worker's part of a run (pool.ts): the files it claims from the queue every thread of the run
 * shares, each result posted on `results` as soon as the file is done.
 */
export interface ScenarioTask {
  readonly queue: JobQueue<ScenarioJob>;
  readonly cwd: string;
  readonly update: boolean;
  readonly results: MessagePort;
}

/**
 * Runs files claimed from the queue in a worker thread until none is left and answers how many it
 * ran (each result went through the port, which the thread that posted the task closes once it has
 * them all). Results are plain data, so a file gives the same result here as in the main thread.
 */
export async function runScenarioTask(task: ScenarioTask): Promise<number> {
  const results = await drainQueue(
    task.queue,
    (job) => runScenarioFileOrCrash(job.file, task.cwd, { update: task.update }),
    (result, job) => task.results.postMessage({ index: job.index, result } satisfies ScenarioMessage),
  );
  return results.length;
}
