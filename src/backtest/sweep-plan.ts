/**
 * How many threads a sweep runs on, from the amount of work: a worker thread costs its start-up
 * (a few hundred milliseconds from the built JavaScript, about a second from the TypeScript
 * sources) and, on a machine whose cores share one memory bus, slows the thread beside it; it pays
 * only when each thread gets a good share of runs. Sizing never changes results: each run is
 * deterministic wherever it runs.
 */
import { statSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { SOURCES_START_FACTOR, WORKER_START_MS } from '../workers/start-cost.js';
import { COLUMN_BYTES_PER_TICK } from './tick-columns.js';

/**
 * Tick-runs (ticks x runs) a thread must get before another thread is worth starting: about a
 * second of runs at the 4-8 million ticks/s a backtest makes over ticks already read, against a
 * worker's start-up and first, slower (not yet compiled) runs.
 */
export const TICK_RUNS_PER_THREAD = 4_000_000;

/**
 * The same for workers that start from the TypeScript sources (no current dist/, see
 * workers/built-module.ts), in proportion to what they cost to start: through tsx a worker took
 * 790 ms to its first jobs against 358 ms from dist/, and a 16-run sweep of the example strategy
 * over the 13 LEAN files (8.5 M tick-runs) took 1.95-2.20 s on two threads against 1.73-1.83 s on
 * one (three alternated runs).
 */
export const SOURCE_TICK_RUNS_PER_THREAD = TICK_RUNS_PER_THREAD * SOURCES_START_FACTOR;

/**
 * Bytes per tick at the low end of what files hold: compressed 5-12 (the LEAN zips 5.5-6.3, the
 * sample .csv.gz 11.7), text lines 30-60. The estimate only decides whether workers start while
 * the ticks are read (the count read decides which take jobs), so it errs high: a worker started
 * late gets its first jobs only when this thread's first run ends (the pool's messages go through
 * this thread), and a cold run can take a second. At 6 bytes for the LEAN zips (2-9% low) a sweep
 * of 16 busy-reader runs over them started its worker late: 5.6-5.8 s on two threads, as slow as
 * one, against 4.6-4.8 with the worker started at once.
 */
const COMPRESSED_BYTES_PER_TICK = 5;
const TEXT_BYTES_PER_TICK = 30;

/** A file's estimated tick count, from its size (an unreadable file counts as empty). */
function fileTicks(file: string): number {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    return 0;
  }
  return size / (/\.(?:zip|gz)$/i.test(file) ? COMPRESSED_BYTES_PER_TICK : TEXT_BYTES_PER_TICK);
}

/** A rough tick count of the files, from their sizes (unreadable files count as empty). */
export function estimateTicks(files: readonly string[]): number {
  let ticks = 0;
  for (const file of files) ticks += fileTicks(file);
  return Math.round(ticks);
}

/**
 * The files' indices in the order threads should claim them to be read: the largest first (ties
 * in file order). Threads each take the next file as they finish one, so the reading ends when
 * the last one claimed is read: with the small files last, no thread is left reading a large file
 * while the others wait for it (in file order the largest of the 13 LEAN files is claimed seventh).
 */
export function largestFirst(files: readonly string[]): number[] {
  const ticks = files.map(fileTicks);
  return files.map((_, i) => i).sort((a, b) => (ticks[b] as number) - (ticks[a] as number) || a - b);
}

export interface SweepSizing {
  /** Runs in the sweep. */
  readonly runs: number;
  /** Ticks per run (estimated). */
  readonly ticks: number;
  /** The threads asked for (this one included); undefined = choose from the work. */
  readonly requested?: number | undefined;
  /** Cores of the machine (default os.availableParallelism()). */
  readonly cores?: number;
  /** Workers would start from the TypeScript sources (slower: SOURCE_TICK_RUNS_PER_THREAD). */
  readonly workersFromSources?: boolean;
}

/**
 * Threads for a sweep, this one included. Asked for: that many, at most one per run. Otherwise one
 * per TICK_RUNS_PER_THREAD of work, at most one per core (this thread and cores - 1 workers) and
 * one per run; 1 (no worker at all) for a small sweep.
 */
export function sweepThreads(sizing: SweepSizing): number {
  const runs = Math.max(1, sizing.runs);
  if (sizing.requested !== undefined) return Math.max(1, Math.min(sizing.requested, runs));
  const cores = Math.max(1, sizing.cores ?? availableParallelism());
  const perThread = sizing.workersFromSources === true ? SOURCE_TICK_RUNS_PER_THREAD : TICK_RUNS_PER_THREAD;
  const byWork = Math.floor((runs * Math.max(0, sizing.ticks)) / perThread);
  return Math.max(1, Math.min(cores, runs, byWork));
}

/** A sweep running on this thread alone, after one of its runs. */
export interface SweepProgress {
  /** Runs nobody has taken yet. */
  readonly runsLeft: number;
  /** How long a run takes (milliseconds; the sweep passes the fastest it has timed). */
  readonly msPerRun: number;
  readonly workersFromSources: boolean;
  /** Cores of the machine (default os.availableParallelism()). */
  readonly cores?: number;
}

/**
 * Workers worth starting in the middle of a sweep that began on this thread alone. The tick count
 * cannot see a strategy's own cost: sixteen runs of one that reads the account on every tick take
 * seven times as long as sixteen of the example strategy over the same ticks. Timed, the runs left
 * say it: each thread, the new ones included, must get at least two start-ups' worth of them
 * (WORKER_START_MS), at most one thread per core and per run left.
 */
export function workersToAdd(progress: SweepProgress): number {
  const cores = Math.max(1, progress.cores ?? availableParallelism());
  const start = WORKER_START_MS[progress.workersFromSources ? 'sources' : 'built'];
  const threads = Math.floor((progress.runsLeft * Math.max(0, progress.msPerRun)) / (2 * start));
  return Math.max(0, Math.min(cores - 1, progress.runsLeft - 1, threads - 1));
}

/** The most ticks a sweep reads into shared columns: a quarter of the memory, at most 2 GiB of columns. */
export function columnTicksMax(): number {
  return Math.floor(Math.min(totalmem() / 4, 2 ** 31) / COLUMN_BYTES_PER_TICK);
}
