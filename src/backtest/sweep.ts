import type { MessagePort } from 'node:worker_threads';
import type { Micros } from '../domain/time.js';
import { openTicks } from './tick-files.js';
import type { Metrics } from './report.js';
import { runBacktest, type BacktestAccountOptions } from './runner.js';
import type { ParamValue, StrategyDefinition } from './strategy.js';
import type { JobQueue } from '../workers/job-queue.js';
import { columnTicks, type SweepColumns } from './tick-columns.js';
import { tickOptions, type SweepTicks } from './sweep-ticks.js';

/**
 * A parameter sweep's data and its single run, as this thread and the worker threads
 * (sweep-worker.ts) share them. The runs are spread over threads by sweep-run.ts, ranked and
 * written by sweep-report.ts.
 */

/** Everything a run of a sweep needs besides its parameters; plain data, so it can go to a worker. */
export interface SweepSpec extends SweepTicks {
  /** Absolute path of the strategy module. */
  readonly strategyFile: string;
  readonly account: BacktestAccountOptions;
  readonly equityIntervalMicros: Micros;
}

export interface SweepJob {
  readonly index: number;
  readonly params: Readonly<Record<string, ParamValue>>;
}

/**
 * Work of a sweep for a worker thread (sweep-worker.ts): one job, the jobs of a queue, or the tick
 * files of a queue to read; none of them = only load the strategy.
 * `ticks` (shared memory: posting it copies nothing) absent = the worker reads the tick files.
 */
export interface SweepTask {
  readonly spec: SweepSpec;
  readonly job?: SweepJob;
  readonly ticks?: SweepColumns;
  /**
   * Read the tick files claimed from this queue (indices into spec.tickFiles) until none is left,
   * and answer with each one's columns and index: one message for all, so a worker never waits
   * for this thread to hand it the next file.
   */
  readonly files?: JobQueue<number>;
  /** Run the jobs claimed from this queue until it is empty and answer with their rows. */
  readonly queue?: JobQueue<SweepJob>;
  /** Where each row of a queue's jobs is posted as it finishes (progress). */
  readonly progress?: MessagePort;
}

export interface SweepRow {
  /** Position in the grid (see expandGrid). */
  readonly index: number;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly metrics: Metrics;
}

/**
 * One run of the grid, in this thread: over `ticks` (the sweep's ticks read once, shared between
 * threads) when given, else over the tick files read for this run alone.
 */
export function runSweepJob(spec: SweepSpec, definition: StrategyDefinition, job: SweepJob, ticks?: SweepColumns): SweepRow {
  const result = runBacktest({
    strategy: definition,
    params: job.params,
    ticks: ticks === undefined ? openTicks(spec.tickFiles, tickOptions(spec)) : columnTicks(ticks),
    account: spec.account,
    equityIntervalMicros: spec.equityIntervalMicros,
    sources: [],
  });
  return { index: job.index, params: job.params, metrics: result.metrics };
}

export interface SweepOptions {
  /**
   * Threads to run on, this one included (workers - 1 worker threads); 1 runs every job here, one
   * after another. Undefined: chosen from the amount of work (sweepThreads in sweep-plan.ts).
   */
  readonly workers?: number;
  /** False: this thread only hands out jobs and every run goes to a worker thread. Default true. */
  readonly runHere?: boolean;
  /** Called as each run finishes (in completion order). */
  readonly onResult?: (row: SweepRow, done: number, total: number) => void;
  /**
   * Called once the ticks are read, with the number of threads the sweep runs on (this one
   * included); called again if the sweep, chosen to run here alone, finds its runs long enough to
   * share with workers (sweep-plan.ts workersToAdd).
   */
  readonly onThreads?: (threads: number) => void;
  /** Called when a worker thread has loaded the strategy and takes its first jobs (not in a 1-thread sweep). */
  readonly onWorkerReady?: (worker: number) => void;
  /** Milliseconds from some start, to time the runs by (default performance.now); only sizing reads it. */
  readonly clock?: () => number;
}

function runFailed(index: number, error: unknown): Error {
  return new Error(`sweep run ${index} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** One run of the grid, its failure named by its index (the message a sweep's failure carries). */
export function runSweepJobOrFail(spec: SweepSpec, definition: StrategyDefinition, job: SweepJob, ticks?: SweepColumns): SweepRow {
  try {
    return runSweepJob(spec, definition, job, ticks);
  } catch (error) {
    throw runFailed(job.index, error);
  }
}

/**
 * Where a sweep's runs are computed: on this machine's threads (runSweep, the default) or by
 * `v20sim worker`s on other machines through a queue (src/queue). Either answers the rows in job
 * order, whatever order the runs finished in, so the files written do not depend on which ran.
 */
export type SweepRunner = (spec: SweepSpec, jobs: readonly SweepJob[], options: SweepOptions) => Promise<SweepRow[]>;
