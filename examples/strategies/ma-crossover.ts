/**
 * Moving-average crossover: builds bars of the mid price, and when the fast average of bar closes
 * crosses the slow one it closes the opposite position and enters with a MARKET order that carries
 * its own take profit (a price) and stop loss (a distance): v20's takeProfitOnFill and
 * stopLossOnFill, so the exits rest on the account and fill on later ticks without the strategy.
 *
 *   v20sim backtest --strategy examples/strategies/ma-crossover.ts --param fast=10 --param slow=30
 *   v20sim backtest --strategy examples/strategies/ma-crossover.ts --param fast=5,10,20 --param slow=50,100
 *
 * The same requests work against `v20sim serve` and OANDA (POST /v3/accounts/{id}/orders, PUT
 * /v3/accounts/{id}/positions/{instrument}/close).
 */
import type { StrategyContext, StrategyDefinition } from '../../src/backtest/index.js';
import type { Tick } from '../../src/index.js';

const params = {
  instrument: 'EUR_USD',
  /** Bar length in seconds; the averages are over bar closes (mid prices). */
  barSeconds: 300,
  /** Bars in the fast and the slow moving average. */
  fast: 10,
  slow: 30,
  /** Units per entry. */
  units: 10_000,
  /** Take profit from the entry quote, and stop loss distance from the fill, in pips. */
  takeProfitPips: 30,
  stopLossPips: 15,
  /** Close what is still open when the data ends, so every trade has an exit. */
  closeAtEnd: true,
};

type Params = typeof params;

/** A simple moving average over the last `length` values, O(1) per value. */
class MovingAverage {
  private readonly values: number[];
  private sum = 0;
  private count = 0;
  private at = 0;

  constructor(private readonly length: number) {
    this.values = new Array<number>(length).fill(0);
  }

  push(value: number): void {
    if (this.count === this.length) this.sum -= this.values[this.at] as number;
    else this.count += 1;
    this.values[this.at] = value;
    this.sum += value;
    this.at = (this.at + 1) % this.length;
  }

  get ready(): boolean {
    return this.count === this.length;
  }

  get value(): number {
    return this.sum / this.count;
  }
}

const strategy: StrategyDefinition<Params> = {
  name: 'ma-crossover',
  params,
  create(p) {
    if (!(p.fast >= 1 && p.slow >= 1 && Number.isInteger(p.fast) && Number.isInteger(p.slow)))
      throw new Error('fast and slow must be whole numbers of bars');
    const barMicros = Math.round(p.barSeconds * 1_000_000);
    const fast = new MovingAverage(p.fast);
    const slow = new MovingAverage(p.slow);
    let bar = -1;
    let close = 0;
    let previousDiff = Number.NaN;
    let precision = 5;
    let pip = 0.0001;

    const enter = (ctx: StrategyContext<Params>, tick: Tick, long: boolean): void => {
      // One position at a time: close the other side first (PUT /positions/{instrument}/close).
      const position = ctx.position(p.instrument);
      if (long && position.short.units !== '0') ctx.closePosition(p.instrument, { shortUnits: 'ALL' });
      if (!long && position.long.units !== '0') ctx.closePosition(p.instrument, { longUnits: 'ALL' });
      if ((long ? position.long.units : position.short.units) !== '0') return; // already in
      const entry = long ? tick.ask : tick.bid;
      const takeProfit = entry + (long ? 1 : -1) * p.takeProfitPips * pip;
      const outcome = ctx.createOrder({
        type: 'MARKET',
        instrument: p.instrument,
        units: String(long ? p.units : -p.units),
        takeProfitOnFill: { price: takeProfit.toFixed(precision) },
        stopLossOnFill: { distance: (p.stopLossPips * pip).toFixed(precision) },
        clientExtensions: { tag: 'ma-crossover', comment: long ? 'fast crossed above slow' : 'fast crossed below slow' },
      });
      if (outcome.response['orderFillTransaction'] === undefined) {
        const why =
          outcome.reject?.errorMessage ?? outcome.invalid?.errorMessage ?? outcome.response['orderCancelTransaction']?.type ?? 'not filled';
        ctx.log(`entry ${long ? 'long' : 'short'} not filled: ${why}`);
      }
    };

    return {
      onStart(ctx) {
        const instrument = ctx.instrument(p.instrument);
        if (instrument === undefined) throw new Error(`unknown instrument ${p.instrument}`);
        precision = instrument.displayPrecision;
        pip = 10 ** instrument.pipLocation;
      },
      onTick(tick, ctx) {
        if (tick.instrument !== p.instrument) return;
        const index = Math.floor(tick.time / barMicros);
        if (index !== bar) {
          if (bar >= 0) {
            // The previous bar closed: update the averages and look for a cross.
            fast.push(close);
            slow.push(close);
            if (fast.ready && slow.ready) {
              const diff = fast.value - slow.value;
              if (previousDiff <= 0 && diff > 0) enter(ctx, tick, true);
              else if (previousDiff >= 0 && diff < 0) enter(ctx, tick, false);
              previousDiff = diff;
            }
          }
          bar = index;
        }
        close = (tick.bid + tick.ask) / 2;
      },
      onEnd(ctx) {
        if (!p.closeAtEnd) return;
        for (const position of ctx.openPositions()) {
          ctx.closePosition(position.instrument, {
            ...(position.long.units !== '0' ? { longUnits: 'ALL' } : {}),
            ...(position.short.units !== '0' ? { shortUnits: 'ALL' } : {}),
          });
        }
      },
    };
  },
};

export default strategy;
