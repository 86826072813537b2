import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketCalendar } from './market-hours.js';
import { newYorkOffsetHours, type Micros } from './time.js';

const MS_PER_DAY = 86_400_000;

/** The FX week by its definition: New York local weekday and time, read off the UTC offset. */
function fxOpenByDefinition(t: Micros): boolean {
  const local = Math.floor(t / 1000) + newYorkOffsetHours(t) * 3_600_000;
  const weekday = (((Math.floor(local / MS_PER_DAY) + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  const hour = Math.floor((((local % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) / 3_600_000);
  if (weekday === 6) return false;
  if (weekday === 5) return hour < 17;
  if (weekday === 0) return hour >= 17;
  return true;
}

/** 2000-01-01 .. 2040-01-01 in microseconds. */
const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }).map((ms) => ms * 1000 + 123);

describe('market calendar invariants', () => {
  it('agrees with the definition of the FX week at any instant, asked in any order', () => {
    const calendar = new MarketCalendar();
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (times) => {
        for (const t of times) expect(calendar.openAt(t)).toBe(fxOpenByDefinition(t));
      }),
    );
  });

  it('holds its state up to the change it announces, and an open stretch really ends there', () => {
    const spec = { closures: [{ from: '2021-12-24T22:00:00Z', to: '2021-12-26T23:00:00Z' }] };
    const calendar = new MarketCalendar(spec);
    fc.assert(
      fc.property(instant, fc.double({ min: 0, max: 1, noNaN: true }), (t, f) => {
        const open = calendar.openAt(t);
        const change = calendar.changeAfter(t);
        expect(change).toBeGreaterThan(t);
        const inside = t + Math.floor((change - t - 1) * f);
        // A fresh calendar: the answer must not come from the cache of the first.
        expect(new MarketCalendar(spec).openAt(inside)).toBe(open);
        if (open) expect(calendar.openAt(change)).toBe(false);
        const reopen = calendar.nextOpen(t);
        expect(calendar.openAt(reopen)).toBe(true);
      }),
    );
  });
});
