/**
 * Start-up, as a user waits for it: process start to `--help` printed, and to the first answered
 * request of `v20sim serve` against a bare Fastify server started the same way. Each case runs
 * in a fresh process, the cases interleaved round by round so that load drifts hit all of them
 * alike; medians with min/max. Uses the built CLI (dist/) when present, as bin/v20sim.js does:
 * run `npm run build` first to measure what an installed package does.
 *
 *   node --import tsx bench/startup.ts [rounds]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtModule } from '../src/workers/built-module.js';
import { spreadOf } from './lib.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/v20sim.js');
const BARE = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/v3/accounts', async () => ({ accounts: [] }));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log('listening http://127.0.0.1:' + app.server.address().port);
`;

/** Milliseconds from spawn to exit, and what the process wrote on stderr. */
function runToExit(args: string[]): Promise<{ ms: number; stderr: string }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`exit ${code}: ${args.join(' ')}\n${stderr}`));
      else resolve({ ms: performance.now() - start, stderr });
    });
  });
}

/** Milliseconds from spawn to exit. */
const untilExit = async (args: string[]): Promise<number> => (await runToExit(args)).ms;

/** The real EUR/USD ticks (13 LEAN zips, 532,903 ticks) beside the repository, if there. */
const TICK_DIR = path.join(ROOT, '../shared/data/ticks/lean-oanda-eurusd');
const ZIPS = existsSync(TICK_DIR)
  ? readdirSync(TICK_DIR)
      .filter((f) => f.endsWith('.zip'))
      .sort()
      .map((f) => path.join(TICK_DIR, f))
  : [];
const ZIP_TICKS = 532_903;
const OUT = mkdtempSync(path.join(tmpdir(), 'v20sim-startup-'));
process.on('exit', () => rmSync(OUT, { recursive: true, force: true }));
const backtest = (strategy: string): string[] => [BIN, 'backtest', '--strategy', strategy, '--ticks', ...ZIPS, '--out', OUT];

/** The process's own clock at its first tick (bench/strategies/first-tick.ts prints it). */
async function untilFirstTick(): Promise<number> {
  const { stderr } = await runToExit(backtest('bench/strategies/first-tick.ts'));
  const m = /first tick at ([\d.]+) ms/.exec(stderr);
  if (m === null) throw new Error(`no first tick reported:\n${stderr}`);
  return Number(m[1]);
}

/** Milliseconds from spawn to the first 200 of GET /v3/accounts, then the server is killed. */
function untilFirstAnswer(args: string[]): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /^listening (\S+)/m.exec(out);
      if (m === null || out.includes('\u0000')) return;
      out += '\u0000';
      fetch(`${m[1]}/v3/accounts`, { headers: { authorization: 'Bearer bench' } })
        .then((res) => {
          const ms = performance.now() - start;
          child.kill('SIGKILL');
          if (res.status !== 200) reject(new Error(`status ${res.status}`));
          else resolve(ms);
        })
        .catch(reject);
    });
    child.on('error', reject);
  });
}

const CASES: Record<string, () => Promise<number>> = {
  'node -e 0': () => untilExit(['-e', '0']),
  'v20sim --help': () => untilExit([BIN, '--help']),
  'bare Fastify, first answer': () => untilFirstAnswer(['--input-type=module', '-e', BARE]),
  'v20sim serve, first answer': () =>
    untilFirstAnswer([BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--token', 'bench', '--no-generator', '--clock', 'manual']),
  ...(ZIPS.length === 0
    ? {}
    : {
        'backtest, first tick (in-process clock)': untilFirstTick,
        'backtest ma-crossover, whole process': () => untilExit(backtest('examples/strategies/ma-crossover.ts')),
        'backtest grid, whole process': () => untilExit(backtest('examples/strategies/grid.ts')),
      }),
};
if (ZIPS.length === 0) console.log(`no tick files in ${TICK_DIR}: the backtest cases are left out`);

const rounds = Number(process.argv[2] ?? 9);
const times: Record<string, number[]> = Object.fromEntries(Object.keys(CASES).map((k) => [k, []]));
const load = loadavg()[0];
for (let r = 0; r < rounds; r += 1) for (const [name, run] of Object.entries(CASES)) times[name]?.push(await run());
/** What bin/v20sim.js ran: the build only when it is current (a source changed since it runs tsx). */
function cliRan(): string {
  const built = builtModule(new URL('../src/cli/main.ts', import.meta.url));
  if (built === undefined) return 'TypeScript through tsx (no current build: run npm run build to time what users run)';
  return built.pathname.includes('/dist/bundle/') ? 'built bundle' : 'built dist/';
}
console.log(`start-up, ${rounds} rounds, ${cliRan()}, load ${load?.toFixed(2)} -> ${loadavg()[0]?.toFixed(2)}`);
for (const [name, xs] of Object.entries(times)) {
  const { median, min, max } = spreadOf(xs);
  const rate = name.includes('whole process') ? `  ${((ZIP_TICKS / median) * 1000).toFixed(0)} ticks/s whole process` : '';
  console.log(`${name.padEnd(40)} median ${median.toFixed(0).padStart(5)} ms  (min ${min.toFixed(0)}, max ${max.toFixed(0)})${rate}`);
}
