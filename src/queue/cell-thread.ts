/**
 * A cell run in a worker thread of `v20sim worker` (src/workers/pool.ts). A run is synchronous and
 * may take minutes; on its own thread it leaves the worker's event loop free to renew the job's
 * lock in Redis, so BullMQ does not take a long run for a stalled one.
 */
import { statSync } from 'node:fs';
import { fileSha256, loadStrategy, runSweepJob, type StrategyDefinition } from '../backtest/index.js';
import { encodeMetrics, type CellData } from './cell.js';

export interface CellTask {
  readonly cell: CellData;
  /** The strategy source as a file on this machine (written by the worker from Redis). */
  readonly strategyFile: string;
}

/** Strategies by file (a file is named by its content hash, so it never changes). */
const strategies = new Map<string, Promise<StrategyDefinition>>();
/** Tick digests by path, size and modification time: a file is hashed once per thread unless it changes. */
const digests = new Map<string, string>();

function digestOf(file: string): string {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    throw new Error(`tick file ${file} not found on this worker (every worker must see the tick files at the sweep's paths)`);
  }
  const key = `${file}\0${stat.size}\0${stat.mtimeMs}`;
  let digest = digests.get(key);
  if (digest === undefined) {
    digest = fileSha256(file);
    digests.set(key, digest);
  }
  return digest;
}

/** Checks every tick file against the digest the sweep computed, before anything runs. */
export function verifyTicks(cell: CellData): void {
  for (const tick of cell.ticks) {
    const found = digestOf(tick.path);
    if (found !== tick.sha256)
      throw new Error(
        `tick file ${tick.path} differs from the sweep's: expected sha256 ${tick.sha256}, found ${found} (every worker must read the same data)`,
      );
  }
}

/** Runs the cell and answers with its metrics, encoded (see encodeMetrics). */
export async function runCellTask(task: CellTask): Promise<string> {
  const { cell } = task;
  verifyTicks(cell);
  let definition = strategies.get(task.strategyFile);
  if (definition === undefined) {
    definition = loadStrategy(task.strategyFile);
    strategies.set(task.strategyFile, definition);
  }
  const row = runSweepJob(
    {
      strategyFile: task.strategyFile,
      tickFiles: cell.ticks.map((t) => t.path),
      ...(cell.format === undefined ? {} : { format: cell.format }),
      ...(cell.instrument === undefined ? {} : { instrument: cell.instrument }),
      ...(cell.from === undefined ? {} : { from: cell.from }),
      ...(cell.to === undefined ? {} : { to: cell.to }),
      account: cell.account,
      equityIntervalMicros: cell.equityIntervalMicros,
    },
    await definition,
    { index: cell.index, params: cell.params },
  );
  return encodeMetrics(row.metrics);
}
