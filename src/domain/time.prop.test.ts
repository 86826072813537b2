import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MINUTE,
  formatRfc3339,
  formatUnix,
  newYorkOffsetHours,
  nextNewYorkFivePm,
  parseDateTime,
} from './time.js';

/** Micros is exact up to 2^53 (year 2255); the properties cover 1970 to 2200. */
const YEAR_2200 = Date.UTC(2200, 0, 1) * 1000;
const YEAR_1700 = Date.UTC(1700, 0, 1) * 1000;
const micros = fc.integer({ min: 0, max: YEAR_2200 });

const RFC3339_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}000Z$/;
const UNIX_SHAPE = /^\d+\.\d{6}000$/;

describe('format/parse round trips', () => {
  it('RFC3339: parse(format(t)) === t', () => {
    fc.assert(
      fc.property(micros, (t) => {
        const s = formatRfc3339(t);
        expect(s).toMatch(RFC3339_SHAPE);
        expect(parseDateTime(s)).toBe(t);
        expect(parseDateTime(s, 'RFC3339')).toBe(t);
        expect(parseDateTime(s, 'UNIX')).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('UNIX: parse(format(t)) === t', () => {
    fc.assert(
      fc.property(micros, (t) => {
        const s = formatUnix(t);
        expect(s).toMatch(UNIX_SHAPE);
        expect(parseDateTime(s)).toBe(t);
        expect(parseDateTime(s, 'UNIX')).toBe(t);
        expect(parseDateTime(s, 'RFC3339')).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('RFC3339 round trips before the epoch too', () => {
    fc.assert(
      fc.property(fc.integer({ min: YEAR_1700, max: 0 }), (t) => {
        expect(parseDateTime(formatRfc3339(t))).toBe(t);
      }),
    );
  });

  it('the two formats name the same instant', () => {
    fc.assert(
      fc.property(micros, (t) => {
        expect(parseDateTime(formatUnix(t))).toBe(parseDateTime(formatRfc3339(t)));
      }),
    );
  });

  it('RFC3339 strings sort like the times they name', () => {
    fc.assert(
      fc.property(micros, micros, (a, b) => {
        const sa = formatRfc3339(a);
        const sb = formatRfc3339(b);
        expect(Math.sign(sa < sb ? -1 : sa > sb ? 1 : 0)).toBe(Math.sign(a - b));
      }),
    );
  });
});

describe('formatRfc3339 against Date', () => {
  /** The formula of Date.toISOString and the microseconds. */
  const reference = (t: number): string => {
    const ms = Math.floor(t / 1000);
    return `${new Date(ms).toISOString().slice(0, 23)}${String(t - ms * 1000).padStart(3, '0')}000Z`;
  };

  it('prints what the plain formula prints, in any order of calls (same second, next day, back in time)', () => {
    const base = fc.integer({ min: YEAR_1700, max: YEAR_2200 });
    fc.assert(
      fc.property(
        base,
        fc.array(
          fc.oneof(fc.integer({ min: -3_000_000, max: 3_000_000 }), fc.integer({ min: -3 * MICROS_PER_DAY, max: 3 * MICROS_PER_DAY })),
          { maxLength: 20 },
        ),
        (t0, steps) => {
          for (const t of [t0, ...steps.map((d) => t0 + d)]) expect(formatRfc3339(t)).toBe(reference(t));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('years before 0000 keep the plain formula (six-digit years)', () => {
    const t = Date.UTC(-1, 0, 1) * 1000 + 1; // -000001-01-01T00:00:00.000001Z
    expect(formatRfc3339(t)).toBe(reference(t));
    expect(formatRfc3339(t + 1_000_123)).toBe(reference(t + 1_000_123));
    expect(formatRfc3339(0)).toBe(reference(0));
  });

  it('crosses midnight, month and year ends', () => {
    for (const t of [
      Date.UTC(2023, 11, 31, 23, 59, 59, 999) * 1000 + 999,
      Date.UTC(2024, 0, 1) * 1000,
      Date.UTC(2024, 1, 29, 23, 59, 59) * 1000,
      Date.UTC(2024, 2, 1) * 1000 + 1,
      -1,
      -MICROS_PER_DAY - 1,
    ]) {
      expect(formatRfc3339(t)).toBe(reference(t));
    }
  });
});

describe('parsing details', () => {
  it('digits past the microsecond are truncated, never rounded', () => {
    fc.assert(
      fc.property(micros, fc.integer({ min: 0, max: 999 }), (t, nanos) => {
        const rfc = formatRfc3339(t).replace(/000Z$/, `${String(nanos).padStart(3, '0')}Z`);
        const unix = formatUnix(t).replace(/000$/, String(nanos).padStart(3, '0'));
        expect(parseDateTime(rfc)).toBe(t);
        expect(parseDateTime(unix)).toBe(t);
      }),
    );
  });

  it('a local time with its offset names the same instant as the UTC time', () => {
    const offsetMinutes = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
    fc.assert(
      fc.property(fc.integer({ min: MICROS_PER_DAY, max: YEAR_2200 }), offsetMinutes, (t, offset) => {
        const local = formatRfc3339(t + offset * MICROS_PER_MINUTE).slice(0, -1); // drop the Z
        const sign = offset < 0 ? '-' : '+';
        const abs = Math.abs(offset);
        const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        expect(parseDateTime(`${local}${zone}`)).toBe(t);
      }),
    );
  });
});

/** Minutes past local midnight in New York at a UTC instant. */
function newYorkMinuteOfDay(t: number): number {
  const local = t + newYorkOffsetHours(t) * MICROS_PER_HOUR;
  return (((local % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY) / MICROS_PER_MINUTE;
}

describe('nextNewYorkFivePm', () => {
  const FIVE_PM = 17 * 60;

  it('is strictly after t, within 25 hours, at 17:00 local, and the first such instant', () => {
    fc.assert(
      fc.property(micros, (t) => {
        const next = nextNewYorkFivePm(t);
        expect(Number.isInteger(next)).toBe(true);
        expect(next).toBeGreaterThan(t);
        expect(next - t).toBeLessThanOrEqual(24 * MICROS_PER_HOUR + MICROS_PER_HOUR);
        expect(newYorkMinuteOfDay(next)).toBe(FIVE_PM);
        // The previous 17:00 local is 23, 24 or 25 hours earlier, and it is not after t.
        const previous = [23, 24, 25].map((h) => next - h * MICROS_PER_HOUR).find((p) => newYorkMinuteOfDay(p) === FIVE_PM);
        expect(previous).toBeDefined();
        expect(previous).toBeLessThanOrEqual(t);
      }),
      { numRuns: 2000 },
    );
  });

  it('is a fixed point of the trading-day sequence: next(next(t) - 1) === next(t)', () => {
    fc.assert(
      fc.property(micros, (t) => {
        const next = nextNewYorkFivePm(t);
        expect(nextNewYorkFivePm(next - 1)).toBe(next);
        expect(nextNewYorkFivePm(next)).toBeGreaterThan(next);
      }),
    );
  });

  it('steps 23, 24 or 25 hours from one trading day to the next (2006-2016, both DST rules)', () => {
    let t = nextNewYorkFivePm(Date.UTC(2006, 0, 1) * 1000);
    const end = Date.UTC(2016, 0, 1) * 1000;
    const gaps = new Map<number, number>();
    while (t < end) {
      const next = nextNewYorkFivePm(t);
      const gap = (next - t) / MICROS_PER_HOUR;
      gaps.set(gap, (gaps.get(gap) ?? 0) + 1);
      t = next;
    }
    // One spring-forward and one fall-back day per year.
    expect(gaps.get(23)).toBe(10);
    expect(gaps.get(25)).toBe(10);
    expect([...gaps.keys()].sort((a, b) => a - b)).toEqual([23, 24, 25]);
  });
});

describe('newYorkOffsetHours', () => {
  // The tz database's America/New_York (Node's ICU), under the rules of 1987 to 2006 and of 2007 on.
  const newYork = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'shortOffset' });
  const YEAR_1987 = Date.UTC(1987, 0, 1) * 1000;
  const YEAR_2100 = Date.UTC(2100, 0, 1) * 1000;

  it('is the offset the tz database gives, at any instant from 1987 to 2100 and 2 µs either side of whole hours', () => {
    const hour = 3_600_000_000;
    fc.assert(
      fc.property(fc.integer({ min: YEAR_1987, max: YEAR_2100 }), fc.integer({ min: -2, max: 2 }), (t, near) => {
        // Also the instants a microsecond either side of the hour: the changes are on whole hours.
        for (const at of [t, Math.floor(t / hour) * hour + near]) {
          const name = newYork.formatToParts(new Date(Math.floor(at / 1000))).find((p) => p.type === 'timeZoneName')?.value;
          expect(`GMT${newYorkOffsetHours(at)}`).toBe(name);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
