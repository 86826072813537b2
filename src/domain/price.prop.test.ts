import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, isDecimalString } from './decimal.js';
import { decimalToPriceInt, formatPriceInt, priceIntToDecimal, priceMidToDecimal, scaleOf, toPriceInt } from './price.js';

/** Grid values up to 10^12 (far beyond any FX price at 5 dp) and the precisions instruments use. */
const priceInt = fc.integer({ min: -1e12, max: 1e12 });
const precision = fc.integer({ min: 0, max: 8 });

describe('price grid round trips', () => {
  it('formatPriceInt prints exactly `precision` decimals and a valid DecimalNumber', () => {
    fc.assert(
      fc.property(priceInt, precision, (n, p) => {
        const s = formatPriceInt(n, p);
        expect(isDecimalString(s)).toBe(true);
        expect(s).toMatch(p === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${p}}$`));
        expect(s).not.toMatch(/^-?0\d/);
      }),
      { numRuns: 1000 },
    );
  });

  it('formatPriceInt agrees with Decimal and decimalToPriceInt inverts it', () => {
    fc.assert(
      fc.property(priceInt, precision, (n, p) => {
        const s = formatPriceInt(n, p);
        const d = new Decimal(s);
        expect(d.equals(priceIntToDecimal(n, p))).toBe(true);
        expect(d.toFixed(p)).toBe(s);
        expect(decimalToPriceInt(d, p)).toBe(n);
      }),
      { numRuns: 1000 },
    );
  });

  it('a float read from the formatted string comes back to the same grid value (toPriceInt)', () => {
    fc.assert(
      fc.property(priceInt, precision, (n, p) => {
        expect(toPriceInt(Number(formatPriceInt(n, p)), scaleOf(p))).toBe(n);
      }),
      { numRuns: 1000 },
    );
  });

  it('decimalToPriceInt rejects one digit more than the precision allows', () => {
    fc.assert(
      fc.property(priceInt, precision, fc.integer({ min: 1, max: 9 }), (n, p, extra) => {
        const finer = priceIntToDecimal(n, p).plus(new Decimal(extra).dividedBy(scaleOf(p) * 10));
        expect(decimalToPriceInt(finer, p)).toBeNull();
      }),
    );
  });

  it('decimalToPriceInt reads a value as decimal.js multiplies it out, any size, any digits', () => {
    // The decimal.js route it takes when the value's text does not read as a safe grid integer.
    const multiplied = (d: Decimal, p: number): number | null => {
      const scaled = d.times(scaleOf(p));
      return scaled.isInteger() ? scaled.toNumber() : null;
    };
    const digits = (max: number): fc.Arbitrary<string> =>
      fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: max }).map((a) => a.join(''));
    const value = fc
      .tuple(fc.boolean(), digits(24), digits(14), fc.integer({ min: -30, max: 30 }))
      .map(([negative, whole, fraction, shift]) =>
        new Decimal(`${negative ? '-' : ''}${whole === '' ? '0' : whole}.${fraction}0`).times(new Decimal(10).pow(shift)),
      );
    fc.assert(
      fc.property(value, precision, (d, p) => {
        // Compared with ===: a negative zero (-0.000 multiplies out to -0) is the grid's zero either way.
        const got = decimalToPriceInt(d, p);
        const want = multiplied(d, p);
        expect(got === want, `${d.toString()} at ${p}: ${String(got)} vs ${String(want)}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('the grid keeps the order of prices', () => {
    fc.assert(
      fc.property(priceInt, priceInt, precision, (a, b, p) => {
        const cmp = priceIntToDecimal(a, p).comparedTo(priceIntToDecimal(b, p));
        expect(cmp).toBe(Math.sign(a - b));
      }),
    );
  });
});

/**
 * Grid integers become Decimals by multiplying with 10^-p (5 x 10^-(p+1) for a mid): the same values,
 * digit for digit, as dividing by 10^p (and 2 x 10^p), at every precision an instrument may have.
 */
describe('grid integers as Decimals', () => {
  const anyPrecision = fc.integer({ min: 0, max: 15 });
  const safe = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

  it('priceIntToDecimal is the quotient by 10^p', () => {
    fc.assert(
      fc.property(safe, anyPrecision, (n, p) => {
        expect(priceIntToDecimal(n, p).toString()).toBe(new Decimal(n).dividedBy(new Decimal(10).pow(p)).toString());
      }),
      { numRuns: 3000 },
    );
  });

  it('priceMidToDecimal is the quotient by 2 x 10^p', () => {
    fc.assert(
      fc.property(safe, anyPrecision, (sum, p) => {
        expect(priceMidToDecimal(sum, p).toString()).toBe(new Decimal(sum).dividedBy(new Decimal(10).pow(p).times(2)).toString());
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a precision outside 0..15', () => {
    expect(() => priceIntToDecimal(1, 16)).toThrow(/precision out of range/);
    expect(() => priceMidToDecimal(1, -1)).toThrow(/precision out of range/);
  });
});
