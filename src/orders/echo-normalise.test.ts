import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import { ORDER_TYPE_RULES } from '../domain/order-types.js';
import { buildEcho } from './echo.js';

/**
 * Prices, distances and units in the order transactions as v20 prints them: "1.2" as "1.20000" at
 * EUR_USD's displayPrecision 5, "+100" and "100.0" as "100"; what does not fit is echoed as sent.
 */
const LIMIT = ORDER_TYPE_RULES.LIMIT;
const echo = (r: Record<string, unknown>): Record<string, unknown> =>
  buildEcho(LIMIT, { type: 'LIMIT', instrument: 'EUR_USD', ...r }, 'GTC', 'DEFAULT', 'DEFAULT', 5);

describe('normalised echoes', () => {
  it('pads prices to the precision, drops the sign and fraction of whole units, on-fill details too', () => {
    expect(echo({ units: '+100', price: '1.2', takeProfitOnFill: { price: '1.3' }, stopLossOnFill: { distance: '0.005' } })).toMatchObject({
      units: '100',
      price: '1.20000',
      takeProfitOnFill: { price: '1.30000' },
      stopLossOnFill: { distance: '0.00500' },
    });
    expect(echo({ units: '-25.00', price: '1.10000' })).toMatchObject({ units: '-25', price: '1.10000' });
  });

  it('echoes as sent what does not fit: too many decimals, malformed, zero, fractional units', () => {
    expect(echo({ units: '0', price: '1.123456' })).toMatchObject({ units: '0', price: '1.123456' });
    expect(echo({ units: '1.5', price: 'abc' })).toMatchObject({ units: '1.5', price: 'abc' });
  });

  it('is idempotent and keeps the value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: -10_000, max: 10_000 }),
        (points, cut, units) => {
          const text = new Decimal(points)
            .dividedBy(100_000)
            .toFixed(5)
            .slice(0, 7 - cut)
            .replace(/\.$/, '');
          const once = echo({ units: units >= 0 ? `+${units}` : `${units}.0`, price: text });
          const twice = echo({ units: once['units'], price: once['price'] });
          expect(twice).toEqual(once);
          expect(new Decimal(once['price'] as string).equals(new Decimal(text))).toBe(true);
          if (units !== 0) expect(once['units']).toBe(String(units));
        },
      ),
    );
  });
});
