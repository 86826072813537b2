import { Decimal as GlobalDecimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  Decimal,
  ZERO,
  formatAccountUnits,
  formatFixed,
  formatUnits,
  isDecimalString,
  parseDecimal,
  significantDecimals,
  writtenDecimals,
} from './decimal.js';

const d = (value: string): Decimal => new Decimal(value);

describe('isDecimalString', () => {
  it.each(['1', '-1.5', '.5', '10.', '+1', '0', '-0', '0.00000', '-.5', '123456789.123456789', '1'.repeat(64)])('accepts %j', (value) => {
    expect(isDecimalString(value)).toBe(true);
  });

  it.each([
    '1e5',
    '1E5',
    ' 1',
    '1 ',
    '',
    'abc',
    '1.2.3',
    'NaN',
    'Infinity',
    '-Infinity',
    '-',
    '+',
    '.',
    '-.',
    '0x10',
    '1,5',
    '1_000',
    '--1',
    '1'.repeat(65),
    `0.${'1'.repeat(63)}`,
  ])('rejects %j', (value) => {
    expect(isDecimalString(value)).toBe(false);
  });

  it.each([1, 1.5, null, undefined, {}, ['1']])('rejects the non-string %j', (value) => {
    expect(isDecimalString(value)).toBe(false);
  });
});

describe('parseDecimal', () => {
  it('parses DecimalNumbers and refuses everything else', () => {
    expect(parseDecimal('-1.5')?.toString()).toBe('-1.5');
    expect(parseDecimal('10.')?.toString()).toBe('10');
    expect(parseDecimal('.5')?.toString()).toBe('0.5');
    expect(parseDecimal('1e5')).toBeNull();
    expect(parseDecimal('NaN')).toBeNull();
    expect(parseDecimal('')).toBeNull();
  });
});

describe('writtenDecimals and significantDecimals', () => {
  it('count digits as written and as significant', () => {
    expect(writtenDecimals('1')).toBe(0);
    expect(writtenDecimals('10.')).toBe(0);
    expect(writtenDecimals('1.10')).toBe(2);
    expect(writtenDecimals('.5')).toBe(1);
    expect(writtenDecimals('-1.10000')).toBe(5);
    expect(significantDecimals(d('1.10000'))).toBe(1);
    expect(significantDecimals(d('100'))).toBe(0);
    expect(significantDecimals(d('0.00005'))).toBe(5);
  });
});

describe('formatAccountUnits', () => {
  it.each([
    ['0', '0.0000'],
    ['1', '1.0000'],
    ['1.00005', '1.0001'],
    ['1.00004999', '1.0000'],
    ['1.00015', '1.0002'],
    ['-1.00005', '-1.0001'],
    ['-1.00004999', '-1.0000'],
    ['123456789.12345', '123456789.1235'],
    ['99999.99995', '100000.0000'],
    ['-0.00004', '0.0000'],
    ['-0.00001', '0.0000'],
    ['-0', '0.0000'],
    ['-0.00005', '-0.0001'],
    ['1e25', '10000000000000000000000000.0000'],
  ])('formats %s as %s (4 dp, half-up, no negative zero)', (value, expected) => {
    expect(formatAccountUnits(d(value))).toBe(expected);
  });
});

describe('formatFixed', () => {
  it('rounds half-up and never prints negative zero', () => {
    expect(formatFixed(d('1.005'), 2)).toBe('1.01');
    expect(formatFixed(d('-1.005'), 2)).toBe('-1.01');
    expect(formatFixed(d('-0.004'), 2)).toBe('0.00');
    expect(formatFixed(d('-0.4'), 0)).toBe('0');
    expect(formatFixed(d('-0.5'), 0)).toBe('-1');
    expect(formatFixed(d('2.5'), 0)).toBe('3');
    expect(formatFixed(d('1.5'), 5)).toBe('1.50000');
  });
});

describe('formatUnits', () => {
  it.each([
    ['10000', '10000'],
    ['10000.0', '10000'],
    ['-5', '-5'],
    ['0.01', '0.01'],
    ['0', '0'],
    ['-0', '0'],
    ['0.000', '0'],
    ['1e-7', '0.0000001'],
    ['1e30', '1000000000000000000000000000000'],
    ['-123.4500', '-123.45'],
  ])('formats %s as %s', (value, expected) => {
    expect(formatUnits(d(value))).toBe(expected);
  });
});

describe('the Decimal clone', () => {
  it('is unaffected by global decimal.js settings', () => {
    const saved = { precision: GlobalDecimal.precision, rounding: GlobalDecimal.rounding };
    try {
      GlobalDecimal.set({ precision: 3, rounding: GlobalDecimal.ROUND_DOWN });
      expect(d('1').dividedBy(3).toFixed(10)).toBe('0.3333333333');
      expect(formatAccountUnits(d('2.00005'))).toBe('2.0001');
      expect(d('123456.789').times(d('1.08463')).toString()).toBe('133904.93705307');
    } finally {
      GlobalDecimal.set(saved);
    }
  });

  it('keeps 40 significant digits and rounds half-up', () => {
    expect(Decimal.precision).toBe(40);
    expect(Decimal.rounding).toBe(Decimal.ROUND_HALF_UP);
    expect(d('1').dividedBy(3).toString()).toBe(`0.${'3'.repeat(40)}`);
    expect(ZERO.isZero()).toBe(true);
  });

  it('does not switch to exponent notation for ordinary magnitudes', () => {
    expect(d('1e-30').toString()).toBe(`0.${'0'.repeat(29)}1`);
    expect(d('1e30').toString()).toBe(`1${'0'.repeat(30)}`);
  });
});
