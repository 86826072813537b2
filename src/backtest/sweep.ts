import { mkdirSync, writeFileSync } from 'node:fs';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import path from 'node:path';
import type { Micros } from '../domain/time.js';
import { csvField, fmtNumber, fmtOptional, fmtPercent, textTable } from './format.js';
import { describeSources, loadStrategy, openTicks } from './load.js';
import { METRIC_NAMES, type Metrics } from './report.js';
import { runBacktest, type BacktestAccountOptions } from './runner.js';
import type { ParamValue, StrategyDefinition } from './strategy.js';
import { claimJob, closeQueue, jobQueue, queueEmpty, type JobQueue } from '../workers/job-queue.js';
import { warmModulePool, type ModulePool } from '../workers/pool.js';
import { estimateTicks, largestFirst, sweepThreads } from './sweep-plan.js';
import { columnTicks, type TickColumns } from './tick-columns.js';
import { mergeSweepFiles, readSweepFile, tickOptions, type FilesRead, type SweepTicks } from './sweep-ticks.js';

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
  readonly ticks?: TickColumns;
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

/** Metrics where smaller is better; every other metric ranks largest first. */
const ASCENDING: ReadonlySet<string> = new Set([
  'maxDrawdown',
  'maxDrawdownAmount',
  'maxDrawdownDurationSeconds',
  'longestDrawdownSeconds',
  'spreadCost',
  'conversionCostPL',
  'conversionCostFinancing',
  'conversionCost',
  'marginCalls',
  'marginCloseouts',
  'rejects',
  'losers',
]);

/** The metrics a sweep can be ranked by: the numeric ones. */
export const RANK_METRICS: readonly string[] = METRIC_NAMES.filter(
  (name) => !['startTime', 'endTime', 'maxDrawdownPeakTime', 'maxDrawdownTroughTime', 'maxDrawdownRecoveryTime'].includes(name),
);

export function checkRankMetric(name: string): keyof Metrics {
  if (!RANK_METRICS.includes(name)) throw new Error(`cannot rank by ${JSON.stringify(name)}; choose one of ${RANK_METRICS.join(', ')}`);
  return name as keyof Metrics;
}

/**
 * One run of the grid, in this thread: over `ticks` (the sweep's ticks read once, shared between
 * threads) when given, else over the tick files read for this run alone.
 */
export function runSweepJob(spec: SweepSpec, definition: StrategyDefinition, job: SweepJob, ticks?: TickColumns): SweepRow {
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
  /** Called once the ticks are read, with the number of threads the sweep runs on (this one included). */
  readonly onThreads?: (threads: number) => void;
  /** Called when a worker thread has loaded the strategy and takes its first jobs (not in a 1-thread sweep). */
  readonly onWorkerReady?: (worker: number) => void;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function runFailed(index: number, error: unknown): Error {
  return new Error(`sweep run ${index} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** One run of the grid, its failure named by its index (the message a sweep's failure carries). */
export function runSweepJobOrFail(spec: SweepSpec, definition: StrategyDefinition, job: SweepJob, ticks?: TickColumns): SweepRow {
  try {
    return runSweepJob(spec, definition, job, ticks);
  } catch (error) {
    throw runFailed(job.index, error);
  }
}

type SweepAnswer = SweepRow | readonly SweepRow[] | FilesRead | undefined | null;

/** The process's warm pool of sweep workers (they load the strategy once and stay for the next sweep). */
function sweepPool(workers: number): ModulePool<SweepTask, SweepAnswer> {
  const module = new URL(`./sweep-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  return warmModulePool<SweepTask, SweepAnswer>(module, 'runSweepTask', workers);
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
async function workerShare(pool: ModulePool<SweepTask, SweepAnswer>, task: SweepTask, record: (row: SweepRow) => void): Promise<void> {
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
 * Runs every job on this thread and worker threads (as many as `options.workers` says or the work
 * is worth, see sweep-plan.ts), each thread claiming the next job from a shared counter as it
 * finishes one. The ticks are read once (file by file, by whichever thread is free), into shared
 * columns every thread reads. This thread never waits for a worker that is still starting: when
 * it has run the last job itself, the sweep is over. Each run is deterministic and independent, so
 * the rows are the same whatever ran where; they come back in job order.
 */
export async function runSweep(spec: SweepSpec, jobs: readonly SweepJob[], options: SweepOptions = {}): Promise<SweepRow[]> {
  const total = jobs.length;
  const { rows, record } = rowCollector(jobs, options.onResult);
  const sizing = (ticks: number): number => sweepThreads({ runs: total, ticks, requested: options.workers });
  // From the files' sizes first, so the workers start while this thread reads the ticks; from
  // the ticks' count once read: more workers then start late, and one started already takes
  // jobs whatever the count says (its start is paid: left idle, it cost a fresh 14-run sweep
  // of the LEAN files 5% against one thread; used, nothing).
  let threads = sizing(estimateTicks(spec.tickFiles));
  const runHere = options.runHere !== false || threads <= 1;
  const queue = jobQueue(jobs);
  // The tick files, read by this thread and the workers ready by then, each claiming the next (none for one run).
  const files = jobQueue(total > 1 ? largestFirst(spec.tickFiles) : []);
  let failure: Error | undefined;
  let ticks: TickColumns | undefined;
  const fail = (error: unknown): void => {
    failure ??= error instanceof Error ? error : new Error(String(error));
    closeQueue(queue);
    closeQueue(files);
  };
  let ticksRead: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (ticksRead = resolve));
  const running = new Set<Promise<void>>();
  const track = (work: Promise<void>): Promise<void> => {
    running.add(work);
    return work.finally(() => running.delete(work));
  };
  const parts: (TickColumns | undefined)[] = [];
  const takeFile = (): number | undefined => (failure === undefined ? claimJob(files) : undefined);
  const runLane = async (pool: ModulePool<SweepTask, SweepAnswer>, worker: number, filesDone: () => void): Promise<void> => {
    try {
      const read = (answer: SweepAnswer): void => {
        for (const [at, part] of answer as FilesRead) parts[at] = part;
      };
      await track(pool.run({ spec, files }).then(read, fail));
    } finally {
      filesDone();
    }
    await ready;
    if (failure !== undefined || queueEmpty(queue) || worker >= (runHere ? threads - 1 : threads)) return;
    options.onWorkerReady?.(worker);
    await track(workerShare(pool, { spec, queue, ...(ticks === undefined ? {} : { ticks }) }, record).catch(fail));
  };
  const filesRead: Promise<void>[] = [];
  const lanes: Promise<void>[] = [];
  const startWorkers = (workers: number): void => {
    const pool = sweepPool(workers);
    for (let i = 0; i < workers; i += 1) {
      let filesDone: () => void = () => undefined;
      filesRead.push(new Promise<void>((resolve) => (filesDone = resolve)));
      lanes.push(runLane(pool, i, filesDone).catch(fail));
    }
  };
  if (threads > 1) startWorkers(runHere ? threads - 1 : threads);
  try {
    const definition = await loadStrategy(spec.strategyFile);
    if (total > 1) {
      if (!runHere) await Promise.all(filesRead);
      let readHere = 0;
      for (let file = takeFile(); file !== undefined; file = takeFile()) {
        parts[file] = readSweepFile(spec, file);
        readHere += 1;
        if (lanes.length > 0) await yieldToEventLoop();
      }
      // Only a worker that claimed a file is waited for: one still starting claimed none, and
      // waiting for it to start kept this thread idle (a fresh process: 140 ms, the files read).
      if (readHere < spec.tickFiles.length) await Promise.allSettled([...running]);
      if (failure === undefined) ticks = mergeSweepFiles(parts);
      if (ticks !== undefined) threads = Math.max(sizing(ticks.count), Math.min(total, lanes.length + (runHere ? 1 : 0)));
      if (lanes.length === 0 && threads > 1) startWorkers(threads - 1);
    }
    options.onThreads?.(Math.max(1, Math.min(threads, total, lanes.length + (runHere ? 1 : 0))));
    ticksRead();
    // Let the workers' lanes see the ticks and take their share before this thread runs a job:
    // a job runs to its end without yielding, and a lane waiting for it would idle a whole run.
    if (lanes.length > 0) await yieldToEventLoop();
    if (runHere) {
      // This thread claims jobs too, and between them lets the workers' progress in.
      for (let job = claimJob(queue); job !== undefined; job = claimJob(queue)) {
        try {
          record(runSweepJobOrFail(spec, definition, job, ticks));
        } catch (error) {
          fail(error);
        }
        if (lanes.length > 0) await yieldToEventLoop();
      }
      // Every job is claimed: wait for the workers' shares (a worker still starting has none).
      await Promise.allSettled([...running]);
    } else await Promise.all(lanes);
  } catch (error) {
    fail(error);
  } finally {
    ticksRead();
  }
  if (failure !== undefined) throw failure;
  return rows;
}

/**
 * Where a sweep's runs are computed: on this machine's threads (runSweep, the default) or by
 * `v20sim worker`s on other machines through a queue (src/queue). Either answers the rows in job
 * order, whatever order the runs finished in, so the files written do not depend on which ran.
 */
export type SweepRunner = (spec: SweepSpec, jobs: readonly SweepJob[], options: SweepOptions) => Promise<SweepRow[]>;

/** Rows by the metric (best first, nulls last), ties by grid position. */
export function rankRows(rows: readonly SweepRow[], metric: keyof Metrics): SweepRow[] {
  const ascending = ASCENDING.has(metric);
  return [...rows].sort((a, b) => {
    const x = a.metrics[metric],
      y = b.metrics[metric];
    const xn = typeof x === 'number' ? x : null;
    const yn = typeof y === 'number' ? y : null;
    if (xn === null || yn === null) return xn === yn ? a.index - b.index : xn === null ? 1 : -1;
    if (xn !== yn) return ascending ? xn - yn : yn - xn;
    return a.index - b.index;
  });
}

export interface SweepReport {
  readonly strategy: string;
  readonly rankedBy: string;
  readonly swept: readonly string[];
  readonly ticks: ReadonlyArray<{ readonly file: string; readonly sha256: string }>;
  readonly runs: ReadonlyArray<{
    readonly rank: number;
    readonly index: number;
    readonly params: Readonly<Record<string, ParamValue>>;
    readonly metrics: Metrics;
  }>;
}

export function sweepReport(
  definition: StrategyDefinition,
  spec: SweepSpec,
  swept: readonly string[],
  ranked: readonly SweepRow[],
  metric: string,
): SweepReport {
  return {
    strategy: definition.name,
    rankedBy: metric,
    swept,
    ticks: describeSources(spec.tickFiles),
    runs: ranked.map((row, i) => ({ rank: i + 1, index: row.index, params: row.params, metrics: row.metrics })),
  };
}

export function sweepCsv(report: SweepReport, paramNames: readonly string[]): string {
  const header = ['rank', 'index', ...paramNames, ...METRIC_NAMES];
  const lines = [header.map(csvField).join(',')];
  for (const run of report.runs) {
    lines.push(
      [run.rank, run.index, ...paramNames.map((n) => run.params[n]), ...METRIC_NAMES.map((m) => run.metrics[m])]
        .map((v) => csvField(v as string | number | boolean | null))
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function writeSweep(dir: string, report: SweepReport, paramNames: readonly string[]): string[] {
  mkdirSync(dir, { recursive: true });
  const csv = path.join(dir, 'sweep.csv');
  const json = path.join(dir, 'sweep.json');
  writeFileSync(csv, sweepCsv(report, paramNames));
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return [csv, json];
}

/** The ranked table printed at the end of a sweep (at most `limit` rows). */
export function sweepTable(report: SweepReport, limit = 50): string {
  const header = ['#', ...report.swept, 'net P/L', 'return', 'sharpe', 'sortino', 'max DD', 'win rate', 'PF', 'trades'];
  const rows = report.runs
    .slice(0, limit)
    .map((run) => [
      String(run.rank),
      ...report.swept.map((n) => String(run.params[n])),
      fmtNumber(run.metrics.netPL),
      fmtPercent(run.metrics.return),
      fmtOptional(run.metrics.sharpe),
      fmtOptional(run.metrics.sortino),
      fmtPercent(run.metrics.maxDrawdown),
      fmtPercent(run.metrics.winRate, 1),
      fmtOptional(run.metrics.profitFactor),
      fmtNumber(run.metrics.trades, 0),
    ]);
  const right = new Set(header.map((_, i) => i).filter((i) => i === 0 || i > report.swept.length));
  const more = report.runs.length > limit ? `\n(${report.runs.length - limit} more in sweep.csv)` : '';
  return `${textTable(header, rows, right)}${more}`;
}
