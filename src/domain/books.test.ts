import { describe, expect, it } from 'vitest';
import {
  BOOK_INTERVAL,
  bookBoundaryAfter,
  bookBoundaryAtOrBefore,
  bookTotal,
  bucketOf,
  bucketWidthInt,
  bucketize,
  countPercent,
  formatBookTime,
  formatBookUnixTime,
} from './books.js';

const T = Date.UTC(2024, 0, 2, 12) * 1000;
const MINUTE = 60_000_000;

describe('snapshot boundaries (every 20 minutes: :00, :20, :40)', () => {
  it('the boundary at or before a time, and the one after it', () => {
    expect(BOOK_INTERVAL).toBe(20 * MINUTE);
    expect(bookBoundaryAtOrBefore(T)).toBe(T);
    expect(bookBoundaryAtOrBefore(T + 19 * MINUTE + 59_999_999)).toBe(T);
    expect(bookBoundaryAtOrBefore(T + 20 * MINUTE)).toBe(T + 20 * MINUTE);
    expect(bookBoundaryAtOrBefore(T - 1)).toBe(T - 20 * MINUTE);
    expect(bookBoundaryAfter(T)).toBe(T + 20 * MINUTE);
    expect(bookBoundaryAfter(T + 1)).toBe(T + 20 * MINUTE);
    expect(bookBoundaryAfter(T - 1)).toBe(T);
  });

  it('prints the time in whole seconds as OANDA does, and unixTime as seconds', () => {
    expect(formatBookTime(T + 40 * MINUTE)).toBe('2024-01-02T12:40:00Z');
    expect(formatBookUnixTime(T + 40 * MINUTE)).toBe('1704199200');
  });
});

describe('bucket width: 5 pips on the price grid', () => {
  it('EUR_USD 0.00050, USD_JPY 0.050, a CFD with pip 1 and one decimal 5.0', () => {
    expect(bucketWidthInt({ pipLocation: -4, displayPrecision: 5 })).toBe(50);
    expect(bucketWidthInt({ pipLocation: -2, displayPrecision: 3 })).toBe(50);
    expect(bucketWidthInt({ pipLocation: 0, displayPrecision: 1 })).toBe(50);
    expect(bucketWidthInt({ pipLocation: -2, displayPrecision: 2 })).toBe(5);
    // A pip finer than the display precision: one price step.
    expect(bucketWidthInt({ pipLocation: -4, displayPrecision: 3 })).toBe(1);
  });
});

describe('bucketize', () => {
  it('counts long and short entries per bucket, lowest price first, only buckets with entries', () => {
    const buckets = bucketize(
      [
        { price: 110_049, long: true },
        { price: 109_000, long: false },
        { price: 110_000, long: false },
        { price: 110_050, long: true },
        { price: 110_001, long: true },
      ],
      50,
    );
    expect(buckets).toEqual([
      { price: 109_000, long: 0, short: 1 },
      { price: 110_000, long: 2, short: 1 },
      { price: 110_050, long: 1, short: 0 },
    ]);
    expect(bookTotal(buckets)).toBe(5);
    expect(bucketize([], 50)).toEqual([]);
  });

  it('a bucket covers [price, price + width)', () => {
    expect(bucketOf(110_049, 50)).toBe(110_000);
    expect(bucketOf(110_050, 50)).toBe(110_050);
    expect(bucketOf(0, 50)).toBe(0);
  });
});

describe('countPercent: four decimals, half up', () => {
  it('prints a count as a percentage of the total', () => {
    expect(countPercent(1, 4)).toBe('25.0000');
    expect(countPercent(1, 3)).toBe('33.3333');
    expect(countPercent(2, 3)).toBe('66.6667');
    expect(countPercent(3, 3)).toBe('100.0000');
    expect(countPercent(1, 425)).toBe('0.2353');
    expect(countPercent(0, 7)).toBe('0.0000');
    expect(countPercent(0, 0)).toBe('0.0000');
    expect(countPercent(1, 2_000_000)).toBe('0.0001');
    expect(countPercent(1, 2_000_001)).toBe('0.0000');
  });
});
