/**
 * A strategy that asks questions (bench/strategies/busy-reader.ts: its position and the account
 * summary on every tick, thousands of trades) on the 532,903 real EUR/USD ticks, parsed into an
 * array first: the tick loop alone (until onEnd has run; not the trades, equity and metrics
 * computed after it), what one transaction costs inside the loop (the run without the reads minus a
 * run that never trades, per transaction: compare with the fill suite's MARKET + TP/SL) and what
 * the reads cost per tick (with minus without them).
 */
import { loadStrategy, openTicks, runBacktest, type StrategyDefinition } from '../src/backtest/index.js';
import type { Tick } from '../src/domain/tick.js';
import { LEAN_DIR, hasLeanData, leanFiles } from '../test/support/lean-eurusd.js';
import { fmtNum, isMain, rmeNote, runStandalone, secondsSince, statsOf, timeCases, type Row } from './lib.js';

const SUITE = 'busy-reader';
const BUSY_READER = 'bench/strategies/busy-reader.ts';
/** Ticks between decisions of the idle variant: more than the data holds, so it never trades. */
const NEVER = 1e12;

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

export async function busyReader(): Promise<Row[]> {
  if (!hasLeanData()) {
    process.stdout.write(`busy-reader: skipped, the real EUR/USD ticks are not at ${LEAN_DIR}\n`);
    return [{ suite: SUITE, id: 'backtest.busy.skipped', name: 'skipped: no LEAN data', value: Number.NaN, unit: '-', note: LEAN_DIR }];
  }
  const parsed: Tick[] = [...openTicks(leanFiles())];
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
      note: `${perTx.toFixed(2)} µs: (loop without reads - loop without trades) / ${fmtNum(tx)} transactions; the fill suite's MARKET + TP/SL is the yardstick`,
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

if (isMain(import.meta.url)) await runStandalone(busyReader);
