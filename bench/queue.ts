/**
 * Sweeps across machines, on one machine: the throughput of a queued sweep (`v20sim backtest
 * --queue`) with 1 and with 2 `v20sim worker` processes, over the 532,903 recorded OANDA EUR/USD
 * ticks in ../shared/data/ticks/lean-oanda-eurusd (skipped when absent). Starts its own
 * redis-server on a loopback port; each worker takes one cell at a time. Prints cells per second
 * from the moment the cells are queued to the sweep's exit, with the load average; asserts only
 * that both runs wrote the same sweep.csv.
 *
 *   npm run bench:queue [-- CELLS]      (default 8 cells: fast=5,10,20,40 x slow=50,100)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LEAN_DIR = path.resolve(ROOT, '../shared/data/ticks/lean-oanda-eurusd');
const REDIS = ['/usr/bin/redis-server', ...(process.env['PATH'] ?? '').split(path.delimiter).map((d) => path.join(d, 'redis-server'))].find(
  (f) => f !== '' && existsSync(f),
);
const FAST = [5, 10, 20, 40, 80, 160];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Spawns a process and resolves once a line of its output matches `re`. */
function startUntil(command: string, args: string[], re: RegExp, cwd = ROOT): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (re.test(text)) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${command} exited (${code}) before ${re}: ${text}`)));
  });
}

function cli(args: string[]): string[] {
  return ['--import', 'tsx', 'src/cli/main.ts', ...args];
}

/** One queued sweep with `workers` worker processes: seconds from queued to done. */
async function sweepWith(workers: number, url: string, ticks: string[], cells: number, out: string): Promise<number> {
  const procs = await Promise.all(
    Array.from({ length: workers }, () => startUntil(process.execPath, cli(['worker', '--queue', url]), /worker: ready/)),
  );
  const fast = FAST.slice(0, Math.max(1, Math.ceil(cells / 2)));
  const args = [
    'backtest',
    '--strategy',
    'examples/strategies/ma-crossover.ts',
    '--ticks',
    ...ticks,
    '--format',
    'lean',
    '--instrument',
    'EUR_USD',
  ];
  const sweep = spawn(
    process.execPath,
    cli([...args, '--param', `fast=${fast.join(',')}`, '--param', 'slow=50,100', '--queue', url, '--out', out]),
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let queuedAt = 0;
  let stderr = '';
  sweep.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (queuedAt === 0 && stderr.includes('runs queued')) queuedAt = performance.now();
  });
  const code = await new Promise<number | null>((resolve) => sweep.on('exit', resolve));
  const seconds = (performance.now() - queuedAt) / 1000;
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => new Promise((resolve) => (p.exitCode === null ? p.on('exit', resolve) : resolve(null)))));
  if (code !== 0) throw new Error(`the sweep failed (${code}): ${stderr}`);
  return seconds;
}

async function main(): Promise<void> {
  if (!existsSync(LEAN_DIR)) return void console.log(`skipped: no tick data at ${LEAN_DIR}`);
  if (REDIS === undefined) return void console.log('skipped: no redis-server (/usr/bin/redis-server or on PATH)');
  const cells = 2 * Math.ceil(Number(process.argv[2] ?? 8) / 2);
  const ticks = readdirSync(LEAN_DIR)
    .filter((f) => f.endsWith('_quote.zip'))
    .sort()
    .map((f) => path.join(LEAN_DIR, f));
  const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-bench-queue-'));
  const port = await freePort();
  const redis = await startUntil(
    REDIS,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    /Ready to accept/,
    dir,
  );
  const url = `redis://127.0.0.1:${port}/0`;
  try {
    console.log(`queued sweep: ma-crossover, ${cells} cells over ${ticks.length} lean files (532,903 ticks)`);
    const results: [number, number][] = [];
    for (const workers of [1, 2]) {
      const seconds = await sweepWith(workers, url, ticks, cells, path.join(dir, `out-${workers}`));
      results.push([workers, seconds]);
      console.log(
        `  ${workers} worker process${workers === 1 ? '' : 'es'}: ${seconds.toFixed(1)} s, ${(cells / seconds).toFixed(2)} cells/s`,
      );
    }
    const same = readFileSync(path.join(dir, 'out-1/sweep.csv')).equals(readFileSync(path.join(dir, 'out-2/sweep.csv')));
    console.log(`  sweep.csv identical: ${same}; speed-up ${((results[0]?.[1] ?? 0) / (results[1]?.[1] ?? 1)).toFixed(2)}x`);
    console.log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    redis.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
