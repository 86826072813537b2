/**
 * One rule turns local wall-clock time into UTC for request DateTimes (New York) and for candle
 * alignment (any zone): the two must agree on New York, and a local time that exists once must
 * come back unchanged through toLocal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRfc3339, MICROS_PER_HOUR, parseNewYorkLocal } from '../../domain/time.js';
import { toLocal, toUtc } from './zones.js';

const SECOND = 1_000_000;
/** Whole seconds from 1990 to 2040, as local wall-clock times, half of them near a clock change. */
const anyTime = fc.integer({ min: 631_152_000, max: 2_208_988_800 }).map((s) => s * SECOND);
const CHANGES = [
  Date.UTC(2024, 2, 10, 2), // New York forward (02:00 local)
  Date.UTC(2024, 10, 3, 1), // New York back (01:00 local repeats)
  Date.UTC(2024, 2, 31, 1), // London forward
  Date.UTC(2024, 9, 27, 1), // London back
  Date.UTC(2024, 3, 7, 2), // Adelaide back (03:00 local to 02:00)
  Date.UTC(2024, 9, 6, 2), // Adelaide forward
].map((ms) => ms * 1000);
const nearChange = fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -3 * 3600, max: 3 * 3600 })).map(([at, s]) => at + s * SECOND);
const localTimes = fc.oneof(anyTime, nearChange);

describe('local to UTC', () => {
  it('reads New York local time the same way for request DateTimes and candle alignment', () => {
    fc.assert(
      fc.property(localTimes, (local) => {
        const text = formatRfc3339(local).slice(0, 19);
        expect(parseNewYorkLocal(text)).toBe(toUtc(local, 'America/New_York'));
      }),
    );
  });

  it('round-trips through toLocal, except in a skipped hour', () => {
    fc.assert(
      fc.property(
        localTimes,
        fc.constantFrom('America/New_York', 'Europe/London', 'Asia/Kolkata', 'Australia/Adelaide', 'UTC'),
        (local, tz) => {
          const utc = toUtc(local, tz);
          const back = toLocal(utc, tz);
          if (back === local) return;
          // A skipped local time is read at the offset before the change, so it lands after the
          // jump, and the same shift earlier the zone still showed a time before it: it never existed.
          const shift = back - local;
          expect(shift).toBeGreaterThan(0);
          expect(shift).toBeLessThanOrEqual(MICROS_PER_HOUR);
          expect(toLocal(utc - shift, tz)).toBeLessThan(local);
        },
      ),
    );
  });
});
