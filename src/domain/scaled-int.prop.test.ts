import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, formatAccountUnits, formatFixed, formatUnits } from './decimal.js';
import { divRoundHalfUp, formatScaled, fractionDigits, parseScaled, pow10 } from './scaled-int.js';

/**
 * The integer helpers of the fill path against the decimal.js expressions they replace: the
 * strings must be identical for every value they accept.
 */
const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const smallish = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), safe);
const decimals = fc.integer({ min: 0, max: 15 });

describe('formatScaled', () => {
  it('prints n / 10^d as Decimal#toFixed(d) does, without a negative zero (formatFixed)', () => {
    fc.assert(
      fc.property(smallish, decimals, (n, d) => {
        expect(formatScaled(n, d)).toBe(formatFixed(new Decimal(n).dividedBy(new Decimal(10).pow(d)), d));
      }),
      { numRuns: 5000 },
    );
  });

  it('at 4 decimals is formatAccountUnits; at 0 it is formatUnits', () => {
    fc.assert(
      fc.property(smallish, (n) => {
        expect(formatScaled(n, 4)).toBe(formatAccountUnits(new Decimal(n).dividedBy(10_000)));
        expect(formatScaled(n, 0)).toBe(formatUnits(new Decimal(n)));
      }),
      { numRuns: 3000 },
    );
  });

  it('handles zero, negative zero and the edges', () => {
    expect(formatScaled(0, 4)).toBe('0.0000');
    expect(formatScaled(-0, 4)).toBe('0.0000');
    expect(formatScaled(-0, 0)).toBe('0');
    expect(formatScaled(-1, 5)).toBe('-0.00001');
    expect(formatScaled(Number.MAX_SAFE_INTEGER, 15)).toBe('9.007199254740991');
    expect(formatScaled(Number.MIN_SAFE_INTEGER, 3)).toBe('-9007199254740.991');
  });
});

describe('divRoundHalfUp', () => {
  it('is Decimal division rounded half away from zero (ROUND_HALF_UP), never -0', () => {
    const divisor = fc.oneof(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 1, max: 15 }).map((k) => pow10(k)),
      fc.integer({ min: 1, max: 15 }).map((k) => 2 * pow10(k)),
    );
    fc.assert(
      fc.property(smallish, divisor, (n, d) => {
        const q = divRoundHalfUp(n, d);
        const expected = new Decimal(n).dividedBy(d).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
        expect(q).toBe(expected === 0 ? 0 : expected);
        expect(Object.is(q, -0)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('rounds exact halves away from zero', () => {
    expect(divRoundHalfUp(5, 10)).toBe(1);
    expect(divRoundHalfUp(-5, 10)).toBe(-1);
    expect(divRoundHalfUp(4, 10)).toBe(0);
    expect(divRoundHalfUp(-4, 10)).toBe(0);
    expect(divRoundHalfUp(15, 10)).toBe(2);
    expect(divRoundHalfUp(-25, 10)).toBe(-3);
    expect(divRoundHalfUp(3, 2)).toBe(2);
  });
});

describe('parseScaled', () => {
  const text = fc
    .tuple(
      fc.constantFrom('', '-', '+'),
      fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), maxLength: 18 }),
      fc.option(fc.string({ unit: fc.constantFrom('0', '3', '7'), maxLength: 10 }), { nil: undefined }),
    )
    .map(([sign, int, frac]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}`);

  it('reads decimal strings onto the 10^-d grid as decimal.js does, or refuses', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 8 }), (t, d) => {
        const got = parseScaled(t, d);
        const valid = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(t);
        if (!valid) {
          expect(got).toBeNull();
          return;
        }
        const scaled = new Decimal(t).times(new Decimal(10).pow(d));
        if (!scaled.isInteger() || scaled.abs().greaterThan(Number.MAX_SAFE_INTEGER)) {
          expect(got).toBeNull();
          return;
        }
        expect(got).toBe(scaled.toNumber() === 0 ? 0 : scaled.toNumber());
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses what is not a plain decimal', () => {
    for (const t of ['', '-', '+', '.', '1e5', '1.2.3', ' 1', '0x10', 'abc', '1,5']) expect(parseScaled(t, 4)).toBeNull();
    expect(parseScaled('-0', 0)).toBe(0);
    expect(parseScaled('100.00', 0)).toBe(100);
    expect(parseScaled('100.01', 0)).toBeNull();
    expect(parseScaled('-12.5', 4)).toBe(-125_000);
    expect(parseScaled('9007199254740991', 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseScaled('9007199254740992', 0)).toBeNull();
  });
});

describe('small helpers', () => {
  it('pow10 and fractionDigits', () => {
    expect(pow10(0)).toBe(1);
    expect(pow10(15)).toBe(1e15);
    expect(pow10(16)).toBeNaN();
    expect(fractionDigits('0.0333')).toBe(4);
    expect(fractionDigits('1')).toBe(0);
    expect(fractionDigits('0.050')).toBe(3);
  });

  it('the fill formulas on integers equal their Decimal forms (P/L, half spread, margin)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -2_000_000, max: 2_000_000 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 1, max: 6 }),
        (units, price, diff, p, rateNum, rateDp) => {
          const scale = new Decimal(10).pow(p);
          // realized P/L: units × (close − open) at 10^-p, rounded to 4 decimals
          const points = units * diff;
          if (Number.isSafeInteger(points)) {
            const r = p >= 4 ? divRoundHalfUp(points, pow10(p - 4)) : points * pow10(4 - p);
            expect(formatScaled(r, 4)).toBe(formatAccountUnits(new Decimal(diff).dividedBy(scale).times(units)));
          }
          // initial margin: units × mid × rate with mid = sum2 / (2 × 10^p)
          const sum2 = 2 * price + (diff & 7);
          const product = units * sum2 * rateNum;
          const e = p + rateDp - 4;
          if (Number.isSafeInteger(product) && e <= 15) {
            const m = e >= 0 ? divRoundHalfUp(product, 2 * pow10(e)) : divRoundHalfUp(product * pow10(-e), 2);
            const rateText = (rateNum / 10 ** rateDp).toFixed(rateDp);
            const mid = new Decimal(sum2).dividedBy(scale.times(2));
            if (Number.isSafeInteger(product * pow10(Math.max(0, -e))))
              expect(formatScaled(m, 4)).toBe(formatAccountUnits(new Decimal(units).times(mid).times(rateText)));
          }
        },
      ),
      { numRuns: 5000 },
    );
  });
});
