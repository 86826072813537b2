import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marginBounds } from './margin-watch.js';
import { Sim } from './test-helpers.js';
import { valueAccount } from './valuation.js';

/**
 * The float bounds that let a margin check skip the Decimal valuation (margin-watch.ts) must bound
 * the exact figures: whenever they are given, the exact closeout NAV is at least their NAV, the
 * exact margin used at most their margin, and the account is clear of both levels.
 */

const PAIRS = [
  { name: 'EUR_USD', mid: 1.1, pip: 0.0001 },
  { name: 'USD_JPY', mid: 150, pip: 0.01 },
  { name: 'EUR_GBP', mid: 0.88, pip: 0.0001 },
  { name: 'GBP_USD', mid: 1.25, pip: 0.0001 },
] as const;

const step = fc.oneof(
  fc.record({ k: fc.constant('quote' as const), i: fc.integer({ min: 0, max: 3 }), pips: fc.integer({ min: -3000, max: 3000 }) }),
  fc.record({ k: fc.constant('market' as const), i: fc.integer({ min: 0, max: 3 }), units: fc.integer({ min: -60_000, max: 60_000 }) }),
);

describe('margin bounds', () => {
  it('bound the exact closeout NAV from below and the margin used from above, and only clear of both levels', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('500', '5000', '100000'),
        fc.constantFrom('0', '0.005', '0.0999'),
        fc.array(step, { maxLength: 30 }),
        (balance, fee, steps) => {
          const sim = new Sim({ balance, homeConversionFee: fee, marginCloseout: false });
          const mids: number[] = PAIRS.map((p) => p.mid);
          for (const [i, p] of PAIRS.entries()) sim.quote(p.name, mids[i] as number, (mids[i] as number) + 2 * p.pip);
          for (const s of steps) {
            const p = PAIRS[s.i] as (typeof PAIRS)[number];
            if (s.k === 'quote') {
              mids[s.i] = Math.max(p.pip * 100, (mids[s.i] as number) + s.pips * p.pip);
              const bid = Number((mids[s.i] as number).toFixed(p.pip === 0.01 ? 3 : 5));
              sim.quote(p.name, bid, Number((bid + 2 * p.pip).toFixed(p.pip === 0.01 ? 3 : 5)));
            } else if (s.units !== 0) {
              sim.order({ type: 'MARKET', instrument: p.name, units: String(s.units) });
            }
            const bounds = marginBounds(sim.account.state);
            if (bounds === undefined) continue;
            const v = valueAccount(sim.account.state);
            expect(bounds.nav).toBeLessThanOrEqual(v.marginCloseoutNAV.toNumber());
            expect(bounds.used).toBeGreaterThanOrEqual(v.marginCallMarginUsed.toNumber());
            expect(v.marginCallPercent.lessThan(1)).toBe(true);
            expect(v.marginCloseoutPercent.lessThan(1)).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
