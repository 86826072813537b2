import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import type { PriceSlot } from './state.js';
import { intToDecimal, midDecimal } from './valuation.js';

/**
 * Grid integers become Decimals by multiplying with 10^-p (and 5 x 10^-(p+1) for a mid): the same
 * values, digit for digit, as dividing by 10^p (and 2 x 10^p), at every precision an instrument
 * may have (0 to 15).
 */
const precisionArb = fc.integer({ min: 0, max: 15 });
const gridArb = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

describe('grid integers as Decimals', () => {
  it('intToDecimal equals the quotient by 10^p', () => {
    fc.assert(
      fc.property(gridArb, precisionArb, (value, p) => {
        const expected = new Decimal(value).dividedBy(new Decimal(10).pow(p));
        const got = intToDecimal(value, p);
        expect(got.toString()).toBe(expected.toString());
        expect(got.eq(expected)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('midDecimal equals (bid + ask) / (2 x 10^p)', () => {
    const sideArb = fc.integer({ min: 0, max: 2 ** 50 });
    fc.assert(
      fc.property(sideArb, sideArb, precisionArb, (bid, ask, p) => {
        const expected = new Decimal(bid + ask).dividedBy(new Decimal(10).pow(p).times(2));
        const got = midDecimal({ bid, ask } as PriceSlot, p);
        expect(got.toString()).toBe(expected.toString());
      }),
      { numRuns: 3000 },
    );
  });
});
