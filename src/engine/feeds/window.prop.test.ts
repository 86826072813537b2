import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { ticksInWindow } from './window.js';

/** Times in order (equal times allowed, as files have them). */
const sortedTimes = fc.array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 200 }).map((ts) => ts.sort((a, b) => a - b));
const bound = fc.option(fc.integer({ min: -10, max: 1_010 }), { nil: undefined });

describe('ticksInWindow (property)', () => {
  it('equals filtering every tick by from <= time < to, and reads at most one tick past the window', () => {
    fc.assert(
      fc.property(sortedTimes, bound, bound, (times, from, to) => {
        const ticks: Tick[] = times.map((time, i) => ({ instrument: 'EUR_USD', time, bid: 1 + i, ask: 1.1 + i }));
        let read = 0;
        const source: Iterable<Tick> = {
          *[Symbol.iterator]() {
            for (const tick of ticks) {
              read += 1;
              yield tick;
            }
          },
        };
        const window = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
        const got = [...ticksInWindow(source, window)];
        const expected = ticks.filter((t) => (from === undefined || t.time >= from) && (to === undefined || t.time < to));
        expect(got).toEqual(expected);
        const before = to === undefined ? ticks.length : ticks.filter((t) => t.time < to).length;
        expect(read).toBeLessThanOrEqual(Math.min(ticks.length, before + 1));
      }),
    );
  });
});
