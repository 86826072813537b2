import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDateTime } from '../../domain/time.js';
import { parseCsvTime } from './csv-time.js';
import { daysFromCivil, parseEpochNumberSpan, parseRfc3339Span, parseUnixSecondsSpan } from './datetime.js';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

// Years from 100 on: Date.UTC (inside parseDateTime) maps years 0-99 to 1900-1999.
const rfc3339 = fc
  .record({
    year: fc.integer({ min: 100, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 25 }),
    minute: fc.integer({ min: 0, max: 61 }),
    second: fc.integer({ min: 0, max: 61 }),
    fraction: fc.option(fc.stringMatching(/^\d{1,10}$/), { nil: undefined }),
    zone: fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }))
        .map(([s, h, m]) => `${s}${pad(h, 2)}:${pad(m, 2)}`),
    ),
  })
  .map(
    (p) =>
      `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}T${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}${p.fraction === undefined ? '' : `.${p.fraction}`}${p.zone}`,
  );

function span(parse: (text: string, start: number, end: number) => number, text: string): number {
  // Embedded in a line, as the parsers see it.
  const line = `x,${text},y`;
  return parse(line, 2, 2 + text.length);
}

describe('parseRfc3339Span', () => {
  it('agrees with parseDateTime, accepting and rejecting the same strings', () => {
    fc.assert(
      fc.property(rfc3339, (text) => {
        const expected = parseDateTime(text, 'RFC3339');
        const actual = span(parseRfc3339Span, text);
        if (expected === null) expect(actual).toBeNaN();
        else expect(actual).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes a space for the T, as TrueFX writes it', () => {
    expect(span(parseRfc3339Span, '2013-01-01 22:00:00.295000+00:00')).toBe(Date.UTC(2013, 0, 1, 22, 0, 0, 295) * 1000);
    expect(span(parseRfc3339Span, '2016-10-24T21:48:18.593753123Z')).toBe(Date.UTC(2016, 9, 24, 21, 48, 18, 593) * 1000 + 753);
  });

  it('rejects times without a zone and malformed text', () => {
    for (const bad of [
      '2014-05-01T00:00:00',
      '2014-05-01T00:00:00.Z',
      '2014-02-30T00:00:00Z',
      '2014-05-01X00:00:00Z',
      '2014-05-01T00:00:00Zjunk',
      '2014-5-01T00:00:00Z',
    ]) {
      expect(span(parseRfc3339Span, bad), bad).toBeNaN();
    }
  });
});

describe('daysFromCivil', () => {
  it('matches Date.UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
        expect(daysFromCivil(y, m, d) * 86_400_000).toBe(Date.UTC(y, m - 1, d));
      }),
    );
  });
});

describe('numeric times', () => {
  it('reads UNIX seconds with up to nine decimals, truncating below the microsecond', () => {
    expect(span(parseUnixSecondsSpan, '1491201560')).toBe(1_491_201_560_000_000);
    expect(span(parseUnixSecondsSpan, '1491201560.123456789')).toBe(1_491_201_560_123_456);
    expect(span(parseUnixSecondsSpan, '1491201560.5')).toBe(1_491_201_560_500_000);
    expect(span(parseUnixSecondsSpan, '1491201560.')).toBeNaN();
    expect(span(parseUnixSecondsSpan, '14912015x0')).toBeNaN();
  });

  it('tells seconds from milliseconds by size, at 100,000,000,000', () => {
    expect(span(parseEpochNumberSpan, '9000000000')).toBe(9_000_000_000_000_000);
    // Seconds this large are past the engine's clock range (year 2255), not milliseconds.
    expect(span(parseEpochNumberSpan, '99999999999')).toBeNaN();
    expect(span(parseEpochNumberSpan, '100000000000')).toBe(100_000_000_000_000);
    expect(span(parseEpochNumberSpan, '1398902400292')).toBe(1_398_902_400_292_000);
    expect(span(parseEpochNumberSpan, '1398902400292.5')).toBe(1_398_902_400_292_500);
    expect(span(parseEpochNumberSpan, '1398902400.292')).toBe(1_398_902_400_292_000);
  });

  it('parseCsvTime picks RFC3339 for text with - or :, else a number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const iso = new Date(ms).toISOString();
        expect(span(parseCsvTime, iso)).toBe(ms * 1000);
        if (ms >= 100_000_000_000) expect(span(parseCsvTime, String(ms))).toBe(ms * 1000);
      }),
    );
    expect(span(parseCsvTime, ' 1491201560 ')).toBe(1_491_201_560_000_000);
  });
});
