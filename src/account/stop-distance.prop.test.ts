import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import { stopLossPriceFromDistance } from './placement.js';
import type { TradeRecord } from './state.js';

/**
 * A stop loss on fill given by distance: the integer-grid route of stopLossPriceFromDistance prints
 * what decimal.js prints for the same open price and distance (price -/+ distance, toFixed at the
 * instrument's precision), for distances on the grid, finer than it, and larger than the price.
 */
const decimalRoute = (price: string, long: boolean, distance: string, precision: number): string => {
  const p = new Decimal(price);
  const d = new Decimal(distance);
  return (long ? p.minus(d) : p.plus(d)).toFixed(precision);
};

const caseArb = fc
  .record({
    precision: fc.integer({ min: 0, max: 6 }),
    priceInt: fc.integer({ min: 1, max: 2_000_000_000 }),
    long: fc.boolean(),
    distanceInt: fc.integer({ min: 0, max: 3_000_000_000 }),
    // Digits past the precision: none, zeros only, or any (decimal.js rounds those half up).
    extra: fc.oneof(
      fc.constant(''),
      fc.constantFrom('0', '00'),
      fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0')),
    ),
  })
  .map(({ precision, priceInt, long, distanceInt, extra }) => {
    const scale = 10 ** precision;
    const text = (n: number, more = ''): string => {
      const fixed = new Decimal(n).dividedBy(scale).toFixed(precision);
      return more === '' ? fixed : precision === 0 ? `${fixed}.${more}` : fixed + more;
    };
    return { precision, long, price: text(priceInt), distance: text(distanceInt, extra) };
  });

const tradeAt = (price: string, long: boolean): TradeRecord =>
  ({ price, priceDecimal: new Decimal(price), currentUnits: new Decimal(long ? 100 : -100) }) as unknown as TradeRecord;

describe('stopLossPriceFromDistance', () => {
  it('prints what decimal.js prints for price -/+ distance at the precision', () => {
    fc.assert(
      fc.property(caseArb, ({ precision, long, price, distance }) => {
        expect(stopLossPriceFromDistance(tradeAt(price, long), distance, precision)).toBe(decimalRoute(price, long, distance, precision));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes a long stop below and a short stop above the open price', () => {
    expect(stopLossPriceFromDistance(tradeAt('1.10010', true), '0.00150', 5)).toBe('1.09860');
    expect(stopLossPriceFromDistance(tradeAt('1.10010', false), '0.00150', 5)).toBe('1.10160');
    expect(stopLossPriceFromDistance(tradeAt('1.10010', true), '0.001505', 5)).toBe('1.09860');
  });
});
