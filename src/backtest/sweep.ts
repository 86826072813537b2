import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Micros } from '../domain/time.js';
import type { FeedFormat } from '../engine/feeds/index.js';
import { csvField, fmtNumber, fmtOptional, fmtPercent, textTable } from './format.js';
import { describeSources, loadStrategy, openTicks } from './load.js';
import { METRIC_NAMES, type Metrics } from './report.js';
import { runBacktest, type BacktestAccountOptions } from './runner.js';
import type { ParamValue, StrategyDefinition } from './strategy.js';
import { modulePool } from '../workers/pool.js';

/** Everything a run of a sweep needs besides its parameters; plain data, so it can go to a worker. */
export interface SweepSpec {
  /** Absolute path of the strategy module. */
  readonly strategyFile: string;
  readonly tickFiles: readonly string[];
  readonly format?: FeedFormat;
  readonly instrument?: string;
  readonly account: BacktestAccountOptions;
  readonly equityIntervalMicros: Micros;
}

export interface SweepJob {
  readonly index: number;
  readonly params: Readonly<Record<string, ParamValue>>;
}

/** One run of a sweep for a worker thread (sweep-worker.ts); `job` absent = only load the strategy. */
export interface SweepTask {
  readonly spec: SweepSpec;
  readonly job?: SweepJob;
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

/** One run of the grid, in this thread. */
export function runSweepJob(spec: SweepSpec, definition: StrategyDefinition, job: SweepJob): SweepRow {
  const ticks = openTicks(spec.tickFiles, {
    ...(spec.format === undefined ? {} : { format: spec.format }),
    ...(spec.instrument === undefined ? {} : { instrument: spec.instrument }),
  });
  const result = runBacktest({
    strategy: definition,
    params: job.params,
    ticks,
    account: spec.account,
    equityIntervalMicros: spec.equityIntervalMicros,
    sources: [],
  });
  return { index: job.index, params: job.params, metrics: result.metrics };
}

export interface SweepOptions {
  /** Threads to run on, this one included (workers - 1 worker threads); 1 runs every job here, one after another. */
  readonly workers: number;
  /** Called as each run finishes (in completion order). */
  readonly onResult?: (row: SweepRow, done: number, total: number) => void;
  /** Called when a worker thread has loaded the strategy and takes its first jobs (not in a 1-thread sweep). */
  readonly onWorkerReady?: (worker: number) => void;
}

/** Worker jobs in flight per worker thread: one running and one waiting, so a worker never idles while this thread is busy. */
const JOBS_AHEAD = 2;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function runFailed(index: number, error: unknown): Error {
  return new Error(`sweep run ${index} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/**
 * Runs every job on `workers` threads: this one (which has the strategy loaded and warm already)
 * and a pool of workers - 1 worker threads, each lane taking the next job as it finishes one. Each
 * run is deterministic and independent, so the rows are the same whatever ran where; they come
 * back in job order. With workers = 1 every job runs here, one after another.
 */
export async function runSweep(spec: SweepSpec, jobs: readonly SweepJob[], options: SweepOptions): Promise<SweepRow[]> {
  const total = jobs.length;
  const rows: SweepRow[] = new Array<SweepRow>(total);
  const position = new Map(jobs.map((job, i) => [job.index, i]));
  const threads = Math.max(1, Math.min(options.workers, total));
  const definition = await loadStrategy(spec.strategyFile);
  let next = 0;
  let done = 0;
  let failure: Error | undefined;
  const take = (): SweepJob | undefined => (failure === undefined ? jobs[next++] : undefined);
  const record = (row: SweepRow): void => {
    const at = position.get(row.index);
    if (at === undefined) throw new Error(`sweep: a result for an unknown run ${row.index}`);
    rows[at] = row;
    done += 1;
    options.onResult?.(row, done, total);
  };
  const pool =
    threads > 1
      ? modulePool<SweepTask, SweepRow | null>(
          new URL(`./sweep-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
          'runSweepTask',
          threads - 1,
        )
      : undefined;
  const runLane = async (lane: number): Promise<void> => {
    if (pool === undefined) return;
    await pool.run({ spec });
    if (lane % JOBS_AHEAD === 0) options.onWorkerReady?.(lane / JOBS_AHEAD);
    for (let job = take(); job !== undefined; job = take()) {
      const index = job.index;
      record(
        (await pool.run({ spec, job }).catch((error: unknown) => {
          throw runFailed(index, error);
        })) as SweepRow,
      );
    }
  };
  const lanes = Array.from({ length: pool === undefined ? 0 : (threads - 1) * JOBS_AHEAD }, (_, i) =>
    runLane(i).catch((error: unknown) => {
      failure ??= error instanceof Error ? error : new Error(String(error));
    }),
  );
  try {
    // This thread takes jobs too, and between them lets the workers' answers in.
    for (let job = take(); job !== undefined; job = take()) {
      try {
        record(runSweepJob(spec, definition, job));
      } catch (error) {
        failure ??= runFailed(job.index, error);
      }
      if (pool !== undefined) await yieldToEventLoop();
    }
    await Promise.all(lanes);
    if (failure !== undefined) throw failure;
    return rows;
  } finally {
    await pool?.destroy();
  }
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
