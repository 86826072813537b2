import { describe, expect, it } from 'vitest';
import { MarketCalendar } from './market-hours.js';
import { formatRfc3339, parseDateTime, type Micros } from './time.js';

const at = (text: string): Micros => parseDateTime(text) as Micros;
const text = (t: Micros): string => formatRfc3339(t).replace('.000000000Z', 'Z');

describe('the FX week (Sunday 17:00 to Friday 17:00 New York)', () => {
  const fx = new MarketCalendar();

  it.each([
    // Winter (EST, UTC-5): 17:00 New York is 22:00 UTC.
    ['2024-01-05T21:59:59Z', true, '2024-01-05T22:00:00Z'],
    ['2024-01-05T22:00:00Z', false, '2024-01-07T22:00:00Z'],
    ['2024-01-06T12:00:00Z', false, '2024-01-07T22:00:00Z'],
    ['2024-01-07T21:59:59.999999Z', false, '2024-01-07T22:00:00Z'],
    ['2024-01-07T22:00:00Z', true, '2024-01-12T22:00:00Z'],
    ['2024-01-03T12:00:00Z', true, '2024-01-05T22:00:00Z'],
    // Summer (EDT, UTC-4): 21:00 UTC.
    ['2024-07-05T20:59:59Z', true, '2024-07-05T21:00:00Z'],
    ['2024-07-07T21:00:00Z', true, '2024-07-12T21:00:00Z'],
    // The weekends of the clock changes: closed on Friday at EST, open on Sunday at EDT, and back.
    ['2024-03-08T21:30:00Z', true, '2024-03-08T22:00:00Z'],
    ['2024-03-10T20:59:59Z', false, '2024-03-10T21:00:00Z'],
    ['2024-03-10T21:00:00Z', true, '2024-03-15T21:00:00Z'],
    ['2024-11-01T21:00:00Z', false, '2024-11-03T22:00:00Z'],
    ['2024-11-03T21:30:00Z', false, '2024-11-03T22:00:00Z'],
    // Before 2007 the US clocks changed in April and October.
    ['2006-04-02T21:00:00Z', true, '2006-04-07T21:00:00Z'],
    ['2006-10-29T21:30:00Z', false, '2006-10-29T22:00:00Z'],
  ])('at %s open is %s, next change %s', (t, open, change) => {
    expect(fx.openAt(at(t))).toBe(open);
    expect(text(fx.changeAfter(at(t)))).toBe(change);
  });

  it('answers any order of questions, not only forward ones', () => {
    const times = ['2024-01-10T00:00:00Z', '2024-01-06T00:00:00Z', '2024-01-13T00:00:00Z', '2024-01-08T00:00:00Z'];
    expect(times.map((t) => fx.openAt(at(t)))).toEqual([true, false, false, true]);
  });

  it('gives the reopening of a closed time and the time itself when open', () => {
    expect(text(fx.nextOpen(at('2024-01-06T12:00:00Z')))).toBe('2024-01-07T22:00:00Z');
    expect(text(fx.nextOpen(at('2024-01-04T12:00:00Z')))).toBe('2024-01-04T12:00:00Z');
    expect(fx.tradeableUntil(at('2024-01-06T12:00:00Z'))).toBe(Number.NEGATIVE_INFINITY);
    expect(text(fx.tradeableUntil(at('2024-01-04T12:00:00Z')))).toBe('2024-01-05T22:00:00Z');
  });
});

describe('closures and other weeks', () => {
  const christmas = new MarketCalendar({
    closures: [
      { from: '2024-12-25T12:00:00Z', to: '2024-12-25T22:00:00Z', name: 'Christmas, overlapping' },
      { from: '2024-12-24T22:00:00Z', to: '2024-12-25T18:00:00Z', name: 'Christmas' },
    ],
  });

  it('closes the merged intervals and reopens at their end', () => {
    expect(christmas.openAt(at('2024-12-24T21:59:59Z'))).toBe(true);
    expect(text(christmas.changeAfter(at('2024-12-24T21:59:59Z')))).toBe('2024-12-24T22:00:00Z');
    expect(christmas.openAt(at('2024-12-25T15:00:00Z'))).toBe(false);
    expect(text(christmas.nextOpen(at('2024-12-25T15:00:00Z')))).toBe('2024-12-25T22:00:00Z');
    // The session after the closure ends at the Friday close.
    expect(text(christmas.tradeableUntil(at('2024-12-26T00:00:00Z')))).toBe('2024-12-27T22:00:00Z');
  });

  it('chains a closure that ends inside the weekend into the Sunday reopening', () => {
    const friday = new MarketCalendar({ closures: [{ from: '2024-12-27T12:00:00Z', to: '2024-12-28T00:00:00Z' }] });
    expect(text(friday.nextOpen(at('2024-12-27T13:00:00Z')))).toBe('2024-12-29T22:00:00Z');
  });

  it('knows a week without a close and one of other hours', () => {
    const always = new MarketCalendar({ weekly: 'ALWAYS' });
    expect(always.openAt(at('2024-01-06T12:00:00Z'))).toBe(true);
    expect(always.changeAfter(at('2024-01-06T12:00:00Z'))).toBe(Number.POSITIVE_INFINITY);
    const weekdays = new MarketCalendar({ weekly: { open: 'MONDAY 09:30', close: 'FRIDAY 16:00' } });
    expect(weekdays.openAt(at('2024-01-08T14:29:00Z'))).toBe(false);
    expect(weekdays.openAt(at('2024-01-08T14:30:00Z'))).toBe(true);
  });

  it('refuses malformed calendars with the field at fault', () => {
    expect(() => new MarketCalendar({ weekly: { open: 'SUN 17:00', close: 'FRIDAY 17:00' } })).toThrow(/weekly.open/);
    expect(() => new MarketCalendar({ weekly: { open: 'FRIDAY 17:00', close: 'FRIDAY 17:00' } })).toThrow(/must differ/);
    expect(() => new MarketCalendar({ closures: [{ from: '2024-12-25T00:00:00Z', to: '2024-12-24T00:00:00Z' }] })).toThrow(/closures\[0\]/);
  });
});
