/**
 * What backtesting on candles costs in fidelity: the same strategy over OANDA's real EUR/USD ticks
 * (May 2014, ../shared) and over the M1 bid/ask candles built from those very ticks, read through
 * the candle feed's rule (open, nearer extreme, other extreme, close). The difference is printed
 * and bounded loosely; README "Backtests on candles" records it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import maCrossover from '../../examples/strategies/ma-crossover.js';
import { runBacktest } from '../../src/backtest/runner.js';
import { readTicks } from '../../src/engine/feeds/index.js';
import type { Tick } from '../../src/domain/tick.js';
import { hasLeanData, leanTicks } from '../support/lean-eurusd.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);
const M1 = 60_000_000;

interface Side {
  o: number;
  h: number;
  l: number;
  c: number;
}

/** M1 bid/ask candles of the ticks, as `v20sim download candles` writes them. */
function m1Candles(ticks: Iterable<Tick>): string[] {
  const lines: string[] = [];
  let start = -1;
  let bid: Side = { o: 0, h: 0, l: 0, c: 0 };
  let ask: Side = { o: 0, h: 0, l: 0, c: 0 };
  const fmt = (s: Side): Record<string, string> => ({ o: s.o.toFixed(5), h: s.h.toFixed(5), l: s.l.toFixed(5), c: s.c.toFixed(5) });
  const flush = (): void => {
    if (start >= 0)
      lines.push(
        JSON.stringify({
          instrument: 'EUR_USD',
          granularity: 'M1',
          time: new Date(start / 1000).toISOString(),
          bid: fmt(bid),
          ask: fmt(ask),
          complete: true,
        }),
      );
  };
  for (const t of ticks) {
    const minute = Math.floor(t.time / M1) * M1;
    if (minute !== start) {
      flush();
      start = minute;
      bid = { o: t.bid, h: t.bid, l: t.bid, c: t.bid };
      ask = { o: t.ask, h: t.ask, l: t.ask, c: t.ask };
      continue;
    }
    bid = { o: bid.o, h: Math.max(bid.h, t.bid), l: Math.min(bid.l, t.bid), c: t.bid };
    ask = { o: ask.o, h: Math.max(ask.h, t.ask), l: Math.min(ask.l, t.ask), c: t.ask };
  }
  flush();
  return lines;
}

describe.skipIf(!hasLeanData())('a backtest on M1 candles against the same backtest on the ticks they were built from', () => {
  it('runs on both and reports the difference', () => {
    const candles = m1Candles(leanTicks());
    const file = path.join(tempDir(), 'eurusd-m1.ndjson');
    writeFileSync(file, `${candles.join('\n')}\n`);
    const onTicks = runBacktest({ strategy: maCrossover, ticks: { [Symbol.iterator]: () => leanTicks() } });
    const onCandles = runBacktest({ strategy: maCrossover, ticks: readTicks(file) });
    expect(onCandles.ticks).toBe(4 * candles.length);
    const a = onTicks.metrics;
    const b = onCandles.metrics;
    console.log(
      `ma-crossover, EUR_USD May 2014: ${onTicks.ticks} ticks -> ${a.trades} trades, net P/L ${a.netPL}, spread cost ${a.spreadCost}; ` +
        `${candles.length} M1 candles (${onCandles.ticks} quotes) -> ${b.trades} trades, net P/L ${b.netPL}, spread cost ${b.spreadCost}`,
    );
    // The strategy's 5-minute bars see the same closes either way, so it trades about as often;
    // what differs is where inside a minute its orders fill.
    expect(a.trades).toBeGreaterThan(20);
    expect(Math.abs(b.trades - a.trades)).toBeLessThanOrEqual(Math.ceil(a.trades * 0.25));
  });
});
