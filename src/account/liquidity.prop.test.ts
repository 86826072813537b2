import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PriceLevel } from '../domain/tick.js';
import type { OrderFillTransaction, OrderTransaction } from '../domain/transactions.js';
import { Sim } from './test-helpers.js';

/** A side of 1-4 levels on EUR_USD's grid, best first, with made-up sizes. */
function sideOf(top: number, steps: number[], sizes: number[], isAsk: boolean): PriceLevel[] {
  let price = top;
  return sizes.map((liquidity, i) => {
    if (i > 0) price += (isAsk ? 1 : -1) * (steps[i] ?? 1);
    return { price: price / 100000, liquidity };
  });
}

const levels = fc.record({
  steps: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 4, maxLength: 4 }),
  sizes: fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }),
});
const order = fc.record({
  type: fc.constantFrom('MARKET', 'LIMIT'),
  units: fc.integer({ min: 1, max: 12000 }),
  buy: fc.boolean(),
  tif: fc.constantFrom('FOK', 'IOC', 'GTC'),
  limitOffset: fc.integer({ min: 0, max: 12 }),
});

describe('fills on quotes with liquidity levels (property)', () => {
  it('conserve units, never exceed the order or the free liquidity, and price within the levels used', () => {
    fc.assert(
      fc.property(levels, levels, fc.array(order, { minLength: 1, maxLength: 6 }), (b, a, orders) => {
        const sim = new Sim({ balance: '10000000' });
        const bids = sideOf(110000, b.steps, b.sizes, false);
        const asks = sideOf(110020, a.steps, a.sizes, true);
        sim.step();
        sim.account.onQuote({ instrument: 'EUR_USD', time: sim.now, bid: 1.1, ask: 1.1002, bids, asks });
        const free = { bid: b.sizes.reduce((s, x) => s + x, 0), ask: a.sizes.reduce((s, x) => s + x, 0) };
        for (const o of orders) {
          const units = o.buy ? o.units : -o.units;
          const request: Record<string, unknown> = { type: o.type, instrument: 'EUR_USD', units: String(units) };
          if (o.type === 'MARKET') request['timeInForce'] = o.tif === 'GTC' ? 'IOC' : o.tif;
          else {
            request['timeInForce'] = o.tif;
            const limit = o.buy ? 110020 + o.limitOffset : 110000 - o.limitOffset;
            request['price'] = (limit / 100000).toFixed(5);
          }
          const out = sim.order(request as never);
          const fill = out.response['orderFillTransaction'] as OrderFillTransaction | undefined;
          const reissued = out.response['orderReissueTransaction'] as OrderTransaction | undefined;
          const side = o.buy ? asks : bids;
          const key = o.buy ? 'ask' : 'bid';
          if (fill === undefined) continue;
          const filled = Math.abs(Number(fill.units));
          expect(filled).toBeGreaterThan(0);
          expect(filled).toBeLessThanOrEqual(o.units);
          expect(filled).toBeLessThanOrEqual(free[key]);
          free[key] -= filled;
          if (o.tif === 'FOK') expect(filled).toBe(o.units);
          // Units conservation: what filled plus what was reissued is what was ordered.
          const rest = reissued === undefined ? 0 : Math.abs(Number(reissued.units));
          if (o.type === 'LIMIT' && o.tif === 'GTC') expect(filled + rest).toBe(o.units);
          else expect(rest).toBe(0);
          const price = Number(fill.price);
          const prices = side.map((l) => l.price);
          expect(price).toBeGreaterThanOrEqual(Math.min(...prices) - 1e-9);
          expect(price).toBeLessThanOrEqual(Math.max(...prices) + 1e-9);
          if (o.type === 'LIMIT') {
            const limit = Number(request['price']);
            if (o.buy) expect(price).toBeLessThanOrEqual(limit + 1e-9);
            else expect(price).toBeGreaterThanOrEqual(limit - 1e-9);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
