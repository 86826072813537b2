/**
 * `v20sim worker`: takes cells of sweeps from the queue and runs them, `concurrency` at a time,
 * each on a thread of its own (cell-thread.ts). The strategy comes from Redis by the digest the
 * cell names; the tick files from the paths the cell names, checked against their digests. A
 * worker that dies mid-cell holds the cell's lock no more; BullMQ's stalled-job check in the other
 * workers puts the cell back on the queue, and it runs again elsewhere with the same result.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { siblingModule } from '../workers/built-module.js';
import { modulePool } from '../workers/pool.js';
import { paramText, type CellData } from './cell.js';
import type { CellTask } from './cell-thread.js';
import { ENGINE_VERSION, QUEUE_NAME, connectionOptions, displayUrl, redisClient, strategyKey } from './connection.js';

export interface QueueWorkerOptions {
  readonly url: string;
  /** Cells run at once (threads). */
  readonly concurrency: number;
  /** How long a cell's lock lasts without renewal; a dead worker's cell is retried after about this long (ms). */
  readonly lockDurationMs?: number;
  /** How often this worker looks for cells whose worker died (ms). */
  readonly stalledIntervalMs?: number;
  /** A line of the worker's log (stdout). */
  readonly log: (line: string) => void;
  /** Aborted: stop, even while still waiting for Redis (startQueueWorker then resolves to undefined). */
  readonly stop?: AbortSignal;
}

/** BullMQ's defaults: a lock of 30 s renewed every 15 s, checked every 30 s. */
export const DEFAULT_LOCK_DURATION_MS = 30_000;
export const DEFAULT_STALLED_INTERVAL_MS = 30_000;
/** A cell whose worker died is run again this many times before it fails (a cell that kills every worker must end). */
const MAX_STALLED = 2;

export interface QueueWorker {
  /** Stops taking cells, lets the running ones finish, and closes. */
  close(): Promise<void>;
}

/**
 * The strategy of a cell as a file here, named by its digest (fetched from Redis once per worker),
 * in a folder made when the first one is needed: a worker that never ran a cell leaves none.
 */
function strategyFiles(redis: Redis, dir: () => string, where: string): (cell: CellData) => Promise<string> {
  const sources = new Map<string, Promise<string>>();
  return (cell) => {
    const { sha256, extension } = cell.strategy;
    let file = sources.get(sha256);
    if (file === undefined) {
      file = redis.getBuffer(strategyKey(sha256)).then((source) => {
        if (source === null)
          throw new UnrecoverableError(`the strategy source ${sha256} is not in Redis at ${where} (expired, or Redis lost it)`);
        const target = path.join(dir(), `${sha256}${/^\.[A-Za-z]+$/.test(extension) ? extension : '.js'}`);
        writeFileSync(target, source);
        return target;
      });
      file.catch(() => sources.delete(sha256));
      sources.set(sha256, file);
    }
    return file;
  };
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker | undefined> {
  const where = displayUrl(options.url);
  const redis = redisClient(options.url);
  redis.on('error', () => undefined);
  let made: string | undefined;
  const dir = (): string => (made ??= mkdtempSync(path.join(tmpdir(), 'v20sim-worker-')));
  const pool = modulePool<CellTask, string>(siblingModule('cell-thread', import.meta.url), 'runCellTask', options.concurrency);

  const strategyFile = strategyFiles(redis, dir, where);

  const processor = async (job: Job): Promise<string> => {
    const cell = job.data as CellData;
    if (cell.engine !== ENGINE_VERSION)
      throw new UnrecoverableError(`this worker runs ${ENGINE_VERSION}, the sweep ${cell.engine}: run workers of the sweep's version`);
    options.log(`worker: run ${cell.index} of sweep ${cell.sweepId} (${paramText(cell.params)})`);
    const metrics = await pool.run({ cell, strategyFile: await strategyFile(cell) });
    options.log(`worker: run ${cell.index} of sweep ${cell.sweepId} done`);
    return metrics;
  };

  let closing = false;
  const worker = new Worker(QUEUE_NAME, processor, {
    // Closing stops the reconnects, so a worker that never reached Redis can close.
    connection: connectionOptions(options.url, () => closing),
    concurrency: options.concurrency,
    lockDuration: options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS,
    stalledInterval: options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
    maxStalledCount: MAX_STALLED,
  });
  // While Redis is away every reconnect fails alike: say so once, not every 2 s.
  let lastError = '';
  worker.on('error', (error) => {
    if (error.message !== lastError)
      options.log(`worker: Redis at ${where}: ${error.message} (trying again every 2 s until it answers; Ctrl-C stops)`);
    lastError = error.message;
  });
  worker.on('ready', () => (lastError = ''));
  worker.on('failed', (job, error) => {
    const cell = job?.data as CellData | undefined;
    options.log(`worker: run ${cell?.index ?? '?'} of sweep ${cell?.sweepId ?? '?'} failed: ${error.message}`);
  });
  const close = async (force: boolean): Promise<void> => {
    closing = true;
    await worker.close(force);
    await pool.destroy();
    redis.disconnect();
    if (made !== undefined) rmSync(made, { recursive: true, force: true });
  };
  const ready = worker.waitUntilReady().then(() => 'ready' as const);
  const stopped = new Promise<'stopped'>((resolve) => {
    if (options.stop?.aborted === true) resolve('stopped');
    options.stop?.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  // A signal while Redis is still away stops the wait; nothing runs yet, so nothing is waited for.
  if ((await Promise.race([ready, stopped])) === 'stopped') {
    ready.catch(() => undefined);
    await close(true);
    return undefined;
  }
  options.log(`worker: ready (${ENGINE_VERSION}), ${options.concurrency} at a time, queue ${QUEUE_NAME} at ${where}`);
  return { close: () => close(false) };
}
