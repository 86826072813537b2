/**
 * A strategy that asks questions (bench/strategies/busy-reader.ts: its position and the account
 * summary on every tick, thousands of trades) on the 532,903 real EUR/USD ticks, parsed into an
 * array first: the tick loop alone (until onEnd has run; not the trades, equity and metrics
 * computed after it), what one transaction costs inside the loop (the run without the reads minus a
 * run that never trades, per transaction), that cost over one of the fill suite's MARKET + TP/SL
 * fills timed in turn with it (the goal's ratio), and what the reads cost per tick (with minus
 * without them).
 */
import { loadStrategy, openTicks, runBacktest, type StrategyDefinition } from '../src/backtest/index.js';
import type { Tick } from '../src/domain/tick.js';
import { LEAN_DIR, hasLeanData, leanFiles } from '../test/support/lean-eurusd.js';
import { MARKET_COUNT, marketBuys, marketCase } from './fills.bench.js';
import { collector, fmtNum, isMain, rmeNote, runStandalone, secondsSince, spreadOf, statsOf, timeCases, type Row } from './lib.js';

const SUITE = 'busy-reader';
/**
 * Rounds of the per-transaction ratio: a trading loop, an idle loop and the fill suite's op, in
 * turn. Nine: single rounds range from about 1.2x to 4x on a shared VM, and the median of five
 * moved by a tenth from run to run.
 */
const RATIO_ROUNDS = 9;
/** Timed runs of each part in a round, the fastest counted. */
const BEST_OF = 3;
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

  readonly run = (): void => void this.timedRun();

  /** One run; returns its tick loop's seconds. */
  timedRun(): number {
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
    return loop;
  }

  /** Seconds of the fastest loop. */
  get loop(): number {
    return this.best;
  }
}

/**
 * A transaction inside the loop over one of the fill suite's MARKET + TP/SL op (fills.bench.ts),
 * both timed in the same round of this process: the two suites run a minute apart, and on a
 * shared machine either figure can move by a quarter in that time. Each round times a trading
 * loop, an idle loop and one fill op, in turn; the ratio is taken within the round, then the median.
 */
function ratioRounds(trading: LoopCase, idle: LoopCase): { ratios: number[]; fillMicros: number[] } {
  const yardstick = marketCase(marketBuys(MARKET_COUNT, true));
  yardstick.run(); // compiled before its first timing, as benny's warm-up does for the fill suite
  const ratios: number[] = [];
  const fillMicros: number[] = [];
  // Each part from a collected heap (none pays for the garbage of the one before), once untimed,
  // then the fastest of BEST_OF: like for like, as each figure of a round is its part's least
  // disturbed. The first run after a full collection is 2-3x slower: the collection frees the maps
  // (hidden classes) that only garbage held, V8 discards the optimized code that embeds them (about a
  // hundred functions, "weak objects" in --trace-deopt) and optimizes again while that run goes;
  // the collection also shrinks the young generation, which that run grows back.
  const gc = collector();
  const settled = (fn: () => number): number => {
    gc();
    fn();
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < BEST_OF; i += 1) best = Math.min(best, fn());
    return best;
  };
  for (let round = 0; round < RATIO_ROUNDS; round += 1) {
    const tradingLoop = settled(() => trading.timedRun());
    const idleLoop = settled(() => idle.timedRun());
    const fillSeconds = settled(() => {
      const start = process.hrtime.bigint();
      yardstick.run();
      return secondsSince(start);
    });
    const fillTx = (fillSeconds / yardstick.counts().transactions) * 1e6;
    const loopTx = ((tradingLoop - idleLoop) / trading.transactions) * 1e6;
    ratios.push(loopTx / fillTx);
    fillMicros.push(fillTx);
  }
  return { ratios, fillMicros };
}

/** The ratio's row, printed: the median of the rounds, with each round's figure. */
function ratioRow(name: string, trading: LoopCase, idle: LoopCase): Row {
  const { ratios, fillMicros } = ratioRounds(trading, idle);
  const ratio = spreadOf(ratios);
  const fill = spreadOf(fillMicros).median.toFixed(2);
  process.stdout.write(
    `  a transaction in the loop over one of the fill suite's MARKET + TP/SL, ${RATIO_ROUNDS} rounds in turn: ` +
      `${ratio.median.toFixed(2)}x (${ratios.map((r) => r.toFixed(2)).join(', ')}); the fill op ${fill} µs a transaction\n`,
  );
  return {
    suite: SUITE,
    id: 'backtest.busy.txRatio',
    name: `${name}: one transaction inside the loop over one of the fill suite's MARKET + TP/SL`,
    value: ratio.median,
    unit: 'x',
    note: `median of ${RATIO_ROUNDS} rounds (min ${ratio.min.toFixed(2)}, max ${ratio.max.toFixed(2)}), each timing a trading loop, an idle loop and the fill op (fastest of ${BEST_OF} each; ${fmtNum(MARKET_COUNT)} MARKET + TP/SL, ${fill} µs a transaction) in turn`,
  };
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
    ratioRow(strategy.name, trading, idle),
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
