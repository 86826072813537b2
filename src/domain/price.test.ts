import { describe, expect, it } from 'vitest';
import { Decimal } from './decimal.js';
import { POW10, decimalToPriceInt, formatPriceInt, priceIntToDecimal, scaleOf, toPriceInt } from './price.js';

describe('POW10 and scaleOf', () => {
  it('are exact powers of ten for precisions 0-15', () => {
    expect(POW10).toHaveLength(16);
    POW10.forEach((value, i) => expect(value).toBe(Number(`1e${i}`)));
    expect(scaleOf(0)).toBe(1);
    expect(scaleOf(3)).toBe(1000);
    expect(scaleOf(5)).toBe(100_000);
    expect(scaleOf(15)).toBe(1e15);
  });

  it.each([-1, 16, 1.5, Number.NaN])('throws for precision %d', (precision) => {
    expect(() => scaleOf(precision)).toThrow(/precision out of range/);
  });
});

describe('toPriceInt', () => {
  it('puts float feed prices on the integer grid, rounding away representation noise', () => {
    expect(toPriceInt(1.08463, 100_000)).toBe(108_463);
    expect(toPriceInt(0.1 + 0.2, 10)).toBe(3);
    expect(toPriceInt(147.123, 1000)).toBe(147_123);
    expect(toPriceInt(1.1, 100_000)).toBe(110_000);
    expect(toPriceInt(0.00005, 100_000)).toBe(5);
  });
});

describe('formatPriceInt', () => {
  it.each([
    [108_463, 5, '1.08463'],
    [5, 5, '0.00005'],
    [0, 5, '0.00000'],
    [100_000, 5, '1.00000'],
    [99_999, 5, '0.99999'],
    [12_345_678, 5, '123.45678'],
    [-108_463, 5, '-1.08463'],
    [-5, 5, '-0.00005'],
    [147_123, 3, '147.123'],
    [1, 3, '0.001'],
    [-1, 3, '-0.001'],
    [1000, 3, '1.000'],
    [0, 0, '0'],
    [123, 0, '123'],
    [-123, 0, '-123'],
    [5, 1, '0.5'],
  ])('formatPriceInt(%i, %i) === %j', (value, precision, expected) => {
    expect(formatPriceInt(value, precision)).toBe(expected);
  });

  it('prints negative zero as zero', () => {
    expect(formatPriceInt(-0, 5)).toBe('0.00000');
    expect(formatPriceInt(-0, 0)).toBe('0');
  });
});

describe('decimalToPriceInt', () => {
  it('converts prices that fit the precision', () => {
    expect(decimalToPriceInt(new Decimal('1.08463'), 5)).toBe(108_463);
    expect(decimalToPriceInt(new Decimal('1.0846'), 5)).toBe(108_460);
    expect(decimalToPriceInt(new Decimal('1.084630000'), 5)).toBe(108_463);
    expect(decimalToPriceInt(new Decimal('147.1'), 3)).toBe(147_100);
    expect(decimalToPriceInt(new Decimal('2'), 0)).toBe(2);
    expect(decimalToPriceInt(new Decimal('-1.5'), 1)).toBe(-15);
  });

  it('returns null when the precision is exceeded', () => {
    expect(decimalToPriceInt(new Decimal('1.084631'), 5)).toBeNull();
    expect(decimalToPriceInt(new Decimal('147.1234'), 3)).toBeNull();
    expect(decimalToPriceInt(new Decimal('0.5'), 0)).toBeNull();
    expect(decimalToPriceInt(new Decimal('0.000000000000000001'), 5)).toBeNull();
  });
});

describe('priceIntToDecimal', () => {
  it('is the exact decimal of the grid value', () => {
    expect(priceIntToDecimal(108_463, 5).toString()).toBe('1.08463');
    expect(priceIntToDecimal(5, 5).toString()).toBe('0.00005');
    expect(priceIntToDecimal(-147_123, 3).toString()).toBe('-147.123');
    expect(priceIntToDecimal(7, 0).toString()).toBe('7');
  });
});
