import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, DecimalMemo, formatAccountUnits } from '../domain/decimal.js';
import { addRealized, plOf, plText, samePL, type RealizedPL } from './realized-pl.js';
import { plSumText } from './summary-views.js';

/**
 * The realized P/L kept as an integer of 10^-4 (realized-pl.ts) reads and prints what the
 * decimal.js sum of the same amounts does, and goes on in Decimals past the integers: amounts
 * with more than 4 decimals (a journal may hold them) and sums past 2^53.
 */
const amount: fc.Arbitrary<string> = fc.oneof(
  // What fills print: account units, 4 decimals.
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).map((n) => formatAccountUnits(new Decimal(n).dividedBy(10_000))),
  // Past the safe integers once scaled.
  fc.constantFrom('900000000000.0000', '-900000000000.0000', '5000000000000.1234'),
  // Finer than account units.
  fc.integer({ min: -999_999, max: 999_999 }).map((n) => new Decimal(n).dividedBy(100_000).toFixed(5)),
);

function fresh(): RealizedPL {
  return { pl: new Decimal(0), plInt: 0 };
}

describe('realized P/L sums', () => {
  it('equal the decimal.js sums of the amounts, whichever form they are kept in', () => {
    const forms = { integer: 0, decimal: 0 };
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 30 }), fc.array(amount, { maxLength: 30 }), (longAmounts, shortAmounts) => {
        const memo = new DecimalMemo();
        const long = fresh();
        const short = fresh();
        let longSum = new Decimal(0);
        let shortSum = new Decimal(0);
        for (const text of longAmounts) {
          const before = { ...long };
          addRealized(long, text, memo);
          longSum = longSum.plus(text);
          // A view keeps its texts while samePL holds: they must still be right.
          if (samePL(before, long)) expect(plText(before)).toBe(plText(long));
        }
        for (const text of shortAmounts) {
          addRealized(short, text, memo);
          shortSum = shortSum.plus(text);
        }
        forms[Number.isNaN(long.plInt) ? 'decimal' : 'integer'] += 1;
        expect(plOf(long).toString()).toBe(longSum.toString());
        expect(plText(long)).toBe(formatAccountUnits(longSum));
        expect(plText(short)).toBe(formatAccountUnits(shortSum));
        expect(plSumText(long, plText(long), short, plText(short))).toBe(formatAccountUnits(longSum.plus(shortSum)));
        // A copy (a view's book) holds the same P/L until the holder changes.
        expect(samePL({ ...long }, long)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(forms.integer).toBeGreaterThan(0);
    expect(forms.decimal).toBeGreaterThan(0);
  });
});
