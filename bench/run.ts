/**
 * `npm run bench`: every suite in sequence, one table, the project's goals next to the figures,
 * and bench/.results/latest.json for machines. Prints; never fails on a slow figure.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtNum, machineInfo, printMachine, printTable, secondsSince, type Row } from './lib.js';
import { SUITES } from './suites.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * Runs one suite in a process of its own (bench/suite-child.ts, with this process's node flags),
 * its output passed through: no suite pays for the heap, the compiled code or the garbage another
 * left, and the order of the suites changes no figure.
 */
async function runSuite(name: string, dir: string): Promise<Row[]> {
  const out = path.join(dir, `${name}.json`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, path.join(HERE, 'suite-child.ts'), name, out], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`suite ${name} exited with ${String(code)}`);
  const rows = JSON.parse(readFileSync(out, 'utf8')) as (Omit<Row, 'value'> & { value: number | null })[];
  return rows.map((r) => ({ ...r, value: r.value ?? Number.NaN }));
}

/** Quiet ticks/s count as "not falling" down to this share of the 0-order figure (run-to-run noise). */
const FLAT_TOLERANCE = 0.9;

interface Goal {
  readonly goal: string;
  readonly id: string;
  readonly measured: number | null;
  readonly unit: string;
  readonly met: boolean | null;
}

function goals(rows: readonly Row[]): Goal[] {
  const value = (id: string): number | null => {
    const v = rows.find((r) => r.id === id)?.value;
    return v === undefined || Number.isNaN(v) ? null : v;
  };
  const check = (goal: string, id: string, unit: string, ok: (v: number) => boolean): Goal => {
    const measured = value(id);
    return { goal, id, measured, unit, met: measured === null ? null : ok(measured) };
  };
  return [
    check('>= 1,000,000 ticks/s end to end on the real ticks', 'e2e.whole', 'ticks/s', (v) => v >= 1_000_000),
    ...quietTickGoals(check),
    check('>= 100,000 fills/s: resting LIMITs crossed by one quote', 'fills.cross', 'fills/s', (v) => v >= 100_000),
    check('>= 100,000 fills/s: resting LIMITs + TP/SL crossed by one quote', 'fills.crossTpSl', 'fills/s', (v) => v >= 100_000),
    check('>= 100,000 fills/s: MARKET orders back to back', 'fills.market', 'fills/s', (v) => v >= 100_000),
    check('>= 100,000 fills/s: MARKET orders + TP/SL', 'fills.marketTpSl', 'fills/s', (v) => v >= 100_000),
    check('<= 1 KB (1,024 B) heap per pending order: account alone', 'memory.account.plain', 'bytes/order', (v) => v <= 1024),
    check(
      '<= 1 KB (1,024 B) heap per pending order: account alone, clientExtensions',
      'memory.account.ext',
      'bytes/order',
      (v) => v <= 1024,
    ),
    check('<= 1 KB (1,024 B) heap per pending order: engine + MemoryJournal', 'memory.total.plain', 'bytes/order', (v) => v <= 1024),
    check('>= 1,000,000 ticks/s backtest, ma-crossover on the real ticks', 'backtest.ma.run', 'ticks/s', (v) => v >= 1_000_000),
    check('>= 1,000,000 ticks/s backtest, grid on the real ticks', 'backtest.grid.run', 'ticks/s', (v) => v >= 1_000_000),
    ...busyReaderGoals(check, value),
    check('>= 15,000 POST /orders per second over HTTP (resting LIMIT, 10 connections)', 'api.post.limit', 'req/s', (v) => v >= 15_000),
    check('p99 under 5 ms: POST /orders (resting LIMIT; autocannon, 1 ms resolution)', 'api.post.limit.p99', 'ms', (v) => v < 5),
    check('>= 25,000 GET /summary per second over HTTP (10 connections)', 'api.get.summary', 'req/s', (v) => v >= 25_000),
    check('p99 under 5 ms: GET /summary (autocannon, 1 ms resolution)', 'api.get.summary.p99', 'ms', (v) => v < 5),
    check(
      '>= 1,000,000 transaction-stream line deliveries/s in total to 100 clients',
      'streams.fanout100',
      'lines/s',
      (v) => v >= 1_000_000,
    ),
    // A long-running server lists what is live, not its history (a walk of it took 0.2-1.2 ms here).
    check('<= 10 µs: GET pendingOrders after 20,000 round trips (10 pending)', 'history.pending.us', 'µs', (v) => v <= 10),
    check('<= 10 µs: GET openTrades after 20,000 round trips (1 open)', 'history.open.us', 'µs', (v) => v <= 10),
    ...httpRatioGoals(check),
    ...parallelismGoals(check),
  ];
}

/** The HTTP path against a bare Fastify route of the same run (each ratio taken within a round, api.bench.ts). */
function httpRatioGoals(check: (goal: string, id: string, unit: string, ok: (v: number) => boolean) => Goal): Goal[] {
  return [
    check('>= 0.8x the bare GET route: GET summary', 'api.get.summary.ratio', 'x', (v) => v >= 0.8),
    check('>= 0.6x the bare POST route: POST a resting LIMIT', 'api.post.limit.ratioPost', 'x', (v) => v >= 0.6),
    check('>= 0.6x the bare POST route: POST a MARKET that fills', 'api.post.market.ratioPost', 'x', (v) => v >= 0.6),
  ];
}

/** One process's default against one thread, pass by pass: a few percent either way is the noise of a pass here. */
const NEVER_SLOWER = 0.95;

/** Sweeps and scenario runs on the threads they choose, against one thread. */
function parallelismGoals(check: (goal: string, id: string, unit: string, ok: (v: number) => boolean) => Goal): Goal[] {
  return [
    check(
      '>= 1.6x: a sweep of 16 backtests on 2 threads over 1 (warm worker; on a quiet machine, see the two-thread arithmetic row)',
      'backtest.sweep.speedup',
      'x',
      (v) => v >= 1.6,
    ),
    ...(
      [
        ['`v20sim backtest` sweep, default threads vs --workers 1', 'backtest.cliSweep.speedup'],
        ['`v20sim scenario run` scenarios/, default vs -j 1', 'scenario.run.speedup'],
        ['`v20sim scenario run` scenarios/ x 32, default vs -j 1', 'scenario.runCopies.speedup'],
      ] as const
    ).map(([label, id]) => check(`never slower than one thread (met at >= ${NEVER_SLOWER}): ${label}`, id, 'x', (v) => v >= NEVER_SLOWER)),
  ];
}

/** Quiet quotes: what they cost must not grow with the resting orders, and they allocate nothing. */
function quietTickGoals(check: (goal: string, id: string, unit: string, ok: (v: number) => boolean) => Goal): Goal[] {
  return [
    // The count is what must not matter: from 100 to 100,000 resting orders. With none at all the
    // instrument has no book and a quote skips even the six threshold compares.
    check(
      `ticks/s must not fall as resting orders grow 100 -> 100,000 (Account.onQuote, mean; met at >= ${FLAT_TOLERANCE})`,
      'quiet.onQuote.ratio100',
      'x',
      (v) => v >= FLAT_TOLERANCE,
    ),
    check(
      `ticks/s must not fall as resting orders grow 100 -> 100,000 (engine.pushTick, mean; met at >= ${FLAT_TOLERANCE})`,
      'quiet.pushTick.ratio100',
      'x',
      (v) => v >= FLAT_TOLERANCE,
    ),
    check(
      `ticks/s with 100,000 resting vs no book at all (Account.onQuote, mean; met at >= ${FLAT_TOLERANCE})`,
      'quiet.onQuote.ratio',
      'x',
      (v) => v >= FLAT_TOLERANCE,
    ),
    // DESIGN.md: a quote that crosses nothing costs a few comparisons and no allocation. A sampled
    // estimate over a pass: under a byte a quote on average is none (a boxed number is 16).
    check(
      'a quiet quote allocates nothing: < 1 byte a quote (engine.pushTick, 100,000 resting)',
      'quiet.pushTick.alloc.100000',
      'bytes/quote',
      (v) => v < 1,
    ),
  ];
}

/** The loop of a strategy that asks questions every tick, and what one transaction costs in it. */
function busyReaderGoals(
  check: (goal: string, id: string, unit: string, ok: (v: number) => boolean) => Goal,
  value: (id: string) => number | null,
): Goal[] {
  return [
    check(
      '>= 1,000,000 ticks/s loop, a strategy reading position + summary every tick (busy-reader)',
      'backtest.busy.loop',
      'ticks/s',
      (v) => v >= 1_000_000,
    ),
    perTransactionGoal(value),
  ];
}

/**
 * A transaction inside a backtest loop costs at most twice one of the fill suite's MARKET + TP/SL
 * fills: the ratio the busy-reader suite takes within rounds of its own, both timed in turn.
 */
function perTransactionGoal(value: (id: string) => number | null): Goal {
  const measured = value('backtest.busy.txRatio');
  return {
    goal: '<= 2x: a transaction inside the busy-reader backtest loop vs one of MARKET + TP/SL as the fill suite makes them (timed in turn)',
    id: 'backtest.busy.txRatio',
    measured,
    unit: 'x',
    met: measured === null ? null : measured <= 2,
  };
}

function printGoals(list: readonly Goal[]): void {
  process.stdout.write('\ngoals:\n');
  for (const g of list) {
    const verdict = g.met === null ? 'NOT MEASURED' : g.met ? 'met   ' : 'MISSED';
    const measured =
      g.measured === null ? 'n/a' : fmtNum(g.measured, g.unit === 'x' ? 2 : g.unit === 'µs' || g.unit === 'bytes/quote' ? 1 : 0);
    process.stdout.write(`  ${verdict}  ${g.goal}: ${measured} ${g.unit}\n`);
  }
}

async function main(): Promise<void> {
  const machine = machineInfo();
  printMachine(machine);
  const started = process.hrtime.bigint();
  const rows: Row[] = [];
  const durations: Record<string, number> = {};
  const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-bench-'));
  try {
    for (const [name] of SUITES) {
      const t = process.hrtime.bigint();
      rows.push(...(await runSuite(name, dir)));
      durations[name] = Math.round(secondsSince(t) * 10) / 10;
      process.stdout.write(`(${name}: ${durations[name]} s)\n\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const elapsed = secondsSince(started);
  printTable(rows);
  const goalList = goals(rows);
  printGoals(goalList);
  process.stdout.write(`\nall suites: ${elapsed.toFixed(0)} s\n`);

  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '.results');
  mkdirSync(out, { recursive: true });
  const json = {
    date: new Date().toISOString(),
    machine,
    execArgv: process.execArgv,
    seconds: { total: Math.round(elapsed * 10) / 10, ...durations },
    rows: rows.map((r) => ({ ...r, value: Number.isNaN(r.value) ? null : r.value })),
    goals: goalList,
  };
  const file = path.join(out, 'latest.json');
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`results: ${path.relative(process.cwd(), file)}\n`);
}

await main();
