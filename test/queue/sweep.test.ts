/**
 * Sweeps across machines: a real redis-server, `v20sim worker` processes and `v20sim backtest
 * --queue` sweeps, each compared byte for byte with the same sweep run locally.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TICKS_FILE } from '../../src/backtest/index.js';
import { runBacktestCommand } from '../../src/cli/backtest-command.js';
import { ENGINE_VERSION, QUEUE_NAME } from '../../src/queue/connection.js';
import { memoryStream, removeTempDirs, tempDir } from '../backtest/helpers.js';
import { ROOT, killAll, runCommand, type CommandProcess } from '../support/serve-process.js';
import { waitUntil } from '../support/manual-serve.js';
import { closedPort } from '../support/v20-proxy.js';
import { REDIS_SERVER, restartRedis, startRedis, stopRedis, waitForStderr, type RedisServer } from './support.js';

if (REDIS_SERVER === undefined) console.warn('test/queue: no redis-server (/usr/bin/redis-server or on PATH): the queue tests are skipped');

// Whether or not the Redis tests run (their own afterAll removes the folders too).
afterAll(removeTempDirs);

const MA = 'examples/strategies/ma-crossover.ts';
const FLIP = 'test/queue/fixtures/flip.ts';
/** Short locks, so a killed worker's cell runs again within seconds. */
const FAST_RECOVERY = ['--lock-duration', '1500', '--stalled-interval', '500'];

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The same sweep on threads here: its output folder. */
async function localSweep(args: readonly string[]): Promise<string> {
  const out = tempDir('v20sim-queue-local-');
  const stdout = memoryStream();
  const stderr = memoryStream();
  const code = await runBacktestCommand([...args, '--workers', '1', '--out', out], {
    stdout: stdout.stream,
    stderr: stderr.stream,
    isTTY: false,
  });
  expect(code, stderr.text()).toBe(0);
  return out;
}

function queuedSweep(args: readonly string[], url: string, out: string): CommandProcess {
  return runCommand(['backtest', ...args, '--queue', url, '--out', out]);
}

function expectSameFiles(a: string, b: string): void {
  for (const name of ['sweep.csv', 'sweep.json'])
    expect(readFileSync(path.join(b, name)).equals(readFileSync(path.join(a, name))), name).toBe(true);
}

async function startWorker(url: string, extra: readonly string[] = FAST_RECOVERY): Promise<CommandProcess> {
  // A worker killed mid-cell cannot remove its strategy folder: it makes it in a folder removed after the tests.
  const worker = runCommand(['worker', '--queue', url, ...extra], { env: { TMPDIR: tempDir('v20sim-queue-worker-tmp-') } });
  await worker.waitFor(/^worker: ready /);
  return worker;
}

describe('the queue stays unloaded', () => {
  it('is not loaded by help or a local sweep (BullMQ loads only for --queue and worker)', async () => {
    const dir = tempDir('v20sim-queue-hook-');
    // A module resolve hook that names every import of bullmq or ioredis on stderr.
    writeFileSync(
      path.join(dir, 'hook.mjs'),
      'export async function resolve(s, c, n) { if (/bullmq|ioredis/.test(s)) process.stderr.write(`LOADED ${s}\\n`); return n(s, c); }\n',
    );
    writeFileSync(
      path.join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hook.mjs')).href)});\n`,
    );
    for (const args of [
      ['--help'],
      ['worker', '--help'],
      ['backtest', '--strategy', MA, '--param', 'fast=5,10', '--workers', '1', '--out', dir],
    ]) {
      const p = spawnSync(process.execPath, ['--import', path.join(dir, 'register.mjs'), '--import', 'tsx', 'src/cli/main.ts', ...args], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(p.status, p.stderr).toBe(0);
      expect(p.stderr).not.toContain('LOADED');
    }
  }, 60_000);
});

describe('a worker whose Redis does not answer', () => {
  it('says it waits for it, and stops on the first signal, leaving no scratch folder', async () => {
    const port = await closedPort();
    const tmp = tempDir('v20sim-queue-waiting-tmp-');
    const worker = runCommand(['worker', '--queue', `redis://127.0.0.1:${port}/0`], { env: { TMPDIR: tmp } });
    const line = await worker.waitFor(/^worker: Redis at /);
    expect(line).toMatch(/ECONNREFUSED .* \(trying again every 2 s until it answers; Ctrl-C stops\)$/);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    expect(worker.stderr.join('')).toContain('v20sim worker: stopped before Redis answered');
    expect(readdirSync(tmp).filter((name) => name.startsWith('v20sim-worker-'))).toEqual([]);
  }, 30_000);
});

describe('a sweep whose Redis does not answer', () => {
  const sweepOn = (url: string, extra: readonly string[] = []): CommandProcess =>
    runCommand(['backtest', '--strategy', MA, '--param', 'fast=5,10', '--queue', url, ...extra, '--out', tempDir()]);

  it('stops at once, with the reason, when nothing listens there (not after the 60 s meant for a Redis gone mid-sweep)', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}/0`;
    // No --queue-timeout: waiting out the default 60 s would outlast this test.
    const sweep = sweepOn(url);
    expect((await sweep.exited).code).toBe(1);
    expect(sweep.stderr.join('')).toMatch(
      new RegExp(`cannot reach Redis at ${url}: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+; nothing was queued`),
    );
  }, 20_000);

  it('gives up after --queue-timeout when it accepts the connection but never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const url = `redis://127.0.0.1:${port}/0`;
      const sweep = sweepOn(url, ['--queue-timeout', '2']);
      expect((await sweep.exited).code).toBe(1);
      expect(sweep.stderr.join('')).toContain(`Redis at ${url} did not answer for 2 s; the sweep gave up`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);
});

describe.skipIf(REDIS_SERVER === undefined)('sweeps across machines on Redis', () => {
  let redis: RedisServer | undefined;
  let url = '';
  const workers: CommandProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    url = `redis://127.0.0.1:${redis.port}/0`;
    workers.push(...(await Promise.all([startWorker(url), startWorker(url)])));
  }, 120_000);

  afterAll(() => {
    killAll();
    stopRedis(redis);
    removeTempDirs();
  });

  it('writes the files a local sweep writes, byte for byte', async () => {
    const args = ['--strategy', MA, '--param', 'fast=5,10', '--param', 'slow=50,100'];
    const out = tempDir('v20sim-queue-');
    const sweep = queuedSweep(args, url, out);
    expect((await sweep.exited).code, sweep.stderr.join('')).toBe(0);
    expect(sweep.stderr.join('')).toMatch(/4 runs queued as sweep [0-9a-f-]+/);
    expectSameFiles(await localSweep(args), out);
  }, 120_000);

  it("gives the workers the sweep's tick window (--from, --to)", async () => {
    const args = ['--strategy', MA, '--param', 'fast=5,10', '--from', '2024-01-03', '--to', '2024-01-04T12:00:00Z'];
    const out = tempDir('v20sim-queue-');
    const sweep = queuedSweep(args, url, out);
    expect((await sweep.exited).code, sweep.stderr.join('')).toBe(0);
    const local = await localSweep(args);
    expectSameFiles(local, out);
    // Not the whole files' sweep: the window reached the runs.
    expect(readFileSync(path.join(out, 'sweep.json'), 'utf8')).not.toBe(
      readFileSync(path.join(await localSweep(args.slice(0, 4)), 'sweep.json'), 'utf8'),
    );
  }, 120_000);

  it('runs the cell of a worker killed mid-cell again elsewhere, with the same results', async () => {
    const args = ['--strategy', FLIP, '--param', 'every=300,400,500', '--param', 'pauseAt=400', '--param', 'pauseMs=2500'];
    const out = tempDir('v20sim-queue-');
    // What each worker had printed before this sweep: the workers ran the other tests' sweeps too.
    const printed = new Map(workers.map((w) => [w, w.stdout.length]));
    const sweep = queuedSweep(args, url, out);
    // The worker that took the paused cell (every=400, run 1) is killed while it runs.
    const started = /^worker: run 1 of sweep \S+ \(every=400 /;
    const since = (w: CommandProcess): string[] => w.stdout.slice(printed.get(w) ?? 0);
    const onPausedCell = (w: CommandProcess): boolean => since(w).some((l) => started.test(l));
    await waitUntil(() => workers.some(onPausedCell), 'a worker on the paused cell', 90_000);
    const holder = workers.find(onPausedCell) as CommandProcess;
    holder.child.kill('SIGKILL');
    workers.splice(workers.indexOf(holder), 1);
    expect((await sweep.exited).code, sweep.stderr.join('')).toBe(0);
    const survivor = workers[0] as CommandProcess;
    expect(since(survivor).filter((l) => started.test(l))).toHaveLength(1);
    expectSameFiles(await localSweep(args), out);
    workers.push(await startWorker(url));
  }, 180_000);

  it('fails the cells of a failing strategy, names them and exits 1', async () => {
    const out = tempDir('v20sim-queue-');
    const sweep = queuedSweep(['--strategy', FLIP, '--param', 'every=300,400,500', '--param', 'failAt=400'], url, out);
    expect((await sweep.exited).code).toBe(1);
    const stderr = sweep.stderr.join('');
    expect(stderr).toContain('1 of 3 sweep runs failed');
    expect(stderr).toMatch(/run 1 \(every=400 .*failAt=400\): .*flip refuses every=400/);
  }, 120_000);

  it('keeps two sweeps on one queue apart', async () => {
    const a = ['--strategy', MA, '--param', 'fast=5,10,20', '--param', 'slow=50'];
    const b = ['--strategy', FLIP, '--param', 'every=300,400,500,600'];
    const outA = tempDir('v20sim-queue-');
    const outB = tempDir('v20sim-queue-');
    const sweeps = [queuedSweep(a, url, outA), queuedSweep(b, url, outB)];
    for (const sweep of sweeps) expect((await sweep.exited).code, sweep.stderr.join('')).toBe(0);
    expectSameFiles(await localSweep(a), outA);
    expectSameFiles(await localSweep(b), outB);
  }, 120_000);

  it('fails a cell whose tick file differs from the one the sweep read, naming the file and both digests', async () => {
    const dir = tempDir('v20sim-queue-ticks-');
    const ticks = path.join(dir, 'ticks.csv.gz');
    copyFileSync(SAMPLE_TICKS_FILE, ticks);
    const expected = sha256(ticks);
    // Database 1 has no worker yet: the file changes between the sweep's digest and the run.
    const url1 = url.replace(/\/0$/, '/1');
    const sweep = queuedSweep(['--strategy', MA, '--ticks', ticks, '--param', 'fast=5,10'], url1, tempDir('v20sim-queue-'));
    await waitForStderr(sweep, /runs queued as sweep/);
    writeFileSync(ticks, Buffer.concat([readFileSync(ticks), Buffer.from('\n')]));
    const found = sha256(ticks);
    const worker = await startWorker(url1);
    expect((await sweep.exited).code).toBe(1);
    const stderr = sweep.stderr.join('');
    expect(stderr).toContain('2 of 2 sweep runs failed');
    expect(stderr).toContain(`tick file ${ticks} differs from the sweep's: expected sha256 ${expected}, found ${found}`);
    // SIGTERM: the worker stops taking cells and exits 0.
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('takes the runs of a sweep cancelled with Ctrl-C off the queue and exits 130', async () => {
    // Database 2 has no worker: every run is still waiting when the sweep is cancelled.
    const url2 = url.replace(/\/0$/, '/2');
    const sweep = queuedSweep(['--strategy', MA, '--param', 'fast=5,10,20'], url2, tempDir('v20sim-queue-'));
    await waitForStderr(sweep, /3 runs queued as sweep/);
    const queue = new Queue(QUEUE_NAME, { connection: { url: url2, maxRetriesPerRequest: null } });
    try {
      expect((await queue.getJobCounts('waiting')).waiting).toBe(3);
      sweep.child.kill('SIGINT');
      expect((await sweep.exited).code).toBe(130);
      expect(sweep.stderr.join('')).toContain('sweep cancelled; its runs not yet started were taken off the queue');
      expect(await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed')).toEqual({
        waiting: 0,
        active: 0,
        completed: 0,
        failed: 0,
        delayed: 0,
      });
    } finally {
      await queue.close();
    }
  }, 120_000);

  it('refuses a cell of another engine version instead of computing it', async () => {
    const queue = new Queue(QUEUE_NAME, { connection: { url, maxRetriesPerRequest: null } });
    try {
      await queue.add('cell', { sweepId: 'other-version', index: 0, params: {}, engine: 'v20sim 0.0.0' }, { jobId: 'other-version-0' });
      for (;;) {
        const job = await queue.getJob('other-version-0');
        if (job?.finishedOn !== undefined) {
          expect(job.failedReason).toBe(`this worker runs ${ENGINE_VERSION}, the sweep v20sim 0.0.0: run workers of the sweep's version`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await queue.close();
    }
  }, 60_000);

  it('goes on after Redis restarts with its data, with the same results; says so when Redis restarted empty', async () => {
    const args = ['--strategy', FLIP, '--param', 'every=300,400,500', '--param', 'pauseAt=300', '--param', 'pauseMs=2000'];
    const local = await localSweep(args);
    for (const persist of [true, false]) {
      const own = await startRedis(persist);
      try {
        const ownUrl = `redis://127.0.0.1:${own.port}/0`;
        const worker = await startWorker(ownUrl);
        const out = tempDir('v20sim-queue-');
        const sweep = queuedSweep(args, ownUrl, out);
        // Redis goes away while the worker runs the paused first cell.
        await worker.waitFor(/^worker: run 0 of sweep \S+ \(every=300 /, 90_000);
        await restartRedis(own);
        const { code } = await sweep.exited;
        if (persist) {
          expect(code, sweep.stderr.join('')).toBe(0);
          expectSameFiles(local, out);
        } else {
          expect(code).toBe(1);
          expect(sweep.stderr.join('')).toMatch(/lost run \d of this sweep \(Redis restarted without persistence\?\); run the sweep again/);
        }
        worker.child.kill('SIGTERM');
        await worker.exited;
      } finally {
        stopRedis(own);
      }
    }
  }, 180_000);
});
