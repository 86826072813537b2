/**
 * Before/after in one process: loads the engine of two checkouts of v20sim (their src/ through
 * tsx) and times the same workload on each, alternating A B, B A, A B ... pass by pass, so that
 * the drift of a shared machine (other load, CPU frequency, the garbage of the previous pass)
 * falls on both alike. Prints the median and the minimum pass time of each tree and the median
 * of the per-pass ratios B/A (below 1: B is faster). Timings are printed, never asserted.
 *
 *   node --import tsx bench/compare-trees.ts <treeA> <treeB> [case] [passes]
 *
 * Cases: ma-pre, grid-pre (the example strategies' backtests on the 532,903 real EUR/USD ticks,
 * parsed once beforehand), busy-pre (bench/strategies/busy-reader.ts trading without its per-tick
 * reads on the same ticks: 28,425 transactions, the busy-reader suite's trading loop), ma-zip,
 * grid-zip (the same, read from the 13 zips on every pass) and
 * round-trips (1,500 MARKET orders with takeProfitOnFill and stopLossOnFill, each followed by a
 * quote and a position close: the fill path as a crossover strategy drives it).
 */
import path from 'node:path';
import type * as BacktestModule from '../src/backtest/index.js';
import type { Tick } from '../src/domain/tick.js';
import type * as EngineModule from '../src/engine/engine.js';
import type * as JournalModule from '../src/journal/journal.js';
import type * as LeanModule from '../test/support/lean-eurusd.js';
import { spreadOf } from './lib.js';

type Pass = () => void;

const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const ACCOUNT = '101-004-1000003-001';
const ROUND_TRIPS = 1_500;

async function backtestPass(
  root: string,
  strategyFile: string,
  fromZips: boolean,
  params: Readonly<Record<string, unknown>> = {},
): Promise<Pass> {
  const backtest = (await import(path.join(root, 'src/backtest/index.ts'))) as typeof BacktestModule;
  const lean = (await import(path.join(root, 'test/support/lean-eurusd.ts'))) as typeof LeanModule;
  const files = lean.leanFiles();
  const strategy = await backtest.loadStrategy(path.join(root, strategyFile));
  const parsed: Tick[] = fromZips ? [] : [...backtest.openTicks(files)];
  return () => void backtest.runBacktest({ strategy, params, ticks: fromZips ? backtest.openTicks(files) : parsed });
}

async function roundTripPass(root: string): Promise<Pass> {
  const { createEngine } = (await import(path.join(root, 'src/engine/engine.ts'))) as typeof EngineModule;
  const { MemoryJournal } = (await import(path.join(root, 'src/journal/journal.ts'))) as typeof JournalModule;
  const px = (value: number): number => Number(value.toFixed(5));
  return () => {
    const engine = createEngine({
      accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000000' }],
      start: T0,
      journal: new MemoryJournal(),
    });
    let t = T0;
    for (let i = 0; i < ROUND_TRIPS; i += 1) {
      const mid = 1.1 + ((i * 7919) % 200) / 100_000;
      const long = i % 2 === 0;
      t += 1_000_000;
      engine.pushTick({ instrument: 'EUR_USD', time: t, bid: px(mid - 0.00005), ask: px(mid + 0.00005) });
      engine.execute(ACCOUNT, {
        type: 'CREATE_ORDER',
        order: {
          type: 'MARKET',
          instrument: 'EUR_USD',
          units: long ? '10000' : '-10000',
          takeProfitOnFill: { price: (long ? mid + 0.003 : mid - 0.003).toFixed(5) },
          stopLossOnFill: { distance: '0.00150' },
        },
      });
      t += 1_000_000;
      engine.pushTick({ instrument: 'EUR_USD', time: t, bid: px(mid + 0.0001), ask: px(mid + 0.0002) });
      engine.execute(ACCOUNT, { type: 'CLOSE_POSITION', instrument: 'EUR_USD', ...(long ? { longUnits: 'ALL' } : { shortUnits: 'ALL' }) });
    }
  };
}

const CASES: Record<string, { passes: number; make: (root: string) => Promise<Pass> }> = {
  'ma-pre': { passes: 30, make: (root) => backtestPass(root, 'examples/strategies/ma-crossover.ts', false) },
  'grid-pre': { passes: 30, make: (root) => backtestPass(root, 'examples/strategies/grid.ts', false) },
  'busy-pre': { passes: 30, make: (root) => backtestPass(root, 'bench/strategies/busy-reader.ts', false, { read: false }) },
  'ma-zip': { passes: 16, make: (root) => backtestPass(root, 'examples/strategies/ma-crossover.ts', true) },
  'grid-zip': { passes: 16, make: (root) => backtestPass(root, 'examples/strategies/grid.ts', true) },
  'round-trips': { passes: 20, make: roundTripPass },
};

async function main(): Promise<void> {
  const [treeA, treeB, caseName = 'ma-pre', passArg] = process.argv.slice(2);
  const spec = CASES[caseName];
  if (treeA === undefined || treeB === undefined || spec === undefined) {
    process.stderr.write(`usage: node --import tsx bench/compare-trees.ts <treeA> <treeB> [${Object.keys(CASES).join('|')}] [passes]\n`);
    process.exit(2);
  }
  const roots = [path.resolve(treeA), path.resolve(treeB)];
  const passes = passArg === undefined ? spec.passes : Number(passArg);
  const runs: Pass[] = [];
  for (const root of roots) runs.push(await spec.make(root));
  for (let i = 0; i < 3; i += 1) for (const run of runs) run(); // warm-up: both trees optimised
  const times: number[][] = [[], []];
  for (let i = 0; i < passes; i += 1) {
    for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const start = process.hrtime.bigint();
      (runs[k] as Pass)();
      (times[k] as number[]).push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const [a, b] = times as [number[], number[]];
  const ratio = spreadOf(a.map((ms, i) => (b[i] as number) / ms)).median;
  const show = (root: string, t: number[]): string => {
    const { median, min } = spreadOf(t);
    return `${path.basename(root)} median ${median.toFixed(1)} ms, min ${min.toFixed(1)} ms`;
  };
  process.stdout.write(
    `${caseName}: ${show(roots[0] as string, a)} | ${show(roots[1] as string, b)} | B/A per pass, median ${ratio.toFixed(3)}\n`,
  );
}

await main();
