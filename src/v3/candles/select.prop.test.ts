/**
 * Aligned candles for a window with one end are folded from that end over a growing span, not over
 * the whole finer series (select.ts alignedCandles): the candles a window then picks, and the one
 * before them that smoothing reads, are those a fold of the whole series gives, over gaps of
 * minutes to weeks, series that dropped their oldest candles, any aligned granularity and alignment.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MICROS_PER_HOUR } from '../../domain/time.js';
import {
  GRANULARITIES,
  WEEKDAYS,
  isStored,
  type Alignment,
  type Granularity,
  type StoredGranularity,
  type Weekday,
} from './granularity.js';
import { alignedCandles, selectCandles, type CandleSelection, type CandleWindow } from './select.js';
import { CandleSeries, type CandleRecord } from './series.js';

const MINUTE = 60_000_000;
const T0 = Date.UTC(2024, 0, 1) * 1000;
const ALIGNED = GRANULARITIES.filter((g): g is Exclude<Granularity, StoredGranularity> => !isStored(g));

/** The candles picked and the one before them (what smoothing the first reads; nothing when none is picked). */
function picked(s: CandleSelection): { candles: CandleRecord[]; previous: CandleRecord | undefined } {
  const candles: CandleRecord[] = [];
  for (let i = s.first; i < s.last; i += 1) candles.push(s.list.read(i));
  return { candles, previous: s.first > 0 && candles.length > 0 ? s.list.read(s.first - 1) : undefined };
}

describe('aligned candles folded back from the window end', () => {
  it('pick what a fold of the whole series picks', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            { arbitrary: fc.integer({ min: 1, max: 90 }).map((m) => m * MINUTE), weight: 6 },
            { arbitrary: fc.integer({ min: 1, max: 72 }).map((h) => h * MICROS_PER_HOUR), weight: 2 },
            { arbitrary: fc.integer({ min: 3, max: 40 }).map((d) => d * 24 * MICROS_PER_HOUR), weight: 3 },
          ),
          { minLength: 1, maxLength: 600, size: 'max' },
        ),
        fc.constantFrom(...ALIGNED),
        fc.record({
          dailyAlignment: fc.integer({ min: 0, max: 23 }),
          timezone: fc.constantFrom('America/New_York', 'UTC', 'Asia/Kolkata', 'Australia/Adelaide'),
          weeklyAlignment: fc.constantFrom<Weekday>(...WEEKDAYS),
        }),
        fc.integer({ min: 1, max: 40 }),
        fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        fc.option(fc.integer({ min: -10, max: 100 }), { nil: undefined }),
        fc.boolean(),
        fc.integer({ min: 20, max: 400 }),
        (gaps, g, alignment: Alignment, count, toAt, fromAt, includeFirst, kept) => {
          // M15 for a zone whose offset is not whole hours, as InstrumentCandles reads it.
          const finer = new CandleSeries(alignment.timezone === 'Asia/Kolkata' ? 15 * MINUTE : MICROS_PER_HOUR, kept);
          let t = T0;
          gaps.forEach((gap, i) => {
            t += gap;
            finer.add(t, 100_000 + (i % 17), 100_010 + (i % 13));
          });
          // A `from` and a `to` somewhere in the series (or outside it), either, both or none.
          const at = (percent: number): number => T0 + Math.floor(((t - T0) * percent) / 90);
          const to = toAt === undefined ? undefined : at(toAt);
          const from = fromAt === undefined || (to !== undefined && at(fromAt) > to) ? undefined : at(fromAt);
          const window: CandleWindow = {
            count,
            includeFirst,
            ...(to === undefined ? {} : { to }),
            ...(from === undefined ? {} : { from }),
          };
          const whole = alignedCandles(finer, g, alignment, { ...window, from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY });
          const got = picked(selectCandles(alignedCandles(finer, g, alignment, window), window));
          expect(got).toEqual(picked(selectCandles(whole, window)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never read a candle the span cut through', () => {
    // Two quotes in one day, the second 35 days (the first span for one D candle) before the
    // end: the span starts at the second, so its day would lack the first quote.
    const h1 = new CandleSeries(MICROS_PER_HOUR);
    const day = Date.UTC(2024, 0, 2, 23) * 1000; // a New York 17:00 D candle's start
    h1.add(day + MICROS_PER_HOUR, 100_000, 100_010);
    h1.add(day + 9 * MICROS_PER_HOUR, 100_004, 100_014);
    h1.add(day + 9 * MICROS_PER_HOUR + 35 * 24 * MICROS_PER_HOUR - MICROS_PER_HOUR, 100_002, 100_012);
    const alignment: Alignment = { dailyAlignment: 17, timezone: 'America/New_York', weeklyAlignment: 'Friday' };
    const window: CandleWindow = { count: 1, includeFirst: true };
    const got = picked(selectCandles(alignedCandles(h1, 'D', alignment, window), window));
    expect(got.previous?.volume).toBe(2);
    expect(got).toEqual(
      picked(
        selectCandles(
          alignedCandles(h1, 'D', alignment, { ...window, from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY }),
          window,
        ),
      ),
    );
  });
});
