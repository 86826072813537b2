/**
 * How many threads a scenario run takes, from a rough cost of its files. A scenario file is small
 * work (a fresh simulator bound to this thread's kept HTTP app, a few dozen requests: a few
 * milliseconds once the thread is warm), while a worker thread costs its start-up, then runs its
 * first files slowly (nothing compiled yet) and competes with this thread for the cores and the
 * memory bus. Workers pay only for a long run, so hundreds of files run on this thread alone.
 * Sizing never changes results: each file runs alone in a fresh simulator.
 */
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { SOURCES_START_FACTOR } from '../workers/start-cost.js';

/**
 * The estimated cost of one file on a warm thread, its price files aside (milliseconds): the
 * bundled files copied 4 to 32 times took 4.6-6.7 ms more per file on one thread (bench/RESULTS.md).
 */
const FILE_MS = 6;
/** Feeding recorded ticks through a scenario's simulator, per tick (milliseconds). */
const TICK_MS = 0.002;
/**
 * Work (estimated milliseconds) a thread must get before another is worth starting. A worker runs
 * its first files slowly, and so does this thread beside it: with both threads busy, V8's
 * optimizing compiler (a background thread) waits for a core, so neither thread's code gets fast
 * for the first few seconds. From the bundled CLI on two cores, the bundled files copied 4, 8, 16
 * and 32 times: 196 files ran 0.84-0.99x as fast on two threads as on one, 392 files 0.96-1.05x,
 * 784 files 0.92-1.14x, 1,568 files 1.06-1.34x. Two threads from about 1,000 files.
 */
export const SCENARIO_MS_PER_THREAD = 3000;
/**
 * The same for workers that start from the TypeScript sources (no current dist/), in proportion to
 * what they cost to start (workers/start-cost.ts), as a sweep asks.
 */
export const SOURCE_SCENARIO_MS_PER_THREAD = SCENARIO_MS_PER_THREAD * SOURCES_START_FACTOR;
/** Bytes per tick of a price file: compressed 6-12, text lines 30-60. */
const COMPRESSED_BYTES_PER_TICK = 8;
const TEXT_BYTES_PER_TICK = 40;
const PRICE_FILE_RE = /^[\s-]*file:\s*['"]?([^'"#\n]+?)['"]?\s*(?:#.*)?$/gm;

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * A scenario file's estimated cost in milliseconds, read from its text without loading it: the
 * files named by `file:` lines (price files) count by their size.
 */
export function scenarioCostMs(file: string, cwd: string): number {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch {
    return FILE_MS;
  }
  let ticks = 0;
  for (const match of text.matchAll(PRICE_FILE_RE)) {
    const name = (match[1] as string).trim();
    const size = sizeOf(resolve(cwd, dirname(file), name));
    ticks += size / (/\.(?:zip|gz)$/i.test(name) ? COMPRESSED_BYTES_PER_TICK : TEXT_BYTES_PER_TICK);
  }
  return FILE_MS + ticks * TICK_MS;
}

export interface ScenarioSizing {
  readonly files: readonly string[];
  readonly cwd: string;
  /** The threads asked for (this one included); undefined = choose from the work. */
  readonly requested?: number | undefined;
  /** Cores of the machine (default os.availableParallelism()). */
  readonly cores?: number;
  /** Workers would start from the TypeScript sources (slower: SOURCE_SCENARIO_MS_PER_THREAD). */
  readonly workersFromSources?: boolean;
}

/**
 * Threads for a scenario run, this one included. Asked for: that many, at most one per file.
 * Otherwise one per SCENARIO_MS_PER_THREAD (SOURCE_SCENARIO_MS_PER_THREAD for workers from the
 * sources) of estimated work, at most one per core (this thread and cores - 1 workers) and one per
 * file; 1 (no worker) for a handful of small files.
 */
export function scenarioThreads(sizing: ScenarioSizing): number {
  const files = Math.max(1, sizing.files.length);
  if (sizing.requested !== undefined) return Math.max(1, Math.min(sizing.requested, files));
  const cores = Math.max(1, sizing.cores ?? availableParallelism());
  let work = 0;
  for (const file of sizing.files) work += scenarioCostMs(file, sizing.cwd);
  const perThread = sizing.workersFromSources === true ? SOURCE_SCENARIO_MS_PER_THREAD : SCENARIO_MS_PER_THREAD;
  return Math.max(1, Math.min(cores, files, Math.floor(work / perThread)));
}
