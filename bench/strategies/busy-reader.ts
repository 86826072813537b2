/**
 * A strategy that asks the account questions on every tick and trades often: the benchmark of the
 * strategy context's reads (bench/backtest.bench.ts). Each tick it reads its position and the
 * account summary; every `every` ticks it either enters (flat) or, after `hold` ticks in the
 * market, reads the position's unrealized P/L and closes it. Entries alternate long and short and
 * carry a take profit and stop loss, so some exits rest on the account and fill by themselves.
 *
 * `read: false` keeps the trading and drops the per-tick reads: the difference between the two
 * runs is what the reads cost.
 */
import type { StrategyDefinition } from '../../src/backtest/index.js';

const params = {
  instrument: 'EUR_USD',
  /** Ticks between decisions. */
  every: 50,
  /** Ticks to stay in a position before closing it. */
  hold: 100,
  units: 10_000,
  /** Read the position and summary on every tick (false: only when deciding). */
  read: true,
};

type Params = typeof params;

const strategy: StrategyDefinition<Params> = {
  name: 'busy-reader',
  params,
  create(p) {
    let ticks = 0;
    let openedAt = 0;
    let long = true;
    let checksum = 0;
    return {
      onTick(tick, ctx) {
        if (tick.instrument !== p.instrument) return;
        ticks += 1;
        if (p.read) {
          const position = ctx.position(p.instrument);
          const summary = ctx.summary();
          // Reads a strategy makes to know where it stands: units, open trades, cash.
          if (position.long.units !== '0' || position.short.units !== '0') checksum += 1;
          checksum += summary.openTradeCount + summary.pendingOrderCount + summary.balance.length + summary.lastTransactionID.length;
        }
        if (ticks % p.every !== 0) return;
        const position = ctx.position(p.instrument);
        const flat = position.long.units === '0' && position.short.units === '0';
        if (flat) {
          const outcome = ctx.createOrder({
            type: 'MARKET',
            instrument: p.instrument,
            units: String(long ? p.units : -p.units),
            takeProfitOnFill: { price: (long ? tick.ask + 0.002 : tick.bid - 0.002).toFixed(5) },
            stopLossOnFill: { distance: '0.00150' },
          });
          if (outcome.response['orderFillTransaction'] !== undefined) openedAt = ticks;
          long = !long;
        } else if (ticks - openedAt >= p.hold) {
          // The P/L is a price-dependent figure: read only when it decides something.
          if (position.unrealizedPL.startsWith('-')) checksum += 1;
          ctx.closePosition(p.instrument, position.long.units !== '0' ? { longUnits: 'ALL' } : { shortUnits: 'ALL' });
        }
      },
      onEnd(ctx) {
        ctx.log(`reads checksum ${checksum}`);
        for (const position of ctx.openPositions()) {
          ctx.closePosition(position.instrument, position.long.units !== '0' ? { longUnits: 'ALL' } : { shortUnits: 'ALL' });
        }
      },
    };
  },
};

export default strategy;
