import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, formatAccountUnits, formatFixed, formatUnits } from './decimal.js';

/** The printers as decimal.js alone prints them: what the fast path of decimal.ts must reproduce. */
const reference = {
  accountUnits: (value: Decimal): string => {
    const s = value.toFixed(4);
    return s === '-0.0000' ? '0.0000' : s;
  },
  fixed: (value: Decimal, decimals: number): string => {
    const s = value.toFixed(decimals);
    return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
  },
  units: (value: Decimal): string => (value.isZero() ? '0' : value.toFixed()),
};

/** Decimals as the account meets them: whole and fractional, tiny and huge, of either sign, and -0. */
const decimals = fc.oneof(
  fc.tuple(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.integer({ min: 0, max: 12 })).map(([n, scale]) => {
    const digits = (n < 0n ? -n : n).toString().padStart(scale + 1, '0');
    const text = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    return new Decimal(n < 0n ? `-${text}` : text);
  }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => new Decimal(x)),
  fc.constantFrom(new Decimal(0).negated(), new Decimal('1e35'), new Decimal('-1e29'), new Decimal('0.00005'), new Decimal('-0.00005')),
);

describe('decimal printers', () => {
  it('print exactly what decimal.js toFixed prints', () => {
    fc.assert(
      fc.property(decimals, fc.integer({ min: 0, max: 10 }), (value, places) => {
        expect(formatAccountUnits(value)).toBe(reference.accountUnits(value));
        expect(formatFixed(value, places)).toBe(reference.fixed(value, places));
        expect(formatUnits(value)).toBe(reference.units(value));
      }),
      { numRuns: 2000 },
    );
  });
});
