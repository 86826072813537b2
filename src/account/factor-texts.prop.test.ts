import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import { directFactorTexts } from './home-currency.js';

/**
 * The integer route of a direct pair's factor texts (home-currency.ts directFactorTexts) prints
 * what the decimal.js route prints: mid = (bid + ask) / (2 x 10^p), gain = mid x (1 - f),
 * loss = mid x (1 + f), each toFixed(8) half-up; or it declines (null) and the caller takes that route.
 */
function decimalTexts(sum: number, precision: number, fee: string): { gain: string; loss: string; mid: string } {
  const mid = new Decimal(sum).dividedBy(2 * 10 ** precision);
  const f = new Decimal(fee);
  return { gain: mid.times(new Decimal(1).minus(f)).toFixed(8), loss: mid.times(new Decimal(1).plus(f)).toFixed(8), mid: mid.toFixed(8) };
}

/** The three texts read through the object's fields (the mid is printed when read). */
function textsOf(
  sum: number,
  scale: number,
  fee: { numerator: number; decimals: number },
): { gain: string; loss: string; mid: string } | null {
  const texts = directFactorTexts(sum, scale, fee);
  return texts === null ? null : { gain: texts.gain, loss: texts.loss, mid: texts.mid };
}

const feeText = fc
  .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 6 }))
  .map(([n, extra]) => `0.${String(n).padStart(5, '0')}${'0'.repeat(extra)}`);

describe('direct-pair factor texts in integers', () => {
  it('equal the decimal.js texts whenever they answer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000_000 }), fc.integer({ min: 0, max: 6 }), feeText, (sum, precision, fee) => {
        const decimals = fee.length - 2;
        const texts = textsOf(sum, 10 ** precision, { numerator: Number(fee.slice(2)), decimals });
        if (texts !== null) expect(texts).toEqual(decimalTexts(sum, precision, fee));
      }),
      { numRuns: 3000 },
    );
  });

  it('answer for the common grids and fees (5 and 3 decimals, a 0.5 % fee)', () => {
    expect(textsOf(220_011, 100_000, { numerator: 5, decimals: 3 })).toEqual(decimalTexts(220_011, 5, '0.005'));
    expect(textsOf(300_013, 1_000, { numerator: 5, decimals: 3 })).toEqual(decimalTexts(300_013, 3, '0.005'));
    expect(textsOf(229_024, 100_000, { numerator: 0, decimals: 0 })).toEqual(decimalTexts(229_024, 5, '0'));
  });

  it('declines a grid and fee finer than 8 decimals together', () => {
    expect(directFactorTexts(220_011, 100_000, { numerator: 5, decimals: 4 })).toBeNull();
  });
});
