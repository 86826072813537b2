import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import { T0, quotes, strategyOf } from './helpers.js';

/** Each tick: 0 does nothing, a positive n buys n x 1,000, a negative n sells; the run closes nothing itself. */
function trader(instrument: string, actions: readonly number[]) {
  let i = 0;
  return strategyOf({
    onTick(_tick, ctx) {
      const n = actions[i] ?? 0;
      i += 1;
      if (n !== 0) ctx.createOrder({ type: 'MARKET', instrument, units: String(n * 1000) });
    },
  });
}

const walk = (start: number, step: number) =>
  fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 2, maxLength: 40 }).map((moves) => {
    let mid = start;
    return moves.map((m) => {
      mid += m * step;
      return [Number((mid - step).toFixed(5)), Number((mid + step).toFixed(5))] as const;
    });
  });

describe('report cost metrics, for any run', () => {
  it('the conversion fee never pays the trader: conversionCost >= 0, the sum of its two parts', () => {
    fc.assert(
      fc.property(walk(150, 0.01), fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 40 }), (prices, actions) => {
        const result = runBacktest({ strategy: trader('USD_JPY', actions), ticks: quotes(prices, 'USD_JPY', T0, 3600 * 1_000_000) });
        const m = result.metrics;
        expect(m.conversionCostPL).toBeGreaterThanOrEqual(0);
        expect(m.conversionCostFinancing).toBeGreaterThanOrEqual(0);
        // Each is rounded to 4 decimals on its own: the rounded sum may differ by one unit in the last place.
        expect(Math.abs(m.conversionCost - (m.conversionCostPL + m.conversionCostFinancing))).toBeLessThan(0.00011);
      }),
      { numRuns: 25 },
    );
  });

  it('an instrument quoted in the account currency costs no conversion', () => {
    fc.assert(
      fc.property(walk(1.1, 0.0001), fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 40 }), (prices, actions) => {
        const result = runBacktest({ strategy: trader('EUR_USD', actions), ticks: quotes(prices, 'EUR_USD', T0, 3600 * 1_000_000) });
        expect(result.metrics).toMatchObject({ conversionCostPL: 0, conversionCostFinancing: 0, conversionCost: 0, marginCloseouts: 0 });
      }),
      { numRuns: 25 },
    );
  });
});
