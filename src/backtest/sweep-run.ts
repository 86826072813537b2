import { performance } from 'node:perf_hooks';
import { MessageChannel } from 'node:worker_threads';
import { loadStrategy } from './load.js';
import type { StrategyDefinition } from './strategy.js';
import { runSweepJobOrFail, type SweepJob, type SweepOptions, type SweepRow, type SweepSpec, type SweepTask } from './sweep.js';
import { claimJob, closeQueue, jobQueue, jobsLeft, queueEmpty, type JobQueue } from '../workers/job-queue.js';
import { startsFromSources } from '../workers/pool.js';
import { SWEEP_WORKER, sweepPool, sweepThreadsFor, type SweepAnswer, type SweepPool } from './sweep-pool.js';
import { estimateTicks, largestFirst, workersToAdd } from './sweep-plan.js';
import { columnsCount, type SweepColumns, type TickColumns } from './tick-columns.js';
import { mergeSweepFiles, readSweepFile, type FilesRead } from './sweep-ticks.js';

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The rows in job order, and the function that records each as it finishes (once: a row may come twice). */
function rowCollector(
  jobs: readonly SweepJob[],
  onResult: SweepOptions['onResult'],
): { rows: SweepRow[]; record: (row: SweepRow) => void } {
  const rows: SweepRow[] = new Array<SweepRow>(jobs.length);
  const position = new Map(jobs.map((job, i) => [job.index, i]));
  let done = 0;
  const record = (row: SweepRow): void => {
    const at = position.get(row.index);
    if (at === undefined) throw new Error(`sweep: a result for an unknown run ${row.index}`);
    if (rows[at] !== undefined) return;
    rows[at] = row;
    done += 1;
    onResult?.(row, done, jobs.length);
  };
  return { rows, record };
}

/**
 * A worker's share: the jobs it claims from the queue, its rows reported as they finish (through a
 * message port, for progress) and all together at the end (the answer, which counts).
 */
async function workerShare(pool: SweepPool, task: SweepTask, record: (row: SweepRow) => void): Promise<void> {
  const channel = new MessageChannel();
  channel.port1.on('message', (row: SweepRow) => record(row));
  try {
    const rows = (await pool.run({ ...task, progress: channel.port2 }, [channel.port2])) as readonly SweepRow[];
    for (const row of rows) record(row);
  } finally {
    channel.port1.close();
  }
}

/**
 * One sweep on this thread and worker threads. Workers first read tick files (a `files` task),
 * then, once the ticks are merged, run jobs from the shared queue (a `queue` task); each worker's
 * lane is a promise of this thread, tracked so that the sweep ends only after every share is in.
 */
class SweepRun {
  private readonly total: number;
  private readonly rows: SweepRow[];
  private readonly record: (row: SweepRow) => void;
  private threads: number;
  private readonly runHere: boolean;
  private readonly queue: JobQueue<SweepJob>;
  /** The tick files, read by this thread and the workers ready by then, each claiming the next (none for one run). */
  private readonly files: JobQueue<number>;
  private failure: Error | undefined = undefined;
  private ticks: SweepColumns | undefined = undefined;
  private readonly parts: (TickColumns | undefined)[] = [];
  private ticksRead: () => void = () => undefined;
  private readonly ready = new Promise<void>((resolve) => (this.ticksRead = resolve));
  private readonly running = new Set<Promise<void>>();
  private readonly filesRead: Promise<void>[] = [];
  private readonly lanes: Promise<void>[] = [];
  /** Runs this thread has timed, and the fastest of them (shareLongRuns). */
  private timedRuns = 0;
  private fastestRunMs = Number.POSITIVE_INFINITY;

  constructor(
    private readonly spec: SweepSpec,
    jobs: readonly SweepJob[],
    private readonly options: SweepOptions,
  ) {
    this.total = jobs.length;
    ({ rows: this.rows, record: this.record } = rowCollector(jobs, options.onResult));
    // From the files' sizes first, so the workers start while this thread reads the ticks; from
    // the ticks' count once read: more workers then start late, and one started already takes
    // jobs whatever the count says (its start is paid: left idle, it cost a fresh 14-run sweep
    // of the LEAN files 5% against one thread; used, nothing).
    this.threads = this.sizing(estimateTicks(spec.tickFiles));
    this.runHere = options.runHere !== false || this.threads <= 1;
    this.queue = jobQueue(jobs);
    this.files = jobQueue(this.total > 1 ? largestFirst(spec.tickFiles) : []);
  }

  private sizing(ticks: number): number {
    return sweepThreadsFor(this.total, ticks, this.options.workers);
  }

  private readonly fail = (error: unknown): void => {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
    closeQueue(this.queue);
    closeQueue(this.files);
  };

  private track(work: Promise<void>): Promise<void> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  /** The threads taking jobs: the workers started and this one. */
  private started(): number {
    return this.lanes.length + (this.runHere ? 1 : 0);
  }

  async run(): Promise<SweepRow[]> {
    if (this.threads > 1) this.startWorkers(this.runHere ? this.threads - 1 : this.threads);
    try {
      const definition = await loadStrategy(this.spec.strategyFile);
      if (this.total > 1) await this.readTicks();
      this.options.onThreads?.(Math.max(1, Math.min(this.threads, this.total, this.started())));
      this.ticksRead();
      // Let the workers' lanes see the ticks and take their share before this thread runs a job:
      // a job runs to its end without yielding, and a lane waiting for it would idle a whole run.
      if (this.lanes.length > 0) await yieldToEventLoop();
      if (this.runHere) await this.runJobsHere(definition);
      else await Promise.all(this.lanes);
    } catch (error) {
      this.fail(error);
    } finally {
      this.ticksRead();
    }
    if (this.failure !== undefined) throw this.failure;
    return this.rows;
  }

  private startWorkers(workers: number): void {
    const pool = sweepPool(workers);
    for (let i = 0; i < workers; i += 1) {
      let filesDone: () => void = () => undefined;
      this.filesRead.push(new Promise<void>((resolve) => (filesDone = resolve)));
      this.lanes.push(this.lane(pool, i, filesDone).catch(this.fail));
    }
  }

  /** A worker's part: the tick files it claims, then (the ticks merged) its share of the jobs. */
  private async lane(pool: SweepPool, worker: number, filesDone: () => void): Promise<void> {
    try {
      const read = (answer: SweepAnswer): void => {
        for (const [at, part] of answer as FilesRead) this.parts[at] = part;
      };
      await this.track(pool.run({ spec: this.spec, files: this.files }).then(read, this.fail));
    } finally {
      filesDone();
    }
    await this.ready;
    if (this.failure !== undefined || queueEmpty(this.queue) || worker >= (this.runHere ? this.threads - 1 : this.threads)) return;
    this.options.onWorkerReady?.(worker);
    const task: SweepTask = { spec: this.spec, queue: this.queue, ...(this.ticks === undefined ? {} : { ticks: this.ticks }) };
    await this.track(workerShare(pool, task, this.record).catch(this.fail));
  }

  /** The tick files read by this thread and the workers, merged; then the thread count from their ticks. */
  private async readTicks(): Promise<void> {
    if (!this.runHere) await Promise.all(this.filesRead);
    let readHere = 0;
    for (let file = this.takeFile(); file !== undefined; file = this.takeFile()) {
      this.parts[file] = readSweepFile(this.spec, file);
      readHere += 1;
      if (this.lanes.length > 0) await yieldToEventLoop();
    }
    // Only a worker that claimed a file is waited for: one still starting claimed none, and
    // waiting for it to start kept this thread idle (a fresh process: 140 ms, the files read).
    if (readHere < this.spec.tickFiles.length) await Promise.allSettled([...this.running]);
    if (this.failure === undefined) this.ticks = mergeSweepFiles(this.parts);
    if (this.ticks !== undefined) this.threads = Math.max(this.sizing(columnsCount(this.ticks)), Math.min(this.total, this.started()));
    if (this.lanes.length === 0 && this.threads > 1) this.startWorkers(this.threads - 1);
  }

  /**
   * A sweep sized to run here alone whose runs turn out long (a strategy that costs more than its
   * ticks said) starts the workers the runs left are worth (sweep-plan.ts workersToAdd); they join
   * the queue as it stands.
   */
  private shareLongRuns(ms: number): void {
    if (this.options.workers !== undefined || this.lanes.length > 0 || this.failure !== undefined) return;
    // The first run is timed cold (the strategy and the engine not yet compiled: 2-4 times a warm
    // one), so it only sets the bar; the fastest run so far decides.
    this.timedRuns += 1;
    this.fastestRunMs = Math.min(this.fastestRunMs, ms);
    if (this.timedRuns < 2) return;
    const add = workersToAdd({
      runsLeft: jobsLeft(this.queue),
      msPerRun: this.fastestRunMs,
      workersFromSources: startsFromSources(SWEEP_WORKER),
    });
    if (add === 0) return;
    this.threads = 1 + add;
    this.startWorkers(add);
    this.options.onThreads?.(this.threads);
  }

  private takeFile(): number | undefined {
    return this.failure === undefined ? claimJob(this.files) : undefined;
  }

  /** This thread claims jobs too, and between them lets the workers' progress in. */
  private async runJobsHere(definition: StrategyDefinition): Promise<void> {
    const clock = this.options.clock ?? (() => performance.now());
    for (let job = claimJob(this.queue); job !== undefined; job = claimJob(this.queue)) {
      const began = clock();
      try {
        this.record(runSweepJobOrFail(this.spec, definition, job, this.ticks));
      } catch (error) {
        this.fail(error);
      }
      this.shareLongRuns(clock() - began);
      if (this.lanes.length > 0) await yieldToEventLoop();
    }
    // Every job is claimed: wait for the workers' shares (a worker still starting has none).
    await Promise.allSettled([...this.running]);
  }
}

/**
 * Runs every job on this thread and worker threads (as many as `options.workers` says or the work
 * is worth, see sweep-plan.ts), each thread claiming the next job from a shared counter as it
 * finishes one. The ticks are read once (file by file, by whichever thread is free), into shared
 * columns every thread reads. This thread never waits for a worker that is still starting: when
 * it has run the last job itself, the sweep is over. Each run is deterministic and independent, so
 * the rows are the same whatever ran where; they come back in job order.
 */
export function runSweep(spec: SweepSpec, jobs: readonly SweepJob[], options: SweepOptions = {}): Promise<SweepRow[]> {
  return new SweepRun(spec, jobs, options).run();
}
