/**
 * A sweep run by `v20sim worker`s on other machines: the cells go on a BullMQ queue in Redis (one
 * job per cell, its ID the sweep's ID and the cell's position), and the rows come back in grid
 * order, as runSweep answers them. Retries of a cell whose worker died are BullMQ's (stalled-job
 * recovery in the workers); this side only enqueues, waits and collects its own jobs.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { fileSha256, type SweepJob, type SweepOptions, type SweepRow, type SweepRunner, type SweepSpec } from '../backtest/index.js';
import { BACKTEST_SEED, cellJobId, decodeMetrics, paramText, type CellData } from './cell.js';
import { ENGINE_VERSION, QUEUE_NAME, SOURCE_TTL_SECONDS, connectionOptions, displayUrl, redisClient, strategyKey } from './connection.js';

export interface QueueSweepOptions {
  /** redis://HOST:PORT/DB (checkQueueUrl). */
  readonly url: string;
  /** How long Redis may stay unreachable before the sweep gives up (default 60 s). */
  readonly unreachableMs?: number;
  /** How often every unfinished cell is looked up, besides the queue's events (default 2 s). */
  readonly pollMs?: number;
  /** Told once the cells are on the queue. */
  readonly onQueued?: (sweepId: string, cells: number) => void;
  /**
   * Cancels the sweep (Ctrl-C): it stops waiting, and its cells that no worker has started leave
   * the queue, so the workers do not spend hours on a sweep nobody collects.
   */
  readonly signal?: AbortSignal;
}

const DEFAULT_UNREACHABLE_MS = 60_000;
const DEFAULT_POLL_MS = 2_000;
const CANCELLED = 'sweep cancelled; its runs not yet started were taken off the queue';
/** Finished jobs of a sweep that died before collecting them leave Redis after a day (BullMQ's removeOnComplete/removeOnFail). */
const KEEP_FINISHED = { age: 24 * 3600 };

interface Failure {
  readonly job: SweepJob;
  readonly reason: string;
}

/** The cells of a sweep as job data, the strategy's source and its key. */
function cellsOf(spec: SweepSpec, jobs: readonly SweepJob[], sweepId: string): { source: Buffer; sha256: string; cells: CellData[] } {
  const source = readFileSync(spec.strategyFile);
  const sha256 = createHash('sha256').update(source).digest('hex');
  const ticks = spec.tickFiles.map((file) => ({ path: path.resolve(file), sha256: fileSha256(file) }));
  const cells = jobs.map((job): CellData => ({
    sweepId,
    index: job.index,
    params: job.params,
    strategy: { sha256, extension: path.extname(spec.strategyFile) },
    ticks,
    ...(spec.format === undefined ? {} : { format: spec.format }),
    ...(spec.instrument === undefined ? {} : { instrument: spec.instrument }),
    ...(spec.from === undefined ? {} : { from: spec.from }),
    ...(spec.to === undefined ? {} : { to: spec.to }),
    account: spec.account,
    equityIntervalMicros: spec.equityIntervalMicros,
    seed: BACKTEST_SEED,
    engine: ENGINE_VERSION,
  }));
  return { source, sha256, cells };
}

function failedMessage(failures: readonly Failure[], total: number): string {
  const sorted = [...failures].sort((a, b) => a.job.index - b.job.index);
  const lines = sorted.map((f) => `  run ${f.job.index} (${paramText(f.job.params)}): ${f.reason}`);
  return `${failures.length} of ${total} sweep runs failed:\n${lines.join('\n')}`;
}

/** A promise with its resolve and reject, for the waits below. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A SweepRunner that runs the cells on the queue at `options.url`. */
export function queueSweepRunner(options: QueueSweepOptions): SweepRunner {
  return (spec, jobs, sweepOptions) => runOnQueue(options, spec, jobs, sweepOptions);
}

async function runOnQueue(
  options: QueueSweepOptions,
  spec: SweepSpec,
  jobs: readonly SweepJob[],
  sweepOptions: SweepOptions,
): Promise<SweepRow[]> {
  const where = displayUrl(options.url);
  const unreachableMs = options.unreachableMs ?? DEFAULT_UNREACHABLE_MS;
  await reachable(options.url, unreachableMs);
  const sweepId = randomUUID();
  const { source, sha256, cells } = cellsOf(spec, jobs, sweepId);
  let closing = false;
  const connection = connectionOptions(options.url, () => closing);
  const redis = redisClient(options.url);
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  // Errors surface through the commands that fail and the bounded wait below, not as events.
  redis.on('error', () => undefined);
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  const ids = cells.map((cell) => cellJobId(sweepId, cell.index));
  const unreachable = (): Error => {
    // Nothing more to say to this Redis: stop reconnecting, so the sweep can close and exit.
    closing = true;
    return new RedisSilent(where, unreachableMs);
  };
  try {
    await withDeadline(
      (async () => {
        const ready = Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
        // Once the sweep gives up, the connections stop retrying and this rejects: nobody waits any more.
        ready.catch(() => undefined);
        await ready;
        await redis.set(strategyKey(sha256), source, 'EX', SOURCE_TTL_SECONDS);
        await queue.addBulk(
          cells.map((cell, i) => ({
            name: 'cell',
            data: cell,
            opts: { jobId: ids[i] as string, removeOnComplete: KEEP_FINISHED, removeOnFail: KEEP_FINISHED },
          })),
        );
      })(),
      unreachableMs,
      unreachable,
    );
    options.onQueued?.(sweepId, cells.length);
    if (options.signal?.aborted === true) throw new Error(CANCELLED);
    return await collect(queue, events, jobs, ids, sweepOptions, { ...options, unreachableMs, unreachable });
  } finally {
    // Whatever did not run (a failed or abandoned sweep) leaves the queue; a cell still active
    // cannot be removed and leaves with the day-old ones. Bounded: Redis may be the reason we stop.
    if (!closing) await settleWithin(Promise.allSettled(ids.map((id) => queue.remove(id))), 3000);
    closing = true;
    await settleWithin(Promise.allSettled([queue.close(), events.close()]), 3000);
    redis.disconnect();
  }
}

/** Redis gave no answer for as long as the sweep waits for one, at the start or later. */
class RedisSilent extends Error {
  constructor(where: string, ms: number) {
    super(`Redis at ${where} did not answer for ${Math.round(ms / 1000)} s; the sweep gave up`);
  }
}

/**
 * Connects once, without retrying, before anything is queued: a Redis that refuses the connection
 * or a host that does not resolve fails the sweep at once with the reason, rather than after the
 * wait meant for a Redis that goes away in the middle of a sweep. One that accepts but does not
 * answer is given `ms`, as later.
 */
async function reachable(url: string, ms: number): Promise<void> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: ms });
  // The socket's own error (ECONNREFUSED, ENOTFOUND, WRONGPASS); connect() itself only says the connection closed.
  let cause: Error | undefined;
  probe.on('error', (error: Error) => (cause ??= error));
  const where = displayUrl(url);
  try {
    await withDeadline(
      (async () => {
        await probe.connect();
        await probe.ping();
      })(),
      ms,
      () => new RedisSilent(where, ms),
    );
  } catch (error) {
    if (error instanceof RedisSilent) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot reach Redis at ${where}: ${cause?.message ?? message}; nothing was queued`);
  } finally {
    // A connection that failed has ended already; disconnecting it again would hold the process
    // for ioredis's 2 s disconnect timer on a socket that never closes again.
    if (probe.status !== 'end') probe.disconnect();
  }
}

/** Waits for `work`, but no longer than `ms`. */
function settleWithin(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

function withDeadline<T>(work: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(error()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Waits for every cell of the sweep: on its queue events, and by looking each unfinished one up every pollMs. */
async function collect(
  queue: Queue,
  events: QueueEvents,
  jobs: readonly SweepJob[],
  ids: readonly string[],
  sweepOptions: SweepOptions,
  options: QueueSweepOptions & { unreachableMs: number; unreachable: () => Error },
): Promise<SweepRow[]> {
  const total = jobs.length;
  const rows = new Array<SweepRow>(total);
  const pending = new Map(ids.map((id, i) => [id, i]));
  const failures: Failure[] = [];
  const done = deferred();
  let lastAnswer = performance.now();
  const settle = (): void => {
    if (pending.size > 0) return;
    if (failures.length > 0) done.reject(new Error(failedMessage(failures, total)));
    else done.resolve();
  };
  const look = async (id: string): Promise<void> => {
    const at = pending.get(id);
    if (at === undefined) return;
    const job = jobs[at] as SweepJob;
    const state = await queue.getJobState(id);
    lastAnswer = performance.now();
    if (state === 'unknown') {
      done.reject(lost(options.url, job));
      return;
    }
    if (state !== 'completed' && state !== 'failed') return;
    const found = await queue.getJob(id);
    if (found === undefined || !pending.has(id)) return;
    pending.delete(id);
    if (state === 'failed') failures.push({ job, reason: found.failedReason ?? 'failed' });
    else {
      rows[at] = { index: job.index, params: job.params, metrics: decodeMetrics(found.returnvalue as string) };
      sweepOptions.onResult?.(rows[at], total - pending.size, total);
    }
    settle();
  };
  const lookAll = async (): Promise<void> => {
    for (const id of [...pending.keys()]) await look(id);
  };
  // An event only says a cell finished (or may have); the look-up reads what it answered.
  const onEvent = ({ jobId }: { jobId: string }): void => void (pending.has(jobId) && look(jobId).catch(() => undefined));
  events.on('completed', onEvent).on('failed', onEvent);
  const stopPolling = every(options.pollMs ?? DEFAULT_POLL_MS, lookAll);
  options.signal?.addEventListener('abort', () => done.reject(new Error(CANCELLED)), { once: true });
  // A look-up waits for as long as Redis is away; this gives up on it after unreachableMs.
  const watchdog = setInterval(() => {
    if (performance.now() - lastAnswer > options.unreachableMs) done.reject(options.unreachable());
  }, 250);
  try {
    await lookAll();
    settle();
    await done.promise;
    return rows;
  } finally {
    stopPolling();
    clearInterval(watchdog);
  }
}

function lost(url: string, job: SweepJob): Error {
  return new Error(
    `the queue at ${displayUrl(url)} lost run ${job.index} of this sweep (Redis restarted without persistence?); run the sweep again`,
  );
}

/** Runs `fn` every `ms`, never two at once; returns the stop. */
function every(ms: number, fn: () => Promise<void>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    fn()
      .catch(() => undefined)
      .finally(() => (running = false));
  }, ms);
  return () => clearInterval(timer);
}
