import { describe, expect, it } from 'vitest';
import {
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MINUTE,
  MICROS_PER_SECOND,
  formatDateTime,
  formatRfc3339,
  formatUnix,
  newYorkOffsetHours,
  nextNewYorkFivePm,
  parseNewYorkLocal,
  parseDateTime,
} from './time.js';

/** UTC instant in micros from calendar fields (1-based month), independent of the module under test. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, micros = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) * 1000 + micros;
}

describe('constants', () => {
  it('are consistent', () => {
    expect(MICROS_PER_SECOND).toBe(1_000_000);
    expect(MICROS_PER_MINUTE).toBe(60_000_000);
    expect(MICROS_PER_HOUR).toBe(3_600_000_000);
    expect(MICROS_PER_DAY).toBe(86_400_000_000);
  });
});

describe('formatRfc3339', () => {
  it('prints nine fractional digits with the micros kept', () => {
    expect(formatRfc3339(0)).toBe('1970-01-01T00:00:00.000000000Z');
    expect(formatRfc3339(1)).toBe('1970-01-01T00:00:00.000001000Z');
    expect(formatRfc3339(999_999)).toBe('1970-01-01T00:00:00.999999000Z');
    expect(formatRfc3339(1_477_345_698_593_753)).toBe('2016-10-24T21:48:18.593753000Z');
    expect(formatRfc3339(utc(2014, 5, 2, 21))).toBe('2014-05-02T21:00:00.000000000Z');
    expect(formatRfc3339(utc(2199, 12, 31, 23, 59, 59, 999_999))).toBe('2199-12-31T23:59:59.999999000Z');
  });

  it('prints times before the epoch', () => {
    expect(formatRfc3339(-1)).toBe('1969-12-31T23:59:59.999999000Z');
    expect(formatRfc3339(-MICROS_PER_DAY)).toBe('1969-12-31T00:00:00.000000000Z');
  });
});

describe('formatUnix', () => {
  it('prints seconds with nine decimals', () => {
    expect(formatUnix(0)).toBe('0.000000000');
    expect(formatUnix(1)).toBe('0.000001000');
    expect(formatUnix(1_491_201_560_000_000)).toBe('1491201560.000000000');
    expect(formatUnix(1_491_201_560_123_456)).toBe('1491201560.123456000');
  });

  it('prints negative times as sign and magnitude', () => {
    expect(formatUnix(-500_000)).toBe('-0.500000000');
    expect(formatUnix(-1_500_000)).toBe('-1.500000000');
    expect(formatUnix(-2_000_000)).toBe('-2.000000000');
  });
});

describe('formatDateTime', () => {
  it('dispatches on the format', () => {
    const t = 1_477_345_698_593_753;
    expect(formatDateTime(t, 'RFC3339')).toBe('2016-10-24T21:48:18.593753000Z');
    expect(formatDateTime(t, 'UNIX')).toBe('1477345698.593753000');
  });
});

describe('parseDateTime: RFC3339', () => {
  const base = utc(2016, 10, 24, 21, 48, 18);

  it('parses Z times', () => {
    expect(parseDateTime('2016-10-24T21:48:18.593753000Z')).toBe(base + 593_753);
    expect(parseDateTime('2016-10-24T21:48:18Z')).toBe(base);
    expect(parseDateTime('1970-01-01T00:00:00.000000000Z')).toBe(0);
  });

  it.each([
    ['', 0],
    ['.5', 500_000],
    ['.12', 120_000],
    ['.123', 123_000],
    ['.1234', 123_400],
    ['.12345', 123_450],
    ['.123456', 123_456],
    ['.1234567', 123_456],
    ['.12345678', 123_456],
    ['.123456789', 123_456],
    ['.999999999', 999_999],
    ['.000000999', 0],
  ])('takes fraction %j as %i micros (nanoseconds truncated)', (fraction, micros) => {
    expect(parseDateTime(`2016-10-24T21:48:18${fraction}Z`)).toBe(base + micros);
  });

  it('applies offsets', () => {
    expect(parseDateTime('2016-10-24T17:48:18-04:00')).toBe(base);
    expect(parseDateTime('2016-10-25T03:18:18.000001+05:30')).toBe(base + 1);
    expect(parseDateTime('2016-10-24T21:48:18+00:00')).toBe(base);
    expect(parseDateTime('2016-10-24T21:48:18-00:00')).toBe(base);
    expect(parseDateTime('2016-10-25T11:33:18+13:45')).toBe(base);
    // An offset can move the instant across a day, month and year boundary.
    expect(parseDateTime('2013-12-31T23:00:00-01:00')).toBe(utc(2014, 1, 1));
    expect(parseDateTime('2014-01-01T00:30:00+01:00')).toBe(utc(2013, 12, 31, 23, 30));
  });

  it('knows leap years', () => {
    expect(parseDateTime('2012-02-29T00:00:00Z')).toBe(utc(2012, 2, 29));
    expect(parseDateTime('2000-02-29T00:00:00Z')).toBe(utc(2000, 2, 29));
    expect(parseDateTime('2013-02-29T00:00:00Z')).toBeNull();
    expect(parseDateTime('1900-02-29T00:00:00Z')).toBeNull();
    expect(parseDateTime('2100-02-29T00:00:00Z')).toBeNull();
  });

  it('keeps years 0000-0099 (Date.UTC alone would read them as 1900-1999)', () => {
    const y50 = parseDateTime('0050-06-15T12:00:00Z');
    expect(y50).not.toBeNull();
    expect(formatRfc3339(y50 ?? 0)).toBe('0050-06-15T12:00:00.000000000Z');
    expect(y50).toBeLessThan(utc(1000, 1, 1));
    // Year 0 is a leap year in the proleptic Gregorian calendar; 1900 is not.
    expect(parseDateTime('0000-02-29T00:00:00Z')).not.toBeNull();
  });

  it.each([
    '2014-02-30T00:00:00Z',
    '2014-04-31T00:00:00Z',
    '2014-13-01T00:00:00Z',
    '2014-00-01T00:00:00Z',
    '2014-01-00T00:00:00Z',
    '2014-01-32T00:00:00Z',
    '2014-01-01T24:00:00Z',
    '2014-01-01T23:60:00Z',
    '2014-01-01T23:59:60Z',
    '2014-01-01T00:00:00+24:00',
    '2014-01-01T00:00:00+05:60',
    '2014-01-01T00:00:00',
    '2014-01-01T00:00:00.Z',
    '2014-01-01T00:00:00.1234567890Z',
    '2014-01-01 00:00:00Z',
    '2014-1-01T00:00:00Z',
    '14-01-01T00:00:00Z',
    '2014-01-01T00:00Z',
    '2014-01-01',
    '2014-01-01T00:00:00+0500',
    ' 2014-01-01T00:00:00Z',
    '2014-01-01T00:00:00Z ',
    '',
    'abc',
    'garbage-01-01T00:00:00Z',
  ])('rejects %j', (value) => {
    expect(parseDateTime(value)).toBeNull();
    expect(parseDateTime(value, 'RFC3339')).toBeNull();
  });

  it('rejects over-long strings and non-strings', () => {
    expect(parseDateTime(`2014-01-01T00:00:00.123456789Z${' '.repeat(20)}`)).toBeNull();
    expect(parseDateTime('1'.repeat(41))).toBeNull();
    expect(parseDateTime(1_491_201_560 as unknown as string)).toBeNull();
    expect(parseDateTime(null as unknown as string)).toBeNull();
  });
});

describe('parseDateTime: UNIX', () => {
  it('parses seconds with 0-9 decimals', () => {
    expect(parseDateTime('1491201560')).toBe(1_491_201_560_000_000);
    expect(parseDateTime('1491201560.5')).toBe(1_491_201_560_500_000);
    expect(parseDateTime('1491201560.000000000')).toBe(1_491_201_560_000_000);
    expect(parseDateTime('1491201560.123456')).toBe(1_491_201_560_123_456);
    expect(parseDateTime('1491201560.123456999')).toBe(1_491_201_560_123_456);
    expect(parseDateTime('0')).toBe(0);
    expect(parseDateTime('0.000001')).toBe(1);
  });

  it.each(['-1', '+1', '1.', '.5', '1e9', '1.2.3', '0x10', '1491201560.1234567890', '1234567890123', ' 1', 'NaN', 'Infinity'])(
    'rejects %j',
    (value) => {
      expect(parseDateTime(value)).toBeNull();
      expect(parseDateTime(value, 'UNIX')).toBeNull();
    },
  );
});

describe('parseDateTime: format restriction', () => {
  it('accepts only the named format', () => {
    expect(parseDateTime('1491201560', 'RFC3339')).toBeNull();
    expect(parseDateTime('2016-10-24T21:48:18Z', 'UNIX')).toBeNull();
    expect(parseDateTime('1491201560', 'UNIX')).toBe(1_491_201_560_000_000);
    expect(parseDateTime('2016-10-24T21:48:18Z', 'RFC3339')).toBe(utc(2016, 10, 24, 21, 48, 18));
    expect(parseDateTime('1491201560', 'ANY')).toBe(1_491_201_560_000_000);
    expect(parseDateTime('2016-10-24T21:48:18Z', 'ANY')).toBe(utc(2016, 10, 24, 21, 48, 18));
  });
});

describe('newYorkOffsetHours', () => {
  it('is -5 in winter and -4 in summer', () => {
    expect(newYorkOffsetHours(utc(2014, 1, 15, 12))).toBe(-5);
    expect(newYorkOffsetHours(utc(2014, 7, 15, 12))).toBe(-4);
    expect(newYorkOffsetHours(utc(2014, 12, 31, 23, 59, 59, 999_999))).toBe(-5);
    expect(newYorkOffsetHours(utc(2015, 1, 1))).toBe(-5);
  });

  it('switches at 02:00 local on the second Sunday of March and first Sunday of November (2007 on)', () => {
    expect(newYorkOffsetHours(utc(2014, 3, 9, 6, 59, 59, 999_999))).toBe(-5);
    expect(newYorkOffsetHours(utc(2014, 3, 9, 7))).toBe(-4);
    expect(newYorkOffsetHours(utc(2014, 11, 2, 5, 59, 59, 999_999))).toBe(-4);
    expect(newYorkOffsetHours(utc(2014, 11, 2, 6))).toBe(-5);
    expect(newYorkOffsetHours(utc(2007, 3, 11, 6, 59, 59))).toBe(-5);
    expect(newYorkOffsetHours(utc(2007, 3, 11, 7))).toBe(-4);
    expect(newYorkOffsetHours(utc(2007, 11, 4, 5, 59, 59))).toBe(-4);
    expect(newYorkOffsetHours(utc(2007, 11, 4, 6))).toBe(-5);
    expect(newYorkOffsetHours(utc(2024, 3, 10, 7))).toBe(-4);
    expect(newYorkOffsetHours(utc(2024, 11, 3, 6))).toBe(-5);
  });

  it('uses the first Sunday of April to the last Sunday of October before 2007', () => {
    // 2006-03-12 would be DST under the 2007 rule, not under the old one.
    expect(newYorkOffsetHours(utc(2006, 3, 12, 12))).toBe(-5);
    expect(newYorkOffsetHours(utc(2006, 4, 2, 6, 59, 59, 999_999))).toBe(-5);
    expect(newYorkOffsetHours(utc(2006, 4, 2, 7))).toBe(-4);
    expect(newYorkOffsetHours(utc(2006, 10, 29, 5, 59, 59, 999_999))).toBe(-4);
    expect(newYorkOffsetHours(utc(2006, 10, 29, 6))).toBe(-5);
    // 2006-11-01 would still be DST under the 2007 rule.
    expect(newYorkOffsetHours(utc(2006, 11, 1, 12))).toBe(-5);
    expect(newYorkOffsetHours(utc(2001, 4, 1, 7))).toBe(-4);
    expect(newYorkOffsetHours(utc(2001, 10, 28, 6))).toBe(-5);
  });
});

describe('nextNewYorkFivePm', () => {
  it.each([
    ['summer morning: same day 21:00Z', utc(2014, 5, 2, 12, 30), utc(2014, 5, 2, 21)],
    ['winter evening after close: next day 22:00Z', utc(2014, 1, 15, 23), utc(2014, 1, 16, 22)],
    ['exactly 17:00 EDT: the next day', utc(2014, 7, 1, 21), utc(2014, 7, 2, 21)],
    ['a microsecond before 17:00 EDT', utc(2014, 7, 1, 20, 59, 59, 999_999), utc(2014, 7, 1, 21)],
    ['exactly 17:00 EST: the next day', utc(2014, 1, 15, 22), utc(2014, 1, 16, 22)],
    ['after UTC midnight but before NY midnight', utc(2014, 5, 3, 0, 30), utc(2014, 5, 3, 21)],
    ['across the year end', utc(2014, 12, 31, 23), utc(2015, 1, 1, 22)],
    ['spring forward: Saturday 17:00 EST to Sunday 17:00 EDT (23 h)', utc(2014, 3, 8, 22), utc(2014, 3, 9, 21)],
    ['fall back: Saturday 17:00 EDT to Sunday 17:00 EST (25 h)', utc(2014, 11, 1, 21), utc(2014, 11, 2, 22)],
    ['pre-2007 rule: Saturday before the first Sunday of April', utc(2006, 4, 1, 22), utc(2006, 4, 2, 21)],
  ])('%s', (_label, t, expected) => {
    expect(formatRfc3339(nextNewYorkFivePm(t))).toBe(formatRfc3339(expected));
  });
});

describe('parseNewYorkLocal', () => {
  it('reads a zoneless DateTime as New York local time, through both DST changes of 2024', () => {
    const at = (text: string): string => formatRfc3339(parseNewYorkLocal(text) as number);
    expect(at('2018-07-02T00:00:00')).toBe('2018-07-02T04:00:00.000000000Z'); // the captured v20 answer
    expect(at('2024-01-10T17:30:00.5')).toBe('2024-01-10T22:30:00.500000000Z');
    expect(at('2024-03-10T01:59:59')).toBe('2024-03-10T06:59:59.000000000Z'); // last standard second
    expect(at('2024-03-10T02:30:00')).toBe('2024-03-10T07:30:00.000000000Z'); // skipped hour: standard offset
    expect(at('2024-03-10T03:00:00')).toBe('2024-03-10T07:00:00.000000000Z'); // first daylight second
    expect(at('2024-11-03T01:30:00')).toBe('2024-11-03T05:30:00.000000000Z'); // repeated hour: the first
    expect(at('2024-11-03T02:00:00')).toBe('2024-11-03T07:00:00.000000000Z');
    expect(parseNewYorkLocal('2024-11-03T01:30:00Z')).toBeNull();
    expect(parseNewYorkLocal('2024-02-30T00:00:00')).toBeNull();
  });
});
