/**
 * Backtests on the real data: the 532,903 OANDA EUR/USD ticks of May 2014 in 13 LEAN zips, run
 * through `runBacktest` with each example strategy (examples/strategies/*.ts). One op = one whole
 * backtest: read (file, unzip, parse), merge the 13 files by time, the engine with the strategy's
 * orders and fills, the mark-to-market equity curve, trades and metrics. Budget: the goal of
 * 1,000,000 ticks/s leaves 1 µs per tick; parsing takes about a quarter of that, the bare quote
 * path a few percent, so the strategy hooks, fills and equity points share the rest.
 *
 * Cases per strategy: the run alone; the run plus writing every output file (transactions.ndjson,
 * trades.csv, equity.csv, report.json, report.html); and the run on a pre-parsed array (no I/O).
 * (A strategy that asks questions is its own suite, busy-reader.bench.ts.)
 *
 * Then a parameter sweep of the moving-average crossover (16 runs) on one thread and on two (this
 * one and a worker), passes interleaved: the speed-up of the first two-thread pass (the worker
 * starts: from dist/ when it is current, else through tsx) and of the later ones (the process's
 * warm worker is reused, after untimed passes that let its compiler catch up); then the same sweep
 * as `v20sim backtest --param` runs it, a fresh process with the default threads against one
 * (cli-sweep.ts). Last `v20sim scenario run` with -j 1 and
 * with the default thread count, each a fresh process, interleaved, over scenarios/ and over eight
 * copies of it (scenario-runs.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  loadStrategy,
  openTicks,
  runBacktest,
  runSweep,
  writeOutputs,
  type StrategyDefinition,
  type SweepSpec,
} from '../src/backtest/index.js';
import type { Tick } from '../src/domain/tick.js';
import { builtModule } from '../src/workers/built-module.js';
import { LEAN_DIR, hasLeanData, leanFiles } from '../test/support/lean-eurusd.js';
import { cliSweepRows } from './cli-sweep.js';
import { scenarioRows } from './scenario-runs.js';
import { fmtNum, isMain, rmeNote, runStandalone, secondsSince, statsOf, timeCases, type Row } from './lib.js';

const SUITE = 'backtest';
const STRATEGIES = [
  { id: 'ma', file: 'examples/strategies/ma-crossover.ts' },
  { id: 'grid', file: 'examples/strategies/grid.ts' },
] as const;
const SWEEP_GRID = { fast: [5, 10, 20, 40], slow: [50, 100, 150, 200] };
/** Interleaved pairs of sweeps (1 thread, 2 threads); the first 2-thread pass starts the worker. */
const SWEEP_PASSES = 5;
/**
 * Two-thread passes run, untimed, after the first pair and before the others. V8 optimises the
 * code a fill runs (a few hundred fills a run) only after dozens of runs: compiling the sweep's
 * runs on one thread, it optimised 334, 130, 64, 24, 24 and 8 functions in its first six passes
 * of 8 runs, each pass faster (413, 261, 228, 216, 198, 200 ms). This thread runs 16 runs a
 * 1-thread pass and about 8 a 2-thread one, the worker only its 8: compared pass by pass, a warm
 * thread raced a worker still compiling. Three more passes give the worker ~30 runs first.
 */
const SWEEP_WARMUP_PASSES = 3;

function sweepJobs(definition: StrategyDefinition): { index: number; params: Record<string, string | number | boolean> }[] {
  const jobs: { index: number; params: Record<string, string | number | boolean> }[] = [];
  for (const fast of SWEEP_GRID.fast)
    for (const slow of SWEEP_GRID.slow) jobs.push({ index: jobs.length, params: { ...definition.params, fast, slow } });
  return jobs;
}

/** Seconds of one sweep, and when the first worker was ready (NaN: no worker took a job). */
async function timeSweep(
  spec: SweepSpec,
  jobs: ReturnType<typeof sweepJobs>,
  workers: number,
): Promise<{ seconds: number; startup: number }> {
  const start = process.hrtime.bigint();
  let startup = Number.NaN;
  await runSweep(spec, jobs, { workers, onWorkerReady: () => void (startup = secondsSince(start)) });
  return { seconds: secondsSince(start), startup };
}

/** The interleaved passes: each pair's 1-thread and 2-thread times, the warm-up after the first pair. */
async function sweepPasses(
  spec: SweepSpec,
  jobs: ReturnType<typeof sweepJobs>,
): Promise<{ serial: number[]; parallel: { seconds: number; startup: number }[] }> {
  const serial: number[] = [];
  const parallel: { seconds: number; startup: number }[] = [];
  for (let pass = 0; pass < SWEEP_PASSES; pass += 1) {
    serial.push((await timeSweep(spec, jobs, 1)).seconds);
    parallel.push(await timeSweep(spec, jobs, 2));
    process.stdout.write(
      `  pass ${pass + 1}: 1 thread ${serial.at(-1)?.toFixed(2)} s, 2 threads ${parallel.at(-1)?.seconds.toFixed(2)} s\n`,
    );
    if (pass > 0) continue;
    const warmup: number[] = [];
    for (let w = 0; w < SWEEP_WARMUP_PASSES; w += 1) warmup.push((await timeSweep(spec, jobs, 2)).seconds);
    process.stdout.write(`  warm-up, 2 threads (not counted): ${warmup.map((s) => `${s.toFixed(2)} s`).join(', ')}\n`);
  }
  return { serial, parallel };
}

async function sweepRows(files: readonly string[], ticksPerPass: number): Promise<Row[]> {
  const ma = await loadStrategy(STRATEGIES[0].file);
  const spec: SweepSpec = {
    strategyFile: path.resolve(STRATEGIES[0].file),
    tickFiles: files,
    account: {},
    equityIntervalMicros: 60_000_000,
  };
  const jobs = sweepJobs(ma);
  const built = builtModule(new URL('../src/backtest/sweep-worker.ts', import.meta.url)) !== undefined;
  process.stdout.write(
    `backtest sweep: ${jobs.length} runs of ${ma.name} (fast ${SWEEP_GRID.fast.join(',')} x slow ${SWEEP_GRID.slow.join(',')}), ${SWEEP_PASSES} interleaved passes; worker from ${built ? 'dist/' : 'the sources (tsx)'}\n`,
  );
  const { serial, parallel } = await sweepPasses(spec, jobs);
  const best = Math.min(...serial);
  const cold = parallel[0] as { seconds: number; startup: number };
  const warm = Math.min(...parallel.slice(1).map((p) => p.seconds));
  const cores = os.availableParallelism();
  const tickRate = (seconds: number): number => (jobs.length * ticksPerPass) / seconds;
  return [
    {
      suite: SUITE,
      id: 'backtest.sweep.serial',
      name: `sweep of ${jobs.length} runs, 1 thread`,
      value: tickRate(best),
      unit: 'ticks/s',
      note: `best ${best.toFixed(2)} s`,
    },
    {
      suite: SUITE,
      id: 'backtest.sweep.parallel',
      name: `sweep of ${jobs.length} runs, 2 threads (this one + 1 warm worker)`,
      value: tickRate(warm),
      unit: 'ticks/s',
      note: `best ${warm.toFixed(2)} s; ${cores} cores available`,
    },
    {
      suite: SUITE,
      id: 'backtest.sweep.speedup',
      name: 'sweep speed-up on 2 threads, warm worker',
      value: best / warm,
      unit: 'x',
      note: `best 1-thread time / best 2-thread time after the first pass and ${SWEEP_WARMUP_PASSES} warm-up passes (2.00 = perfect)`,
    },
    {
      suite: SUITE,
      id: 'backtest.sweep.speedupCold',
      name: 'sweep speed-up on 2 threads, worker started by the sweep',
      value: best / cold.seconds,
      unit: 'x',
      note: `best 1-thread time / the first 2-thread pass (${cold.seconds.toFixed(2)} s, worker start-up included)`,
    },
    {
      suite: SUITE,
      id: 'backtest.sweep.workerStartup',
      name: `sweep worker start-up (thread, ${built ? 'dist/' : 'sources through tsx'}, strategy, ticks read)`,
      value: cold.startup * 1000,
      unit: 'ms',
      note: 'until the worker took its first jobs; this thread reads the ticks and runs jobs meanwhile',
    },
  ];
}

/** A loop of integer arithmetic that touches no memory, run here (the ops run inside, not by benny). */
function spin(): number {
  const start = process.hrtime.bigint();
  let x = 0;
  for (let i = 0; i < 200_000_000; i += 1) x = (x + i * 7) % 1_000_003;
  if (x < 0) throw new Error('unreachable');
  return secondsSince(start);
}

/**
 * What a second thread can give on this machine right now: the same arithmetic loop alone, and on
 * this thread and a worker side by side (2.00 = two free cores). Read the sweep's speed-up against it.
 */
async function twoThreadCeiling(): Promise<Row> {
  const source = `const { parentPort } = require('node:worker_threads'); const s = process.hrtime.bigint(); let x = 0;
    for (let i = 0; i < 200000000; i += 1) x = (x + i * 7) % 1000003; parentPort.postMessage([Number(process.hrtime.bigint() - s) / 1e9, x]);`;
  let best = 0;
  for (let pass = 0; pass < 2; pass += 1) {
    const alone = spin();
    const worker = new Worker(source, { eval: true });
    const other = new Promise<number>((resolve) => worker.once('message', (m: [number, number]) => resolve(m[0])));
    const here = spin();
    const there = await other;
    await worker.terminate();
    best = Math.max(best, (2 * alone) / Math.max(here, there));
  }
  return {
    suite: SUITE,
    id: 'backtest.twoThreadCeiling',
    name: 'two threads of pure arithmetic vs one (what a second core gives now)',
    value: best,
    unit: 'x',
    note: 'best of 2; 2.00 = two free cores; the sweep speed-up cannot beat it',
  };
}

export async function backtest(): Promise<Row[]> {
  if (!hasLeanData()) {
    process.stdout.write(`backtest: skipped, the real EUR/USD ticks are not at ${LEAN_DIR}\n`);
    return [{ suite: SUITE, id: 'backtest.skipped', name: 'skipped: no LEAN data', value: Number.NaN, unit: '-', note: LEAN_DIR }];
  }
  const files = leanFiles();
  const out = mkdtempSync(path.join(os.tmpdir(), 'v20sim-bench-backtest-'));
  const rows: Row[] = [];
  try {
    const ticksPerPass = await strategyRows(files, out, rows);
    rows.push(await twoThreadCeiling());
    rows.push(...(await sweepRows(files, ticksPerPass)));
    rows.push(...(await cliSweepRows(files)));
    rows.push(...(await scenarioRows()));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return rows;
}

/**
 * The cases of each example strategy; returns the ticks a pass reads. The pre-parsed ticks are
 * dropped with its return: kept live through the sweeps, every collection of this thread marked
 * them and slowed its 1-thread passes (bench/RESULTS.md).
 */
async function strategyRows(files: readonly string[], out: string, rows: Row[]): Promise<number> {
  const parsed: Tick[] = [...openTicks(files)];
  const ticksPerPass = parsed.length;
  for (const s of STRATEGIES) {
    const strategy = await loadStrategy(s.file);
    const check = runBacktest({ strategy, ticks: openTicks(files) });
    const m = check.metrics;
    process.stdout.write(
      `backtest ${strategy.name}: ${fmtNum(check.ticks)} ticks, ${fmtNum(m.trades)} trades, ${fmtNum(m.fills)} fills, ${fmtNum(m.transactions)} transactions, ${fmtNum(check.equity.time.length)} equity points per pass\n`,
    );
    const names = {
      run: `${strategy.name}: ${files.length} zips -> parse -> merge -> engine + strategy -> equity, trades, metrics`,
      outputs: `${strategy.name}: the same + writing the 5 output files (report.html included)`,
      parsed: `${strategy.name}: pre-parsed array -> engine + strategy -> equity, trades, metrics`,
    };
    const stats = await timeCases(
      `${SUITE} (${strategy.name})`,
      [
        { name: names.run, fn: () => void runBacktest({ strategy, ticks: openTicks(files) }) },
        { name: names.outputs, fn: () => void writeOutputs(out, runBacktest({ strategy, ticks: openTicks(files) })) },
        { name: names.parsed, fn: () => void runBacktest({ strategy, ticks: parsed }) },
      ],
      { maxTime: 2, minSamples: 4 },
    );
    const add = (id: string, name: string, extra: string): void => {
      const st = statsOf(stats, name);
      rows.push({
        suite: SUITE,
        id,
        name,
        value: st.hz * ticksPerPass,
        unit: 'ticks/s',
        note: rmeNote(st, `best pass ${fmtNum(st.best * ticksPerPass)} ticks/s${extra === '' ? '' : `; ${extra}`}`),
      });
    };
    add(`backtest.${s.id}.run`, names.run, `${fmtNum(m.trades)} trades, ${fmtNum(m.fills)} fills`);
    add(`backtest.${s.id}.outputs`, names.outputs, '');
    add(`backtest.${s.id}.parsed`, names.parsed, '');
  }
  return ticksPerPass;
}

if (isMain(import.meta.url)) await runStandalone(backtest);
