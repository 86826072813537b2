import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, isDecimalString } from './decimal.js';
import { decimalToPriceInt, parsePriceInt } from './price.js';

/** The Decimal route the fast parser replaces: same answer for every plain non-negative decimal. */
function viaDecimal(text: string, precision: number): number | null {
  if (!isDecimalString(text) || text.startsWith('-')) return null;
  const value = decimalToPriceInt(new Decimal(text), precision);
  return value === null || !Number.isSafeInteger(value) ? null : value;
}

describe('parsePriceInt', () => {
  it('agrees with the Decimal route on decimal-looking strings', () => {
    const decimalText = fc
      .tuple(
        fc.constantFrom('', '+', '-'),
        fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), maxLength: 9 }),
        fc.option(fc.string({ unit: fc.constantFrom('0', '0', '1', '7'), maxLength: 9 }), { nil: undefined }),
      )
      .map(([sign, int, frac]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}`);
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 8 }), (text, precision) => {
        expect(parsePriceInt(text, precision)).toBe(viaDecimal(text, precision));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses anything that is not a plain decimal', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.integer({ min: 0, max: 8 }), (text, precision) => {
        const fast = parsePriceInt(text, precision);
        if (!isDecimalString(text) || text.startsWith('-')) expect(fast).toBeNull();
        else expect(fast).toBe(viaDecimal(text, precision));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads the grid exactly', () => {
    expect(parsePriceInt('1.10100', 5)).toBe(110100);
    expect(parsePriceInt('1.1', 5)).toBe(110000);
    expect(parsePriceInt('101.000', 3)).toBe(101000);
    expect(parsePriceInt('1.123456', 5)).toBeNull();
    expect(parsePriceInt('1.1234560', 6)).toBe(1123456);
    expect(parsePriceInt('.5', 1)).toBe(5);
    expect(parsePriceInt('5.', 2)).toBe(500);
    expect(parsePriceInt('.', 2)).toBeNull();
    expect(parsePriceInt('1e5', 2)).toBeNull();
  });
});
