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
 * Then a strategy that asks questions (bench/strategies/busy-reader.ts: its position and the account
 * summary on every tick, thousands of trades) on the pre-parsed array: the tick loop alone (until
 * onEnd has run; not the trades, equity and metrics computed after it), what one transaction costs
 * inside the loop (the run without the reads minus a run that never trades, per transaction: compare
 * with the fill suite's MARKET + TP/SL) and what the reads cost per tick (with minus without them).
 *
 * Then a parameter sweep of the moving-average crossover (16 runs) on one thread and on two (this
 * one and a worker): the speed-up, worker start-up (loading the TypeScript sources) included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { LEAN_DIR, hasLeanData, leanFiles } from '../test/support/lean-eurusd.js';
import { fmtNum, isMain, rmeNote, runStandalone, secondsSince, statsOf, timeCases, type Row } from './lib.js';

const SUITE = 'backtest';
const STRATEGIES = [
  { id: 'ma', file: 'examples/strategies/ma-crossover.ts' },
  { id: 'grid', file: 'examples/strategies/grid.ts' },
] as const;
const BUSY_READER = 'bench/strategies/busy-reader.ts';
/** Ticks between decisions of the idle variant: more than the data holds, so it never trades. */
const NEVER = 1e12;
const SWEEP_GRID = { fast: [5, 10, 20, 40], slow: [50, 100, 150, 200] };
const SWEEP_PASSES = 2;

function sweepJobs(definition: StrategyDefinition): { index: number; params: Record<string, string | number | boolean> }[] {
  const jobs: { index: number; params: Record<string, string | number | boolean> }[] = [];
  for (const fast of SWEEP_GRID.fast)
    for (const slow of SWEEP_GRID.slow) jobs.push({ index: jobs.length, params: { ...definition.params, fast, slow } });
  return jobs;
}

/**
 * Best wall time of a few sweeps (seconds), and of that pass the time until the last worker was
 * ready (the start-up: thread, TypeScript sources, strategy). Sweeps are too slow for benny.
 */
async function timeSweep(
  spec: SweepSpec,
  jobs: ReturnType<typeof sweepJobs>,
  workers: number,
): Promise<{ seconds: number; startup: number }> {
  let best = { seconds: Number.POSITIVE_INFINITY, startup: 0 };
  for (let pass = 0; pass < SWEEP_PASSES; pass += 1) {
    const start = process.hrtime.bigint();
    let startup = 0;
    await runSweep(spec, jobs, { workers, onWorkerReady: () => void (startup = secondsSince(start)) });
    const seconds = secondsSince(start);
    if (seconds < best.seconds) best = { seconds, startup };
  }
  return best;
}

/**
 * One variant of the busy reader as a benny op (one whole run), timing the tick loop inside the op:
 * from the call to the last onProgress, which the runner makes once onEnd has run.
 */
class LoopCase {
  /** The fastest loop of every run (benny's warm-up included): the figure least disturbed by other processes. */
  best = Number.POSITIVE_INFINITY;
  runs = 0;
  transactions = 0;
  trades = 0;

  constructor(
    private readonly strategy: StrategyDefinition,
    private readonly ticks: readonly Tick[],
    private readonly params: Readonly<Record<string, unknown>>,
  ) {}

  readonly run = (): void => {
    const start = process.hrtime.bigint();
    let loop = 0;
    const result = runBacktest({
      strategy: this.strategy,
      ticks: this.ticks,
      params: this.params,
      progressEvery: 2 ** 30,
      onProgress: () => void (loop = secondsSince(start)),
    });
    this.best = Math.min(this.best, loop);
    this.runs += 1;
    this.transactions = result.transactions.length;
    this.trades = result.metrics.trades;
  };

  /** Seconds of the fastest loop. */
  get loop(): number {
    return this.best;
  }
}

async function busyReader(parsed: readonly Tick[]): Promise<Row[]> {
  const strategy = await loadStrategy(BUSY_READER);
  const reading = new LoopCase(strategy, parsed, { read: true });
  const trading = new LoopCase(strategy, parsed, { read: false });
  const idle = new LoopCase(strategy, parsed, { read: false, every: NEVER });
  const names = {
    reading: `${strategy.name}: position + summary every tick, trading (pre-parsed array)`,
    trading: `${strategy.name}: the same trades, no reads`,
    idle: `${strategy.name}: no reads, no trades`,
  };
  const stats = await timeCases(
    `${SUITE} (${strategy.name})`,
    [
      { name: names.reading, fn: reading.run },
      { name: names.trading, fn: trading.run },
      { name: names.idle, fn: idle.run },
    ],
    { maxTime: 2, minSamples: 4 },
  );
  const ticks = parsed.length;
  const tx = trading.transactions;
  process.stdout.write(
    `backtest ${strategy.name}: ${fmtNum(ticks)} ticks, ${fmtNum(reading.trades)} trades, ${fmtNum(tx)} transactions per pass\n`,
  );
  const perTx = ((trading.loop - idle.loop) / tx) * 1e6;
  const perRead = ((reading.loop - trading.loop) / ticks) * 1e9;
  return [
    {
      suite: SUITE,
      id: 'backtest.busy.loop',
      name: `${names.reading}: the tick loop`,
      value: ticks / reading.loop,
      unit: 'ticks/s',
      note: `fastest of ${reading.runs} loops; whole run ${rmeNote(statsOf(stats, names.reading), `${fmtNum(statsOf(stats, names.reading).hz * ticks)} ticks/s`)}`,
    },
    {
      suite: SUITE,
      id: 'backtest.busy.tx',
      name: `${strategy.name}: one transaction inside the loop`,
      value: perTx,
      unit: 'µs',
      note: `(loop without reads - loop without trades) / ${fmtNum(tx)} transactions; the fill suite's MARKET + TP/SL is the yardstick`,
    },
    {
      suite: SUITE,
      id: 'backtest.busy.read',
      name: `${strategy.name}: position + summary read, per tick`,
      value: perRead,
      unit: 'ns',
      note: '(loop with reads - loop without) / ticks',
    },
  ];
}

export async function backtest(): Promise<Row[]> {
  if (!hasLeanData()) {
    process.stdout.write(`backtest: skipped, the real EUR/USD ticks are not at ${LEAN_DIR}\n`);
    return [{ suite: SUITE, id: 'backtest.skipped', name: 'skipped: no LEAN data', value: Number.NaN, unit: '-', note: LEAN_DIR }];
  }
  const files = leanFiles();
  const parsed: Tick[] = [...openTicks(files)];
  const ticksPerPass = parsed.length;
  const out = mkdtempSync(path.join(os.tmpdir(), 'v20sim-bench-backtest-'));
  const rows: Row[] = [];
  try {
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

    rows.push(...(await busyReader(parsed)));

    const ma = await loadStrategy(STRATEGIES[0].file);
    const spec: SweepSpec = {
      strategyFile: path.resolve(STRATEGIES[0].file),
      tickFiles: files,
      account: {},
      equityIntervalMicros: 60_000_000,
    };
    const jobs = sweepJobs(ma);
    process.stdout.write(
      `backtest sweep: ${jobs.length} runs of ${ma.name} (fast ${SWEEP_GRID.fast.join(',')} x slow ${SWEEP_GRID.slow.join(',')}), best of ${SWEEP_PASSES}\n`,
    );
    const serial = (await timeSweep(spec, jobs, 1)).seconds;
    const parallel = await timeSweep(spec, jobs, 2);
    const cores = os.availableParallelism();
    rows.push({
      suite: SUITE,
      id: 'backtest.sweep.serial',
      name: `sweep of ${jobs.length} runs, 1 thread`,
      value: (jobs.length * ticksPerPass) / serial,
      unit: 'ticks/s',
      note: `${serial.toFixed(2)} s`,
    });
    rows.push({
      suite: SUITE,
      id: 'backtest.sweep.parallel',
      name: `sweep of ${jobs.length} runs, 2 threads (this one + 1 worker)`,
      value: (jobs.length * ticksPerPass) / parallel.seconds,
      unit: 'ticks/s',
      note: `${parallel.seconds.toFixed(2)} s; ${cores} cores available`,
    });
    rows.push({
      suite: SUITE,
      id: 'backtest.sweep.speedup',
      name: 'sweep speed-up on 2 threads',
      value: serial / parallel.seconds,
      unit: 'x',
      note: '1-thread time / 2-thread time, worker start-up included (2.00 = perfect)',
    });
    rows.push({
      suite: SUITE,
      id: 'backtest.sweep.workerStartup',
      name: 'sweep worker start-up (thread, sources, strategy)',
      value: parallel.startup * 1000,
      unit: 'ms',
      note: 'until the worker took its first jobs; this thread runs jobs meanwhile',
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(backtest);
