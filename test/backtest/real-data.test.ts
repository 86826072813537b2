import { describe, expect, it } from 'vitest';
import {
  describeSources,
  loadStrategy,
  openTicks,
  reportJsonText,
  runBacktest,
  tradesCsv,
  transactionsNdjson,
} from '../../src/backtest/index.js';
import { readLeanColumns, readTickColumns } from '../../src/backtest/tick-columns.js';
import { LEAN_DIR, hasLeanData, leanFiles } from '../support/lean-eurusd.js';

const STRATEGIES = ['examples/strategies/ma-crossover.ts', 'examples/strategies/grid.ts'];

if (!hasLeanData()) process.stderr.write(`real-data backtests skipped: the OANDA EUR/USD ticks are not at ${LEAN_DIR}\n`);

describe.skipIf(!hasLeanData())('example strategies on the 532,903 recorded OANDA EUR/USD ticks (May 2014)', () => {
  for (const file of STRATEGIES) {
    it(`${file}: trades, keeps the books consistent, and repeats itself exactly`, async () => {
      const strategy = await loadStrategy(file);
      const run = () => runBacktest({ strategy, ticks: openTicks(leanFiles()), sources: describeSources(leanFiles()) });
      const result = run();
      const m = result.metrics;
      expect(result.ticks).toBe(532_903);
      expect(result.instruments).toEqual([['EUR_USD', 532_903]]);
      expect(m.startTime).toBe('2014-05-01T00:00:00.292000000Z');
      expect(m.trades).toBeGreaterThan(20);
      expect(m.openTrades).toBe(0); // both examples close everything at the end
      expect(m.rejects).toBe(0);
      expect(m.tradingDays).toBeGreaterThanOrEqual(10);
      expect(m.sharpe).not.toBeNull();
      // Balance = deposit + realized P/L + financing; the last mark-to-market point is the final NAV.
      expect(m.finalBalance).toBeCloseTo(100_000 + m.realizedPL + m.financing, 3);
      expect(result.equity.nav.at(-1)).toBeCloseTo(m.finalNAV, 3);
      expect(m.grossProfit + m.grossLoss).toBeCloseTo(m.realizedPL, 3);
      expect(m.spreadCost).toBeGreaterThan(0);
      // The weekend gap (2 to 4 May) is left out of the daily returns, not counted as flat days.
      expect(m.tradingDays).toBeLessThanOrEqual(13);
      const again = run();
      expect(reportJsonText(again)).toBe(reportJsonText(result));
      expect(tradesCsv(again)).toBe(tradesCsv(result));
      expect(transactionsNdjson(again)).toBe(transactionsNdjson(result));
    });
  }

  it('the sweep reads each LEAN zip straight from its bytes into the very columns the general reader gives', () => {
    let ticks = 0;
    for (const file of leanFiles()) {
      const fast = readLeanColumns(file, {}, Number.MAX_SAFE_INTEGER);
      const general = readTickColumns(openTicks([file]), Number.MAX_SAFE_INTEGER);
      expect(fast, file).toBeDefined();
      expect(fast?.count).toBe(general?.count);
      expect(fast?.instruments).toEqual(general?.instruments);
      for (const column of ['time', 'bid', 'ask', 'instrument'] as const)
        expect(Array.from(fast?.[column] ?? []), `${file} ${column}`).toEqual(Array.from(general?.[column] ?? []));
      ticks += fast?.count ?? 0;
    }
    expect(ticks).toBe(532_903);
  });
});
