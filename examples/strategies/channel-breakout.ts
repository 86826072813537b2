/**
 * Channel breakout on OANDA-style candles: when an M15 candle closes above the highest high (or
 * below the lowest low) of the `lookback` candles before it, enter in that direction with a stop
 * loss at the channel's other side and a take profit `reward` times that distance away. The
 * candles come from ctx.candles, the same request a strategy makes to OANDA (GET
 * /v3/instruments/EUR_USD/candles?granularity=M15&count=21&price=M); the strategy declares them
 * (`candles`), and asks only when a candle has closed.
 *
 *   v20sim backtest --strategy examples/strategies/channel-breakout.ts --param lookback=10,20,40
 */
import type { StrategyDefinition } from '../../src/backtest/index.js';

const params = {
  instrument: 'EUR_USD',
  /** Closed M15 candles that make the channel. */
  lookback: 20,
  /** Take profit distance as a multiple of the stop loss distance. */
  reward: 1.5,
  units: 10_000,
};

const M15 = 15 * 60 * 1_000_000;

const strategy: StrategyDefinition<typeof params> = {
  name: 'channel-breakout',
  params,
  candles: ['EUR_USD:M15'],
  create(p) {
    if (!(Number.isInteger(p.lookback) && p.lookback >= 2)) throw new Error('lookback must be a whole number of candles, at least 2');
    let candle = -1;
    return {
      onTick(tick, ctx) {
        if (tick.instrument !== p.instrument) return;
        const index = Math.floor(tick.time / M15);
        if (index === candle) return;
        candle = index;
        // A new candle has begun: the one before it has closed.
        const { candles } = ctx.candles(p.instrument, { granularity: 'M15', count: p.lookback + 2, price: 'M' });
        const closed = candles.filter((c) => c.complete);
        if (closed.length < p.lookback + 1) return;
        const last = closed[closed.length - 1]?.mid;
        const channel = closed.slice(-p.lookback - 1, -1).map((c) => c.mid);
        if (last === undefined || channel.some((m) => m === undefined)) return;
        const high = Math.max(...channel.map((m) => Number(m?.h)));
        const low = Math.min(...channel.map((m) => Number(m?.l)));
        const close = Number(last.c);
        const long = close > high;
        if (!long && close >= low) return;
        const position = ctx.position(p.instrument);
        if (position.long.units !== '0' || position.short.units !== '0') return; // one trade at a time
        const precision = ctx.instrument(p.instrument)?.displayPrecision ?? 5;
        const entry = long ? tick.ask : tick.bid;
        const risk = long ? entry - low : high - entry;
        if (!(risk > 0)) return;
        ctx.createOrder({
          type: 'MARKET',
          instrument: p.instrument,
          units: String(long ? p.units : -p.units),
          stopLossOnFill: { price: (long ? low : high).toFixed(precision) },
          takeProfitOnFill: { price: (entry + (long ? 1 : -1) * p.reward * risk).toFixed(precision) },
          clientExtensions: { tag: 'channel-breakout', comment: long ? 'closed above the channel' : 'closed below the channel' },
        });
      },
    };
  },
};

export default strategy;
